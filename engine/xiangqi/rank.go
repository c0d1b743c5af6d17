package xiangqi

import (
	"math/bits"

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
// and false when there are not r+1 legal moves. Every ply of a stored
// record is read through it, so it does as little as the order allows.
// Codes order moves by from-point (Index90 and the mailbox square ascend
// together), so the pieces are taken in point order, the legality of each
// one's moves decided by one guard worked out once for the position
// (keepPiece: most pieces' moves need no trial on the board), and only
// the moves of the piece that makes move r are ordered.
func (p *Position) MoveAtRank(r int) (engine.Move, bool) {
	if r < 0 {
		return 0, false
	}
	// The side's points as a set of mailbox squares, read back in order.
	var set [4]uint64
	base := idBase(p.side)
	for id := base; id < base+16; id++ {
		sq := p.sq[id]
		set[sq>>6] |= 1 << (sq & 63) // an absent piece sets bit 0: never a point
	}
	set[0] &^= 1
	g := p.newGuard()
	var buf [17]engine.Move // a chariot or cannon has at most 17 moves
	for w, bitsLeft := range set {
		for ; bitsLeft != 0; bitsLeft &= bitsLeft - 1 {
			from := uint8(w<<6 | bits.TrailingZeros64(bitsLeft))
			moves := p.keepPiece(&g, p.appendPieceMoves(buf[:0], kindOf[p.board[from]], from), from)
			if r < len(moves) {
				// One from-point: the move's value orders by to-point.
				// At most 17 moves: an insertion sort.
				for i := 1; i < len(moves); i++ {
					for j := i; j > 0 && moves[j] < moves[j-1]; j-- {
						moves[j], moves[j-1] = moves[j-1], moves[j]
					}
				}
				return moves[r], true
			}
			r -= len(moves)
		}
	}
	return 0, false
}

func wireCode(m engine.Move) int {
	return Index90(MoveFrom(m))<<7 | Index90(MoveTo(m))
}
