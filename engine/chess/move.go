package chess

import (
	"fmt"

	"github.com/xqdb/xqdb/engine"
)

// Move layout (Polyglot's, ANCHORS §5): to = bits 0–5, from = bits 6–11,
// promotion = bits 12–14 (0 none, 1 N, 2 B, 3 R, 4 Q). The zero Move is
// a1a1, which is never legal.

// NewMove returns the move from → to without promotion. Castling is the
// king's two-square step (e1g1, e1c1, e8g8, e8c8).
func NewMove(from, to Square) engine.Move {
	return engine.Move(uint16(from&63)<<6 | uint16(to&63))
}

// NewPromotion returns the pawn move from → to promoting to pt (Knight,
// Bishop, Rook or Queen).
func NewPromotion(from, to Square, pt PieceType) engine.Move {
	if pt < Knight || pt > Queen {
		return NewMove(from, to)
	}
	return NewMove(from, to) | engine.Move(uint16(pt-1)&7)<<12
}

// From returns the square m leaves.
func From(m engine.Move) Square { return moveFrom(m) }

// To returns the square m lands on.
func To(m engine.Move) Square { return moveTo(m) }

// Promotion returns the piece type m promotes to, or NoPieceType.
func Promotion(m engine.Move) PieceType { return movePromo(m) }

func moveFrom(m engine.Move) Square { return Square(m>>6) & 63 }
func moveTo(m engine.Move) Square   { return Square(m) & 63 }

func movePromo(m engine.Move) PieceType {
	if p := (m >> 12) & 7; p != 0 {
		return PieceType(p + 1)
	}
	return NoPieceType
}

// isCastle reports whether the legal move m is castling.
func (b *board) isCastle(m engine.Move) bool {
	from, to := moveFrom(m), moveTo(m)
	return b.sq[from].Type() == King && (to == from+2 || to+2 == from)
}

// PolyglotMove returns the legal move m as a Polyglot book move: the same
// layout, except that castling is written king-takes-own-rook (e1h1, e1a1,
// e8h8, e8a8), as the book format requires (ANCHORS §5).
func (p *Position) PolyglotMove(m engine.Move) uint16 {
	if p.b.isCastle(m) {
		from := moveFrom(m)
		rook, _, _ := castleRook(from, moveTo(m))
		return uint16(NewMove(from, rook))
	}
	return uint16(m)
}

// FromPolyglot reads a Polyglot book move in this position, turning the
// king-takes-rook castling form into the king's two-square step, and
// returns ErrIllegalMove (wrapped) when the move is not legal here.
func (p *Position) FromPolyglot(raw uint16) (engine.Move, error) {
	m := engine.Move(raw & 0x7FFF)
	from, to := moveFrom(m), moveTo(m)
	if p.b.sq[from] == NewPiece(p.b.side, King) && p.b.sq[to] == NewPiece(p.b.side, Rook) && movePromo(m) == NoPieceType {
		if to > from {
			m = NewMove(from, from+2)
		} else {
			m = NewMove(from, from-2)
		}
	}
	if !p.IsLegal(m) {
		return engine.NoMove, fmt.Errorf("chess: polyglot move %#04x: %w", raw, engine.ErrIllegalMove)
	}
	return m, nil
}
