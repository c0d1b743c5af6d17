package chess

import (
	"github.com/xqdb/xqdb/engine"
)

// Legal move generation with check and pin masks, so that no move has to be
// made to test it (RULES C4: a move may not leave one's own king attacked):
//
//   - the king may step only to squares the enemy does not attack once the
//     king has left its square (so it cannot retreat along a checking ray);
//   - in double check only the king moves;
//   - in single check other pieces must capture the checker or block its ray
//     (checkMask);
//   - a pinned piece moves only along the line through its king and pinner;
//   - e.p. is tested by removing both pawns from the board and looking for
//     attacks on the king, which catches the horizontal pin (RULES C3).
//
// countLegal mirrors genLegal with population counts instead of emitting
// moves: perft's bulk counting at the last ply.

// maxMoves is the capacity of move buffers on the stack. 218 is the most
// legal moves known in a position with legal material; append keeps even
// composed positions with more (up to 270 in shakmaty's tricky suite)
// correct, at the price of one allocation.
const maxMoves = 256

// genInfo is what every legal-move test of a position needs.
type genInfo struct {
	own, opp, occ uint64
	checkers      uint64
	pinned        uint64
	// checkMask holds the squares a non-king move must land on: everything
	// when not in check, the checker and its ray when in single check.
	checkMask uint64
	// danger holds the squares the enemy attacks with our king lifted off
	// the board, once dangerOK (see safe).
	danger   uint64
	dangerOK bool
	ksq      Square
}

// attackersTo returns the pieces of both colours that attack s when the
// board's occupancy is occ.
func (b *board) attackersTo(s Square, occ uint64) uint64 {
	bq := b.bb[wB] | b.bb[bB] | b.bb[wQ] | b.bb[bQ]
	rq := b.bb[wR] | b.bb[bR] | b.bb[wQ] | b.bb[bQ]
	return pawnAttacks[White][s]&b.bb[bP] | pawnAttacks[Black][s]&b.bb[wP] |
		knightAttacks[s]&(b.bb[wN]|b.bb[bN]) |
		kingAttacks[s]&(b.bb[wK]|b.bb[bK]) |
		bishopAttacks(s, occ)&bq | rookAttacks(s, occ)&rq
}

// attackMap returns every square side c attacks when the occupancy is occ.
func (b *board) attackMap(c engine.Color, occ uint64) uint64 {
	base := Piece(c) << 3
	p := b.bb[base|Piece(Pawn)]
	var a uint64
	if c == White {
		a = (p&^fileA)<<7 | (p&^fileH)<<9
	} else {
		a = (p&^fileA)>>9 | (p&^fileH)>>7
	}
	for n := b.bb[base|Piece(Knight)]; n != 0; n &= n - 1 {
		a |= knightAttacks[lsb(n)]
	}
	q := b.bb[base|Piece(Queen)]
	for s := b.bb[base|Piece(Bishop)] | q; s != 0; s &= s - 1 {
		a |= bishopAttacks(lsb(s), occ)
	}
	for s := b.bb[base|Piece(Rook)] | q; s != 0; s &= s - 1 {
		a |= rookAttacks(lsb(s), occ)
	}
	return a | kingAttacks[lsb(b.bb[base|Piece(King)])]
}

// inCheck reports whether the side to move is in check.
func (b *board) inCheck() bool {
	ksq := b.kingSquare(b.side)
	return b.attackersTo(ksq, b.occ[0]|b.occ[1])&b.occ[b.side^1] != 0
}

// prepare fills g for the side to move.
func (b *board) prepare(g *genInfo) {
	us := b.side
	them := us ^ 1
	tb := Piece(them) << 3
	g.own, g.opp = b.occ[us], b.occ[them]
	g.occ = g.own | g.opp
	ksq := b.kingSquare(us)
	g.ksq = ksq
	g.checkers = knightAttacks[ksq]&b.bb[tb|Piece(Knight)] | pawnAttacks[us][ksq]&b.bb[tb|Piece(Pawn)]
	q := b.bb[tb|Piece(Queen)]
	// Enemy sliders that see the king through our own pieces: with nothing
	// between they check, with exactly one of ours between they pin it.
	snipers := rookAttacks(ksq, g.opp)&(b.bb[tb|Piece(Rook)]|q) | bishopAttacks(ksq, g.opp)&(b.bb[tb|Piece(Bishop)]|q)
	g.pinned = 0
	for ; snipers != 0; snipers &= snipers - 1 {
		s := lsb(snipers)
		blk := betweenBB[ksq][s] & g.occ
		if blk == 0 {
			g.checkers |= bit(s)
		} else if blk&(blk-1) == 0 {
			g.pinned |= blk
		}
	}
	switch {
	case g.checkers == 0:
		g.checkMask = ^uint64(0)
	case g.checkers&(g.checkers-1) == 0:
		c := lsb(g.checkers)
		g.checkMask = betweenBB[ksq][c] | g.checkers
	default:
		g.checkMask = 0
	}
	g.dangerOK = false
}

