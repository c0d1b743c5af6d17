package xiangqi

import "github.com/xqdb/xqdb/engine"

// MirrorSquare returns the left-right mirror of sq (file a ↔ i).
func MirrorSquare(sq uint8) uint8 { return sq&0xf0 | (2*colOffset + NumFiles - 1 - sq&15) }

// MirrorMove returns the left-right mirror of m: h2e2 ↔ b2e2.
func MirrorMove(m engine.Move) engine.Move {
	return NewMove(MirrorSquare(MoveFrom(m)), MirrorSquare(MoveTo(m)))
}

// Mirror returns the left-right mirror image of the position, without
// history. Xiangqi users count a position and its mirror as one opening
// (DESIGN "Mirrors and transpositions").
func (p *Position) Mirror() *Position {
	q := &Position{side: p.side, halfmove: p.halfmove, fullmove: p.fullmove, hist: make([]undo, 0, 256)}
	for i := range q.board {
		q.board[i] = wall
	}
	for i := 0; i < NumFiles*NumRanks; i++ {
		q.board[SquareFrom90(i)] = empty
	}
	for id := uint8(16); id < numIDs; id++ {
		if sq := p.sq[id]; sq != 0 {
			m := MirrorSquare(sq)
			q.sq[id] = m
			q.board[m] = id
		}
	}
	q.key = q.computeKey()
	return q
}

// MirrorKey returns the key of the position's mirror image without building
// it.
func (p *Position) MirrorKey() uint64 {
	var k uint64
	for id := uint8(16); id < numIDs; id++ {
		if sq := p.sq[id]; sq != 0 {
			k ^= zobPiece[zobIndex[id]][MirrorSquare(sq)]
		}
	}
	if p.side == engine.Second {
		k ^= zobBlack
	}
	return k
}
