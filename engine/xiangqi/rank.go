package xiangqi

import "github.com/xqdb/xqdb/engine"

// MoveRank returns how many legal moves have a smaller wire code than m
// (Index90(from)<<7 | Index90(to), games.WireCode) and whether m is legal:
// m's index in the sorted list of legal moves, which the database stores
// as one byte a move. Only the pieces on points numbered up to m's
// from-point can have smaller codes, so only their moves are generated and
// tested.
func (p *Position) MoveRank(m engine.Move) (int, bool) {
	code := wireCode(m)
	limit := Index90(MoveFrom(m))
	var buf [MaxMoves]engine.Move
	dst := buf[:0]
	base := idBase(p.side)
	for id := base; id < base+16; id++ {
		if from := p.sq[id]; from != 0 && Index90(from) <= limit {
			dst = p.appendPieceMoves(dst, kindOf[id], from)
		}
	}
	n := 0
	for _, x := range dst {
		if wireCode(x) <= code {
			dst[n] = x
			n++
		}
	}
	rank, found := 0, false
	for _, x := range p.keepLegal(dst[:n], 0) {
		if c := wireCode(x); c < code {
			rank++
		} else if c == code {
			found = true
		}
	}
	return rank, found
}

func wireCode(m engine.Move) int {
	return Index90(MoveFrom(m))<<7 | Index90(MoveTo(m))
}