// pinLine returns where the piece on s may move without uncovering its
// king: anywhere when it is not pinned, else along the pin.
func (g *genInfo) pinLine(s Square) uint64 {
	if g.pinned&bit(s) != 0 {
		return lineBB[g.ksq][s]
	}
	return ^uint64(0)
}

// safe returns the squares of sq the enemy does not attack once our king
// has left its square: where the king may step. One or two squares (a SAN
// token's target, a castled king's free neighbours) are tested one by
// one; more take the enemy's whole attack map, computed once.
func (b *board) safe(g *genInfo, sq uint64) uint64 {
	if sq == 0 {
		return 0
	}
	occ := g.occ &^ bit(g.ksq)
	if rest := sq & (sq - 1); !g.dangerOK && rest&(rest-1) == 0 {
		var out uint64
		for t := sq; t != 0; t &= t - 1 {
			if s := lsb(t); b.attackersTo(s, occ)&g.opp == 0 {
				out |= bit(s)
			}
		}
		return out
	}
	if !g.dangerOK {
		g.danger, g.dangerOK = b.attackMap(b.side^1, occ), true
	}
	return sq &^ g.danger
}

// appendMoves appends a move from → t for every square t in targets.
func appendMoves(dst []engine.Move, from Square, targets uint64) []engine.Move {
	base := engine.Move(from) << 6
	for ; targets != 0; targets &= targets - 1 {
		dst = append(dst, base|engine.Move(lsb(targets)))
	}
	return dst
}

// appendPawnMoves appends the pawn moves landing on targets, each coming
// from the square delta below (White) or above (Black) it; moves to the
// last rank become the four promotions (RULES C3).
func appendPawnMoves(dst []engine.Move, targets uint64, delta int) []engine.Move {
	for ; targets != 0; targets &= targets - 1 {
		to := lsb(targets)
		m := NewMove(Square(int(to)-delta), to)
		if to >= A8 || to <= H1 {
			dst = append(dst, m|4<<12, m|3<<12, m|2<<12, m|1<<12)
		} else {
			dst = append(dst, m)
		}
	}
	return dst
}

// genLegal appends the legal moves whose destination lies in target.
func (b *board) genLegal(dst []engine.Move, target uint64) []engine.Move {
	var g genInfo
	b.prepare(&g)
	return b.genLegalFrom(dst, &g, ^uint64(0), target)
}

// genLegalFrom appends the legal moves from a square in from to a square in
// target; g is the position's prepared genInfo. A SAN token names the
// piece, so its parse looks at those pieces only.
func (b *board) genLegalFrom(dst []engine.Move, g *genInfo, from, target uint64) []engine.Move {
	us := b.side
	ub := Piece(us) << 3
	ksq := g.ksq
	if from&bit(ksq) != 0 {
		dst = appendMoves(dst, ksq, b.safe(g, kingAttacks[ksq]&^g.own&target))
	}
	if g.checkers&(g.checkers-1) != 0 {
		return dst // double check: only the king moves
	}
	mask := g.checkMask & target &^ g.own
	if from&bit(ksq) != 0 && g.checkers == 0 && b.castle != 0 {
		dst = b.appendCastles(dst, g, target)
	}
	for pcs := b.bb[ub|Piece(Knight)] &^ g.pinned & from; pcs != 0; pcs &= pcs - 1 {
		s := lsb(pcs)
		dst = appendMoves(dst, s, knightAttacks[s]&mask)
	}
	q := b.bb[ub|Piece(Queen)]
	for pcs := (b.bb[ub|Piece(Bishop)] | q) & from; pcs != 0; pcs &= pcs - 1 {
		s := lsb(pcs)
		dst = appendMoves(dst, s, bishopAttacks(s, g.occ)&mask&g.pinLine(s))
	}
	for pcs := (b.bb[ub|Piece(Rook)] | q) & from; pcs != 0; pcs &= pcs - 1 {
		s := lsb(pcs)
		dst = appendMoves(dst, s, rookAttacks(s, g.occ)&mask&g.pinLine(s))
	}
	if b.bb[ub|Piece(Pawn)]&from == 0 {
		return dst
	}
	return b.appendPawns(dst, g, from, mask, target)
}

