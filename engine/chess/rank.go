package chess

import (
	"slices"

	"github.com/xqdb/xqdb/engine"
)

// MoveRank returns how many legal moves have a smaller wire code than m
// (the move's uint16 value, Polyglot's layout) and whether m is legal: m's
// index in the sorted list of legal moves, which the database stores as
// one byte a move (no position has more than 218 legal moves).
//
// Codes order moves by promotion piece, then from-square, then to-square.
// So the rank of a move that is not a promotion is the number of legal
// non-promotions from lower squares plus those from its own square to
// lower squares: two population counts over the legal-move masks, with no
// list built. Promotions (rare) are ranked from the full list.
func (p *Position) MoveRank(m engine.Move) (int, bool) {
	b := &p.b
	if m&^0x7FFF != 0 {
		return 0, false
	}
	if movePromo(m) != NoPieceType {
		return b.rankFromList(m)
	}
	g := p.info()
	from, to := moveFrom(m), moveTo(m)
	// Legal when counting to's square too counts one more.
	n := b.countBelow(g, from, bit(to)-1)
	if b.countBelow(g, from, bit(to)<<1-1) != n+1 {
		return 0, false
	}
	return n, true
}

// RankLegal is MoveRank of a move known to be legal (one ParseMove just
// returned): the replay of an import ranks every move, and the legality
// test would be a third of the work.
func (p *Position) RankLegal(m engine.Move) int {
	if movePromo(m) != NoPieceType {
		n, _ := p.b.rankFromList(m)
		return n
	}
	return p.b.countBelow(p.info(), moveFrom(m), bit(moveTo(m))-1)
}

// MoveAtRank is the inverse of MoveRank: the legal move whose rank is r,
// and false when there are not r+1 legal moves. Every ply of a stored
// record is read through it. Non-promotions come first in code order, by
// from-square: one pass (countEach) counts each own square's legal
// non-promotions, the squares are walked in order to the one that makes
// move r, and only that piece's moves are listed.
func (p *Position) MoveAtRank(r int) (engine.Move, bool) {
	b := &p.b
	g := p.info()
	if r < 0 {
		return 0, false
	}
	var buf [maxMoves]engine.Move
	var codes [maxMoves]uint16
	// nth lists the moves from the squares of from, keeps the promotions
	// or the others, and returns the nth in code order.
	nth := func(from uint64, promotions bool, n int) (engine.Move, bool) {
		k := 0
		for _, m := range b.genLegalFrom(buf[:0], g, from, ^uint64(0)) {
			if (movePromo(m) != NoPieceType) == promotions && k < len(codes) {
				codes[k] = uint16(m)
				k++
			}
		}
		if n >= k {
			return 0, false
		}
		slices.Sort(codes[:k])
		return engine.Move(codes[n]), true
	}
	var counts [64]uint8
	b.countEach(g, &counts)
	for own := g.own; own != 0; own &= own - 1 {
		s := lsb(own)
		if r < int(counts[s]) {
			return nth(bit(s), false, r)
		}
		r -= int(counts[s])
	}
	return nth(^uint64(0), true, r)
}

// countEach sets n[s] to the number of legal non-promotions from each own
// square s: countBelow's count, kept apart by square.
func (b *board) countEach(g *genInfo, n *[64]uint8) {
	const promoRanks = rank1 | rank8
	us := b.side
	ub := Piece(us) << 3
	ksq := g.ksq
	kn := popcount(b.safe(g, kingAttacks[ksq]&^g.own))
	if g.checkers == 0 && b.castle != 0 {
		var buf [2]engine.Move
		kn += len(b.appendCastles(buf[:0], g, ^uint64(0)))
	}
	n[ksq] = uint8(kn)
	if g.checkers&(g.checkers-1) != 0 {
		return // double check: only the king moves
	}
	mask := g.checkMask &^ g.own
	for pcs := b.bb[ub|Piece(Knight)] &^ g.pinned; pcs != 0; pcs &= pcs - 1 {
		s := lsb(pcs)
		n[s] = uint8(popcount(knightAttacks[s] & mask))
	}
	q := b.bb[ub|Piece(Queen)]
	for pcs := b.bb[ub|Piece(Bishop)] | q; pcs != 0; pcs &= pcs - 1 {
		s := lsb(pcs)
		n[s] = uint8(popcount(bishopAttacks(s, g.occ) & mask & g.pinLine(s)))
	}
	for pcs := b.bb[ub|Piece(Rook)] | q; pcs != 0; pcs &= pcs - 1 {
		s := lsb(pcs)
		n[s] += uint8(popcount(rookAttacks(s, g.occ) & mask & g.pinLine(s)))
	}
	// Pawn targets, each counted on the square its pawn stands on.
	p1, p2, cl, cr := b.pawnTargets(g, mask)
	d1, d2, dl, dr := 8, 16, 7, 9
	if us == Black {
		d1, d2, dl, dr = -8, -16, -9, -7
	}
	for _, t := range [4]struct {
		targets uint64
		d       int
	}{{p1, d1}, {p2, d2}, {cl, dl}, {cr, dr}} {
		for x := t.targets &^ promoRanks; x != 0; x &= x - 1 {
			n[int(lsb(x))-t.d]++
		}
	}
	pawns := b.bb[ub|Piece(Pawn)]
	if pinned := pawns & g.pinned; pinned != 0 && g.checkers == 0 {
		for ; pinned != 0; pinned &= pinned - 1 {
			s := lsb(pinned)
			n[s] = uint8(popcount(b.pinnedPawnTargets(g, s, mask) &^ promoRanks))
		}
	}
	if b.ep != NoSquare {
		for c := pawnAttacks[us^1][b.ep] & pawns; c != 0; c &= c - 1 {
			if s := lsb(c); b.epLegal(g, s) {
				n[s]++
			}
		}
	}
}

