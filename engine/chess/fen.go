package chess

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/xqdb/xqdb/engine"
)

// ParseFEN reads a FEN: piece placement, side to move, castling rights
// (KQkq in any order, or -), e.p. square (or -), halfmove clock and
// fullmove number. The two counters may be left out (as in EPD); they
// default to 0 and 1. A fullmove number of 0, written by some tools, reads
// as 1. The halfmove clock must fit 0–65535, the fullmove number 31 bits.
//
// It returns ErrBadFEN (wrapped, saying why) for text that is not a FEN and
// for positions that cannot arise in a game: a side without exactly one
// king, a pawn on the first or last rank, the side not to move in check,
// a castling right whose king or rook is not on its start square, or an e.p.
// square on the wrong rank, without the pawn that just double-stepped in
// front of it, or with that pawn's path (the e.p. square and the square the
// pawn came from) not empty. Material counts are not checked: composed
// positions with extra queens are accepted.
//
// A valid e.p. square is dropped when no pawn of the side to move stands
// beside the double-stepped pawn (see the package doc), so FEN output may
// differ from the input there.
func ParseFEN(s string) (*Position, error) {
	b, err := parseBoard(s)
	if err != nil {
		return nil, err
	}
	return newPosition(b), nil
}

// ParseEPD reads an EPD record: the four position fields of a FEN followed
// by optional operations ("bm Nf3; id \"x\";"), which it returns unparsed
// except that hmvc and fmvn operations set the counters.
func ParseEPD(s string) (*Position, string, error) {
	f := strings.Fields(s)
	if len(f) < 4 {
		return nil, "", fmt.Errorf("chess: %w %q: want 4 fields", engine.ErrBadFEN, s)
	}
	ops := afterFields(s, 4)
	half, full := "0", "1"
	for _, op := range strings.Split(ops, ";") {
		switch of := strings.Fields(op); {
		case len(of) == 2 && of[0] == "hmvc":
			half = of[1]
		case len(of) == 2 && of[0] == "fmvn":
			full = of[1]
		}
	}
	b, err := parseBoard(strings.Join(append(f[:4:4], half, full), " "))
	if err != nil {
		return nil, "", err
	}
	return newPosition(b), ops, nil
}

// afterFields returns s after its first n space-separated fields, trimmed.
func afterFields(s string, n int) string {
	for ; n > 0; n-- {
		s = strings.TrimLeft(s, " \t\r\n")
		i := strings.IndexAny(s, " \t\r\n")
		if i < 0 {
			return ""
		}
		s = s[i:]
	}
	return strings.TrimSpace(s)
}

func badFEN(s, format string, args ...any) error {
	return fmt.Errorf("chess: %w %q: %s", engine.ErrBadFEN, s, fmt.Sprintf(format, args...))
}

func parseBoard(s string) (board, error) {
	var b board
	f := strings.Fields(s)
	if len(f) < 4 || len(f) > 6 {
		return b, badFEN(s, "want 4 to 6 fields, got %d", len(f))
	}
	if err := b.parsePlacement(s, f[0]); err != nil {
		return b, err
	}
	switch f[1] {
	case "w":
		b.side = White
	case "b":
		b.side = Black
	default:
		return b, badFEN(s, "side to move %q is not w or b", f[1])
	}
	if f[2] != "-" {
		for i := 0; i < len(f[2]); i++ {
			var r uint8
			switch f[2][i] {
			case 'K':
				r = castleWK
			case 'Q':
				r = castleWQ
			case 'k':
				r = castleBK
			case 'q':
				r = castleBQ
			default:
				return b, badFEN(s, "castling field %q: want KQkq or -", f[2])
			}
			if b.castle&r != 0 {
				return b, badFEN(s, "castling field %q repeats %c", f[2], f[2][i])
			}
			b.castle |= r
		}
	}
	b.ep = NoSquare
	if f[3] != "-" {
		ep, ok := ParseSquare(f[3])
		if !ok {
			return b, badFEN(s, "e.p. field %q is not a square", f[3])
		}
		b.ep = ep
	}
	b.full = 1
	if len(f) > 4 {
		n, err := strconv.ParseUint(f[4], 10, 16)
		if err != nil {
			return b, badFEN(s, "halfmove clock %q is not a number from 0 to 65535", f[4])
		}
		b.half = uint16(n)
	}
	if len(f) > 5 {
		n, err := strconv.ParseUint(f[5], 10, 31)
		if err != nil {
			return b, badFEN(s, "fullmove number %q is not a number from 1 to 2147483647", f[5])
		}
		b.full = max(uint32(n), 1)
	}
	if err := b.validate(s); err != nil {
		return b, err
	}
	b.key = b.computeKey()
	return b, nil
}

