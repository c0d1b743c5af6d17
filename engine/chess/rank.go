package chess

import "github.com/xqdb/xqdb/engine"

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
	if b.countNonPromotions(g, bit(from), bit(to)) != 1 {
		return 0, false // not legal
	}
	return b.countNonPromotions(g, bit(from)-1, ^uint64(0)) + b.countNonPromotions(g, bit(from), bit(to)-1), true
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

// countNonPromotions counts the legal moves that are not promotions whose
// from-square is in from and to-square in to: countLegal, restricted.
func (b *board) countNonPromotions(g *genInfo, from, to uint64) int {
	const promoRanks = rank1 | rank8
	us := b.side
	ub := Piece(us) << 3
	ksq := g.ksq
	n := 0
	if from&bit(ksq) != 0 {
		n += popcount(b.safe(g, kingAttacks[ksq]&^g.own&to))
		if g.checkers == 0 && b.castle != 0 {
			var buf [2]engine.Move
			n += len(b.appendCastles(buf[:0], g, to))
		}
	}
	if g.checkers&(g.checkers-1) != 0 {
		return n // double check: only the king moves
	}
	mask := g.checkMask &^ g.own & to
	for pcs := b.bb[ub|Piece(Knight)] &^ g.pinned & from; pcs != 0; pcs &= pcs - 1 {
		n += popcount(knightAttacks[lsb(pcs)] & mask)
	}
	q := b.bb[ub|Piece(Queen)]
	for pcs := (b.bb[ub|Piece(Bishop)] | q) & from; pcs != 0; pcs &= pcs - 1 {
		s := lsb(pcs)
		n += popcount(bishopAttacks(s, g.occ) & mask & g.pinLine(s))
	}
	for pcs := (b.bb[ub|Piece(Rook)] | q) & from; pcs != 0; pcs &= pcs - 1 {
		s := lsb(pcs)
		n += popcount(rookAttacks(s, g.occ) & mask & g.pinLine(s))
	}
	// Pawn targets, kept when the square they come from is in from.
	p1, p2, cl, cr := b.pawnTargets(g, mask)
	if us == White {
		p1, p2, cl, cr = p1&(from<<8), p2&(from<<16), cl&(from<<7), cr&(from<<9)
	} else {
		p1, p2, cl, cr = p1&(from>>8), p2&(from>>16), cl&(from>>9), cr&(from>>7)
	}
	n += popcount(p1&^promoRanks) + popcount(p2) + popcount(cl&^promoRanks) + popcount(cr&^promoRanks)
	pawns := b.bb[ub|Piece(Pawn)]
	if pinned := pawns & g.pinned & from; pinned != 0 && g.checkers == 0 {
		for ; pinned != 0; pinned &= pinned - 1 {
			n += popcount(b.pinnedPawnTargets(g, lsb(pinned), mask) &^ promoRanks)
		}
	}
	if b.ep != NoSquare && to&bit(b.ep) != 0 {
		for c := pawnAttacks[us^1][b.ep] & pawns & from; c != 0; c &= c - 1 {
			if b.epLegal(g, lsb(c)) {
				n++
			}
		}
	}
	return n
}
