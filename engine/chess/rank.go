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
