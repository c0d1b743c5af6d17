package chess

import "github.com/xqdb/xqdb/engine"

// Status says whether the side to move is checkmated (RULES C4: a win for
// the other side) or stalemated (a draw in chess), or neither.
func (p *Position) Status() engine.Status {
	if p.b.countLegal() > 0 {
		return engine.Ongoing
	}
	if p.b.inCheck() {
		return engine.Checkmate
	}
	return engine.Stalemate
}

// InsufficientMaterial reports a dead position by material (RULES C5): no
// pawns, rooks or queens, and either at most one minor piece on the board
// (K v K, K+N v K, K+B v K) or only bishops, all on squares of one colour
// (K+B v K+B with same-coloured bishops, and any number of such bishops).
// Other dead positions (blocked pawn walls) are not detected.
func (p *Position) InsufficientMaterial() bool {
	b := &p.b
	if b.bb[wP]|b.bb[bP]|b.bb[wR]|b.bb[bR]|b.bb[wQ]|b.bb[bQ] != 0 {
		return false
	}
	knights := b.bb[wN] | b.bb[bN]
	bishops := b.bb[wB] | b.bb[bB]
	if popcount(knights|bishops) <= 1 {
		return true
	}
	return knights == 0 && (bishops&lightSquares == 0 || bishops&darkSquares == 0)
}

// RepetitionCount returns how often the current position has occurred since
// the last irreversible move (capture or pawn move), this occurrence
// included, as told by the key: 3 allows a draw claim, 5 draws at once
// (RULES C5). Only positions reached on this Position count; a position set
// up from FEN has no earlier history. Castling rights and the e.p. square
// (by Polyglot's rule, see the package doc) are part of the key.
func (p *Position) RepetitionCount() int {
	n := 1
	limit := min(int(p.b.half), len(p.hist))
	for i := 2; i <= limit; i += 2 {
		if p.hist[len(p.hist)-i].u.key == p.b.key {
			n++
		}
	}
	return n
}

// KeyLegalEP returns the key with the e.p. file hashed only when an e.p.
// capture is legal, not merely pseudo-legal: lichess's rule (its opening
// explorer keys, ANCHORS §5). It differs from Key only when every pawn that
// could take e.p. is pinned or would leave its king in check.
func (p *Position) KeyLegalEP() uint64 {
	b := &p.b
	if b.ep == NoSquare {
		return b.key
	}
	var g genInfo
	b.prepare(&g)
	for c := pawnAttacks[b.side^1][b.ep] & b.bb[NewPiece(b.side, Pawn)]; c != 0; c &= c - 1 {
		if b.epLegal(&g, lsb(c)) {
			return b.key
		}
	}
	return b.key ^ zEP[b.ep.File()]
}
