package xiangqi

import "github.com/xqdb/xqdb/engine"

// MoveRank returns how many legal moves have a smaller wire code than m
// (Index90(from)<<7 | Index90(to), games.WireCode) and whether m is legal:
// m's index in the sorted list of legal moves, which the database stores
// as one byte a move.
func (p *Position) MoveRank(m engine.Move) (int, bool) {
	var buf [256]engine.Move // pseudo-legal moves, before filtering
	code := wireCode(m)
	n, found := 0, false
	for _, l := range p.AppendLegalMoves(buf[:0]) {
		c := wireCode(l)
		if c < code {
			n++
		} else if c == code {
			found = true
		}
	}
	return n, found
}

func wireCode(m engine.Move) int {
	return Index90(MoveFrom(m))<<7 | Index90(MoveTo(m))
}