func (b *board) parsePlacement(s, field string) error {
	ranks := strings.Split(field, "/")
	if len(ranks) != 8 {
		return badFEN(s, "want 8 ranks, got %d", len(ranks))
	}
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			if c >= '1' && c <= '8' {
				file += int(c - '0')
				continue
			}
			p := pieceFromChar(c)
			if p == NoPiece {
				return badFEN(s, "rank %d: %q is not a piece", rank+1, c)
			}
			if file > 7 {
				return badFEN(s, "rank %d: %q has more than 8 files", rank+1, row)
			}
			b.put(p, NewSquare(file, rank))
			file++
		}
		if file != 8 {
			return badFEN(s, "rank %d: %q does not fill 8 files", rank+1, row)
		}
	}
	return nil
}

// validate rejects positions that cannot arise in a game (see ParseFEN) and
// drops an e.p. square no pawn can use.
func (b *board) validate(s string) error {
	for _, c := range []engine.Color{White, Black} {
		if n := popcount(b.bb[NewPiece(c, King)]); n != 1 {
			return badFEN(s, "%s has %d kings, want 1", c.Name(engine.Chess), n)
		}
	}
	if (b.bb[wP]|b.bb[bP])&(rank1|rank8) != 0 {
		return badFEN(s, "pawn on the first or last rank")
	}
	them := b.side ^ 1
	occ := b.occ[0] | b.occ[1]
	if b.attackersTo(b.kingSquare(them), occ)&b.occ[b.side] != 0 {
		return badFEN(s, "%s is in check but it is %s's move", them.Name(engine.Chess), b.side.Name(engine.Chess))
	}
	for _, c := range []struct {
		right      uint8
		name       byte
		king, rook Piece
		ks, rs     Square
	}{
		{castleWK, 'K', wK, wR, E1, H1}, {castleWQ, 'Q', wK, wR, E1, A1},
		{castleBK, 'k', bK, bR, E8, H8}, {castleBQ, 'q', bK, bR, E8, A8},
	} {
		if b.castle&c.right != 0 && (b.sq[c.ks] != c.king || b.sq[c.rs] != c.rook) {
			return badFEN(s, "castling right %c without king on %v and rook on %v", c.name, c.ks, c.rs)
		}
	}
	if b.ep != NoSquare {
		// RULES C3: the e.p. square is the one the pawn of the side not to
		// move just passed over with its double step.
		epRank, pawnSq, fromSq := 5, b.ep-8, b.ep+8
		if b.side == Black {
			epRank, pawnSq, fromSq = 2, b.ep+8, b.ep-8
		}
		switch {
		case b.ep.Rank() != epRank:
			return badFEN(s, "e.p. square %v is not on rank %d", b.ep, epRank+1)
		case b.sq[pawnSq] != NewPiece(them, Pawn):
			return badFEN(s, "e.p. square %v without a %s pawn on %v", b.ep, them.Name(engine.Chess), pawnSq)
		case b.sq[b.ep] != NoPiece || b.sq[fromSq] != NoPiece:
			return badFEN(s, "e.p. square %v: %v and %v must be empty", b.ep, b.ep, fromSq)
		}
		if pawnAttacks[them][b.ep]&b.bb[NewPiece(b.side, Pawn)] == 0 {
			b.ep = NoSquare
		}
	}
	return nil
}

// FEN returns the position as a canonical FEN: castling rights in KQkq
// order, the e.p. square only when a pawn of the side to move stands beside
// the double-stepped pawn.
func (p *Position) FEN() string { return string(p.b.appendFEN(nil, true)) }

// EPD returns the four position fields of the FEN.
func (p *Position) EPD() string { return string(p.b.appendFEN(nil, false)) }

// AppendFEN appends the FEN to dst.
func (p *Position) AppendFEN(dst []byte) []byte { return p.b.appendFEN(dst, true) }

func (b *board) appendFEN(dst []byte, counters bool) []byte {
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			pc := b.sq[NewSquare(file, rank)]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				dst = append(dst, byte('0'+empty))
				empty = 0
			}
			dst = append(dst, pc.Char())
		}
		if empty > 0 {
			dst = append(dst, byte('0'+empty))
		}
		if rank > 0 {
			dst = append(dst, '/')
		}
	}
	if b.side == White {
		dst = append(dst, " w "...)
	} else {
		dst = append(dst, " b "...)
	}
	if b.castle == 0 {
		dst = append(dst, '-')
	}
	for i, c := range "KQkq" {
		if b.castle&(1<<i) != 0 {
			dst = append(dst, byte(c))
		}
	}
	dst = append(dst, ' ')
	if b.ep == NoSquare {
		dst = append(dst, '-')
	} else {
		dst = append(dst, 'a'+byte(b.ep.File()), '1'+byte(b.ep.Rank()))
	}
	if counters {
		dst = append(dst, ' ')
		dst = strconv.AppendUint(dst, uint64(b.half), 10)
		dst = append(dst, ' ')
		dst = strconv.AppendUint(dst, uint64(b.full), 10)
	}
	return dst
}