// appendCastles appends the castling moves allowed by RULES C2: the right
// is kept (king and rook unmoved), the squares between are empty, and the
// king is not in check (tested by the caller) and neither passes nor lands
// on an attacked square.
func (b *board) appendCastles(dst []engine.Move, g *genInfo, target uint64) []engine.Move {
	if b.side == White {
		if b.castle&castleWK != 0 && target&bit(G1) != 0 && g.occ&(bit(F1)|bit(G1)) == 0 && b.safe(g, bit(F1)|bit(G1)) == bit(F1)|bit(G1) {
			dst = append(dst, NewMove(E1, G1))
		}
		if b.castle&castleWQ != 0 && target&bit(C1) != 0 && g.occ&(bit(B1)|bit(C1)|bit(D1)) == 0 && b.safe(g, bit(C1)|bit(D1)) == bit(C1)|bit(D1) {
			dst = append(dst, NewMove(E1, C1))
		}
		return dst
	}
	if b.castle&castleBK != 0 && target&bit(G8) != 0 && g.occ&(bit(F8)|bit(G8)) == 0 && b.safe(g, bit(F8)|bit(G8)) == bit(F8)|bit(G8) {
		dst = append(dst, NewMove(E8, G8))
	}
	if b.castle&castleBQ != 0 && target&bit(C8) != 0 && g.occ&(bit(B8)|bit(C8)|bit(D8)) == 0 && b.safe(g, bit(C8)|bit(D8)) == bit(C8)|bit(D8) {
		dst = append(dst, NewMove(E8, C8))
	}
	return dst
}

// pawnTargets returns the destinations of the unpinned pawns, split by
// kind: single pushes, double pushes, captures towards the a-file and
// towards the h-file, each already limited to mask.
func (b *board) pawnTargets(g *genInfo, mask uint64) (p1, p2, cl, cr uint64) {
	empty := ^g.occ
	enemy := g.opp & mask
	if b.side == White {
		free := b.bb[wP] &^ g.pinned
		p1 = free << 8 & empty
		p2 = (p1 & rank3) << 8 & empty & mask
		p1 &= mask
		cl = (free &^ fileA) << 7 & enemy
		cr = (free &^ fileH) << 9 & enemy
		return
	}
	free := b.bb[bP] &^ g.pinned
	p1 = free >> 8 & empty
	p2 = (p1 & rank6) >> 8 & empty & mask
	p1 &= mask
	cl = (free &^ fileA) >> 9 & enemy
	cr = (free &^ fileH) >> 7 & enemy
	return
}

// pinnedPawnTargets returns the destinations of the pinned pawn on from:
// only along the pin line. Never called in check, where no pinned piece
// can move.
func (b *board) pinnedPawnTargets(g *genInfo, from Square, mask uint64) uint64 {
	us := b.side
	t := pawnAttacks[us][from] & g.opp
	one := from + 8
	if us == Black {
		one = from - 8
	}
	if g.occ&bit(one) == 0 {
		t |= bit(one)
		if two := one + one - from; (from>>3 == 1 && us == White || from>>3 == 6 && us == Black) && g.occ&bit(two) == 0 {
			t |= bit(two)
		}
	}
	return t & mask & lineBB[g.ksq][from]
}

// epLegal reports whether the e.p. capture from → b.ep leaves the king
// safe. Both pawns leave their squares at once, so a rook or queen behind
// them on the rank may be unmasked (the horizontal pin, RULES C3/C4).
func (b *board) epLegal(g *genInfo, from Square) bool {
	capSq := b.ep ^ 8
	occ := g.occ ^ bit(from) ^ bit(capSq) | bit(b.ep)
	return b.attackersTo(g.ksq, occ)&g.opp&^bit(capSq) == 0
}