func (b *board) rankFromList(m engine.Move) (int, bool) {
	var buf [maxMoves]engine.Move
	code := uint16(m)
	n, found := 0, false
	for _, l := range b.genLegal(buf[:0], ^uint64(0)) {
		if c := uint16(l); c < code {
			n++
		} else if c == code {
			found = true
		}
	}
	return n, found
}

// countBelow counts the legal non-promotions from a square below f, and
// from f to a square in lowT, in one pass: with lowT the squares below t,
// the rank of the non-promotion f→t.
func (b *board) countBelow(g *genInfo, f Square, lowT uint64) int {
	const promoRanks = rank1 | rank8
	us := b.side
	ub := Piece(us) << 3
	below, at := bit(f)-1, bit(f)
	ksq := g.ksq
	n := 0
	if ksq <= f {
		lim := ^uint64(0)
		if ksq == f {
			lim = lowT
		}
		n += popcount(b.safe(g, kingAttacks[ksq]&^g.own&lim))
		if g.checkers == 0 && b.castle != 0 {
			var buf [2]engine.Move
			n += len(b.appendCastles(buf[:0], g, lim))
		}
	}
	if g.checkers&(g.checkers-1) != 0 {
		return n // double check: only the king moves
	}
	// Each piece below f counts every target in mask; the piece on f
	// those below t.
	mask := g.checkMask &^ g.own
	atMask := mask & lowT
	from := below | at
	for pcs := b.bb[ub|Piece(Knight)] &^ g.pinned & from; pcs != 0; pcs &= pcs - 1 {
		s := lsb(pcs)
		m := mask
		if s == f {
			m = atMask
		}
		n += popcount(knightAttacks[s] & m)
	}
	q := b.bb[ub|Piece(Queen)]
	for pcs := (b.bb[ub|Piece(Bishop)] | q) & from; pcs != 0; pcs &= pcs - 1 {
		s := lsb(pcs)
		m := mask
		if s == f {
			m = atMask
		}
		n += popcount(bishopAttacks(s, g.occ) & m & g.pinLine(s))
	}
	for pcs := (b.bb[ub|Piece(Rook)] | q) & from; pcs != 0; pcs &= pcs - 1 {
		s := lsb(pcs)
		m := mask
		if s == f {
			m = atMask
		}
		n += popcount(rookAttacks(s, g.occ) & m & g.pinLine(s))
	}
	// Pawn targets, by the square their pawn stands on.
	p1, p2, cl, cr := b.pawnTargets(g, mask)
	p1, cl, cr = p1&^promoRanks, cl&^promoRanks, cr&^promoRanks
	if us == White {
		n += popcount(p1&(below<<8)|p2&(below<<16)) + popcount(cl&(below<<7)) + popcount(cr&(below<<9)) +
			popcount((p1&(at<<8)|p2&(at<<16)|cl&(at<<7)|cr&(at<<9))&lowT)
	} else {
		n += popcount(p1&(below>>8)|p2&(below>>16)) + popcount(cl&(below>>9)) + popcount(cr&(below>>7)) +
			popcount((p1&(at>>8)|p2&(at>>16)|cl&(at>>9)|cr&(at>>7))&lowT)
	}
	pawns := b.bb[ub|Piece(Pawn)]
	if pinned := pawns & g.pinned & from; pinned != 0 && g.checkers == 0 {
		for ; pinned != 0; pinned &= pinned - 1 {
			s := lsb(pinned)
			m := mask
			if s == f {
				m = atMask
			}
			n += popcount(b.pinnedPawnTargets(g, s, mask) &^ promoRanks & m)
		}
	}
	if b.ep != NoSquare {
		for c := pawnAttacks[us^1][b.ep] & pawns & from; c != 0; c &= c - 1 {
			if s := lsb(c); (s != f || bit(b.ep)&lowT != 0) && b.epLegal(g, s) {
				n++
			}
		}
	}
	return n
}
