package chess

import "github.com/xqdb/xqdb/engine"

// What a searching engine (engine/search) needs beyond the Position
// contract: captures alone for its quiescence search, a null move for
// null-move pruning, bitboards and attack sets for its evaluation.

// AppendLegalCaptures appends the legal moves that capture (en passant
// included) or promote to dst.
func (p *Position) AppendLegalCaptures(dst []engine.Move) []engine.Move {
	b := &p.b
	target := b.occ[b.side^1] | rank1and8
	if b.ep != NoSquare {
		target |= bit(b.ep)
	}
	g := p.info()
	start := len(dst)
	dst = b.genLegalFrom(dst, g, ^uint64(0), target)
	// Moves onto the first or eighth rank that neither capture nor promote
	// (a rook or king stepping there) are quiet: drop them.
	n := start
	for i := start; i < len(dst); i++ {
		m := dst[i]
		to := moveTo(m)
		if b.sq[to] != NoPiece || movePromo(m) != NoPieceType || to == b.ep && b.sq[moveFrom(m)].Type() == Pawn {
			dst[n] = m
			n++
		}
	}
	return dst[:n]
}

const rank1and8 = 0xff000000000000ff

// MakeNull passes the move to the opponent without moving a piece. It is
// not a legal chess move: only a search makes it, never while in check.
// The e.p. square lapses, and the halfmove clock restarts at 0 so that
// repetition scans never look back across it.
func (p *Position) MakeNull() {
	b := &p.b
	u := undo{key: b.key, half: b.half, castle: b.castle, ep: b.ep}
	key := b.key ^ zTurn
	if b.ep != NoSquare {
		key ^= zEP[b.ep&7]
		b.ep = NoSquare
	}
	b.half = 0
	if b.side == Black {
		b.full++
	}
	b.side ^= 1
	b.key = key
	p.genOK = false
	p.hist = append(p.hist, histEntry{u: u, m: engine.NoMove})
}

// UnmakeNull takes back MakeNull.
func (p *Position) UnmakeNull() {
	n := len(p.hist) - 1
	u := p.hist[n].u
	p.hist = p.hist[:n]
	b := &p.b
	b.side ^= 1
	if b.side == Black {
		b.full--
	}
	b.key, b.half, b.ep = u.key, u.half, u.ep
	p.genOK = false
}

// HistoryKey returns the key of the position before the i-th move made
// (0-based).
func (p *Position) HistoryKey(i int) uint64 { return p.hist[i].u.key }

// HistoryMove returns the i-th move made (0-based), NoMove for a null move.
func (p *Position) HistoryMove(i int) engine.Move { return p.hist[i].m }

// Pieces returns the bitboard of piece pc (bit s set for square s).
func (p *Position) Pieces(pc Piece) uint64 { return p.b.bb[pc&15] }

// Occupied returns the bitboard of side c's pieces.
func (p *Position) Occupied(c engine.Color) uint64 { return p.b.occ[c&1] }

// Attacks returns the squares a piece of type t and colour c on s attacks
// when the squares in occ are occupied.
func Attacks(t PieceType, c engine.Color, s Square, occ uint64) uint64 {
	switch t {
	case Pawn:
		return pawnAttacks[c&1][s&63]
	case Knight:
		return knightAttacks[s&63]
	case Bishop:
		return bishopAttacks(s, occ)
	case Rook:
		return rookAttacks(s, occ)
	case Queen:
		return queenAttacks(s, occ)
	case King:
		return kingAttacks[s&63]
	}
	return 0
}