func (b *board) appendPawns(dst []engine.Move, g *genInfo, from, mask, target uint64) []engine.Move {
	us := b.side
	p1, p2, cl, cr := b.pawnTargets(g, mask)
	if us == White {
		dst = appendPawnMoves(dst, p1&(from<<8), 8)
		dst = appendPawnMoves(dst, p2&(from<<16), 16)
		dst = appendPawnMoves(dst, cl&(from<<7), 7)
		dst = appendPawnMoves(dst, cr&(from<<9), 9)
	} else {
		dst = appendPawnMoves(dst, p1&(from>>8), -8)
		dst = appendPawnMoves(dst, p2&(from>>16), -16)
		dst = appendPawnMoves(dst, cl&(from>>9), -9)
		dst = appendPawnMoves(dst, cr&(from>>7), -7)
	}
	pawns := b.bb[Piece(us)<<3|Piece(Pawn)] & from
	if pinned := pawns & g.pinned; pinned != 0 && g.checkers == 0 {
		for ; pinned != 0; pinned &= pinned - 1 {
			s := lsb(pinned)
			for t := b.pinnedPawnTargets(g, s, mask); t != 0; t &= t - 1 {
				to := lsb(t)
				dst = appendPawnMoves(dst, bit(to), int(to)-int(s))
			}
		}
	}
	if b.ep != NoSquare && target&bit(b.ep) != 0 {
		for c := pawnAttacks[us^1][b.ep] & pawns; c != 0; c &= c - 1 {
			if s := lsb(c); b.epLegal(g, s) {
				dst = append(dst, NewMove(s, b.ep))
			}
		}
	}
	return dst
}

// countLegal returns the number of legal moves: genLegal with population
// counts (perft's bulk counting).
func (b *board) countLegal() int {
	var g genInfo
	b.prepare(&g)
	us := b.side
	ub := Piece(us) << 3
	ksq := g.ksq
	n := popcount(b.safe(&g, kingAttacks[ksq]&^g.own))
	if g.checkers&(g.checkers-1) != 0 {
		return n
	}
	mask := g.checkMask &^ g.own
	if g.checkers == 0 && b.castle != 0 {
		var buf [2]engine.Move
		n += len(b.appendCastles(buf[:0], &g, ^uint64(0)))
	}
	for pcs := b.bb[ub|Piece(Knight)] &^ g.pinned; pcs != 0; pcs &= pcs - 1 {
		n += popcount(knightAttacks[lsb(pcs)] & mask)
	}
	q := b.bb[ub|Piece(Queen)]
	for pcs := b.bb[ub|Piece(Bishop)] | q; pcs != 0; pcs &= pcs - 1 {
		from := lsb(pcs)
		n += popcount(bishopAttacks(from, g.occ) & mask & g.pinLine(from))
	}
	for pcs := b.bb[ub|Piece(Rook)] | q; pcs != 0; pcs &= pcs - 1 {
		from := lsb(pcs)
		n += popcount(rookAttacks(from, g.occ) & mask & g.pinLine(from))
	}
	const promoRanks = rank1 | rank8
	p1, p2, cl, cr := b.pawnTargets(&g, mask)
	n += popcount(p1&^promoRanks) + popcount(p2) + popcount(cl&^promoRanks) + popcount(cr&^promoRanks)
	n += 4 * popcount(p1&promoRanks)
	n += 4 * (popcount(cl&promoRanks) + popcount(cr&promoRanks))
	pawns := b.bb[ub|Piece(Pawn)]
	if pinned := pawns & g.pinned; pinned != 0 && g.checkers == 0 {
		for ; pinned != 0; pinned &= pinned - 1 {
			t := b.pinnedPawnTargets(&g, lsb(pinned), mask)
			n += popcount(t&^promoRanks) + 4*popcount(t&promoRanks)
		}
	}
	if b.ep != NoSquare {
		for c := pawnAttacks[us^1][b.ep] & pawns; c != 0; c &= c - 1 {
			if b.epLegal(&g, lsb(c)) {
				n++
			}
		}
	}
	return n
}

// Pieces by colour and type, for the tables above.
const (
	wP = Piece(Pawn)
	wN = Piece(Knight)
	wB = Piece(Bishop)
	wR = Piece(Rook)
	wQ = Piece(Queen)
	wK = Piece(King)
	bP = Piece(Pawn) | 8
	bN = Piece(Knight) | 8
	bB = Piece(Bishop) | 8
	bR = Piece(Rook) | 8
	bQ = Piece(Queen) | 8
	bK = Piece(King) | 8
)
