package chess

import (
	"fmt"

	"github.com/xqdb/xqdb/engine"
)

// UCI notation: from-square, to-square and a lower-case promotion letter
// (e2e4, e7e8q); castling is the king's two-square step (e1g1).

// AppendUCI appends the UCI text of m to dst.
func AppendUCI(dst []byte, m engine.Move) []byte {
	from, to := moveFrom(m), moveTo(m)
	dst = append(dst, 'a'+byte(from.File()), '1'+byte(from.Rank()), 'a'+byte(to.File()), '1'+byte(to.Rank()))
	if pt := movePromo(m); pt != NoPieceType {
		dst = append(dst, "  nbrq"[pt])
	}
	return dst
}

// UCI returns the UCI text of m.
func UCI(m engine.Move) string { return uciString(m) }

func uciString(m engine.Move) string {
	var buf [5]byte
	return string(AppendUCI(buf[:0], m))
}

// parseUCI reads a UCI move: exactly from-square, to-square and an optional
// promotion letter (either case). Castling may also be written
// king-takes-own-rook (e1h1), the form of Chess960 GUIs and Polyglot books.
func (p *Position) parseUCI(tok string) (engine.Move, error) {
	s := trimSpace(tok)
	if len(s) != 4 && len(s) != 5 {
		return engine.NoMove, fmt.Errorf("chess: %q: %w", tok, engine.ErrBadMove)
	}
	from, ok1 := ParseSquare(s[:2])
	to, ok2 := ParseSquare(s[2:4])
	if !ok1 || !ok2 {
		return engine.NoMove, fmt.Errorf("chess: %q: %w", tok, engine.ErrBadMove)
	}
	m := NewMove(from, to)
	if len(s) == 5 {
		pt := promoLetter(s[4])
		if pt == NoPieceType {
			return engine.NoMove, fmt.Errorf("chess: %q: %w", tok, engine.ErrBadMove)
		}
		m = NewPromotion(from, to, pt)
	} else {
		to = p.b.castleFromRookCapture(from, to)
		m = NewMove(from, to)
	}
	if !p.b.isLegal(m) {
		return engine.NoMove, fmt.Errorf("chess: %q: %w", tok, engine.ErrIllegalMove)
	}
	return m, nil
}

// castleFromRookCapture turns the king-takes-own-rook form of castling
// (e1h1) into the king's destination (g1); any other to-square is returned
// as is.
func (b *board) castleFromRookCapture(from, to Square) Square {
	us := b.side
	if b.sq[from] != NewPiece(us, King) || b.sq[to] != NewPiece(us, Rook) {
		return to
	}
	home := E1
	if us == Black {
		home = E8
	}
	switch {
	case from == home && to == home+3:
		return home + 2
	case from == home && to == home-4:
		return home - 2
	}
	return to
}

// promoLetter reads a promotion piece letter in either case.
func promoLetter(c byte) PieceType {
	switch c {
	case 'q', 'Q':
		return Queen
	case 'r', 'R':
		return Rook
	case 'b', 'B':
		return Bishop
	case 'n', 'N':
		return Knight
	}
	return NoPieceType
}

func trimSpace(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t' || s[0] == '\r' || s[0] == '\n') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t' || s[len(s)-1] == '\r' || s[len(s)-1] == '\n') {
		s = s[:len(s)-1]
	}
	return s
}
