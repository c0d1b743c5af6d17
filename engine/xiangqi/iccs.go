package xiangqi

import (
	"fmt"

	"github.com/xqdb/xqdb/engine"
)

// ICCS writes a move as lower-case coordinates, file a–i and rank 0–9 from
// Red's side: "h2e2" (the UCCI form; NOTATIONS §2).
func ICCS(m engine.Move) string {
	var b [4]byte
	appendSquare(b[:0], MoveFrom(m))
	appendSquare(b[2:2], MoveTo(m))
	return string(b[:])
}

// AppendICCS appends the ICCS form of m to dst.
func AppendICCS(dst []byte, m engine.Move) []byte {
	return appendSquare(appendSquare(dst, MoveFrom(m)), MoveTo(m))
}

func appendSquare(dst []byte, sq uint8) []byte {
	return append(dst, byte('a'+FileOf(sq)), byte('0'+RankOf(sq)))
}

// ParseICCSMove reads "h2e2", "H2-E2" or "h2-e2" into a move without
// checking legality. ok is false when the text is not coordinates.
func ParseICCSMove(s string) (m engine.Move, ok bool) {
	switch len(s) {
	case 4:
	case 5:
		if s[2] != '-' {
			return 0, false
		}
		s = s[:2] + s[3:]
	default:
		return 0, false
	}
	from, ok1 := parseSquare(s[0], s[1])
	to, ok2 := parseSquare(s[2], s[3])
	if !ok1 || !ok2 {
		return 0, false
	}
	return NewMove(from, to), true
}

func parseSquare(f, r byte) (uint8, bool) {
	f |= 0x20 // lower case
	if f < 'a' || f > 'i' || r < '0' || r > '9' {
		return 0, false
	}
	return Square(int(f-'a'), int(r-'0')), true
}

// whyIllegal explains in a few words why a coordinate move is not legal.
func (p *Position) whyIllegal(m engine.Move) string {
	from, to := MoveFrom(m), MoveTo(m)
	id := p.board[from]
	switch {
	case id == empty:
		return fmt.Sprintf("no piece on %c%d", 'a'+FileOf(from), RankOf(from))
	case colorOf(id) != p.side:
		return fmt.Sprintf("the %s on %c%d is %s's but %s is to move", kindOf[id], 'a'+FileOf(from), RankOf(from),
			colorOf(id).Name(engine.Xiangqi), p.side.Name(engine.Xiangqi))
	}
	var buf [MaxMoves]engine.Move
	for _, pm := range p.appendPseudo(buf[:0]) {
		if pm == m {
			if p.sq[generalID(p.side)] == from || p.InCheck() {
				return "leaves the general in check"
			}
			return "exposes the general (check or facing generals)"
		}
	}
	if c := p.board[to]; c != empty && colorOf(c) == p.side {
		return "captures its own piece"
	}
	return fmt.Sprintf("a %s cannot move so", kindOf[id])
}
