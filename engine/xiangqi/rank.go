package xiangqi

import (
	"slices"

	"github.com/xqdb/xqdb/engine"
)

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

// MoveAtRank is the inverse of MoveRank: the legal move whose rank is r,
// and false when there are not r+1 legal moves. Codes order moves by
// from-point, so the pieces are taken in point order and only the moves of
// the pieces up to the one making move r are generated and tested.
func (p *Position) MoveAtRank(r int) (engine.Move, bool) {
	if r < 0 {
		return 0, false
	}
	type piece struct {
		point int
		id    uint8
	}
	var pieces [16]piece
	n := 0
	base := idBase(p.side)
	for id := base; id < base+16; id++ {
		if from := p.sq[id]; from != 0 {
			pt := Index90(from)
			i := n
			for ; i > 0 && pieces[i-1].point > pt; i-- {
				pieces[i] = pieces[i-1]
			}
			pieces[i] = piece{pt, id}
			n++
		}
	}
	var buf [MaxMoves]engine.Move
	for _, pc := range pieces[:n] {
		moves := p.keepLegal(p.appendPieceMoves(buf[:0], kindOf[pc.id], p.sq[pc.id]), 0)
		if r < len(moves) {
			slices.SortFunc(moves, func(a, b engine.Move) int { return wireCode(a) - wireCode(b) })
			return moves[r], true
		}
		r -= len(moves)
	}
	return 0, false
}

func wireCode(m engine.Move) int {
	return Index90(MoveFrom(m))<<7 | Index90(MoveTo(m))
}
