package eleeye

import (
	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

// zobrist is one ElephantEye key triple.
type zobrist struct{ key, lock0, lock1 uint32 }

// The table (pregen.cpp): RC4 keyed with zero bytes, each word four
// stream bytes little-endian; first the side triple, then piece 0–13
// (red K A B N R C P, black +7) × square 0–255.
var (
	sideZobrist  zobrist
	pieceZobrist [14][256]zobrist
)

type rc4 struct {
	s    [256]byte
	x, y byte
}

func (r *rc4) byte() byte {
	r.x++
	r.y += r.s[r.x]
	r.s[r.x], r.s[r.y] = r.s[r.y], r.s[r.x]
	return r.s[r.s[r.x]+r.s[r.y]]
}

func (r *rc4) word() uint32 {
	b0, b1, b2, b3 := r.byte(), r.byte(), r.byte(), r.byte()
	return uint32(b0) | uint32(b1)<<8 | uint32(b2)<<16 | uint32(b3)<<24
}

func (r *rc4) triple() zobrist { return zobrist{r.word(), r.word(), r.word()} }

func init() {
	var r rc4
	for i := range r.s {
		r.s[i] = byte(i)
	}
	var j byte
	for i := range r.s { // key schedule with an all-zero key
		j += r.s[i]
		r.s[i], r.s[j] = r.s[j], r.s[i]
	}
	sideZobrist = r.triple()
	for pc := range pieceZobrist {
		for sq := range pieceZobrist[pc] {
			pieceZobrist[pc][sq] = r.triple()
		}
	}
}

// Square returns ElephantEye's square of an xqdb square: the same 16×16
// mailbox with the rows counted from Black's side (row 3 is rank 9).
func Square(sq uint8) uint8 { return sq ^ 0xF0 }

// Code returns ElephantEye's code of a Xiangqi move: from | to<<8 on its
// squares (h2e2 = 0xA7AA).
func Code(m engine.Move) uint16 { return uint16(m) ^ 0xF0F0 }

// FromCode is the inverse of Code. The move may be off the board; check
// validCode or legality before use.
func FromCode(c uint16) engine.Move { return engine.Move(c ^ 0xF0F0) }

// MirrorCode mirrors a move code left to right (ElephantEye's MOVE_MIRROR).
func MirrorCode(c uint16) uint16 {
	f := func(sq uint16) uint16 { return sq&0xF0 | (14-sq&0x0F)&0x0F }
	return f(c&0xFF) | f(c>>8)<<8
}

// validCode reports whether both squares of a code are on the board.
func validCode(c uint16) bool {
	on := func(sq uint16) bool { return sq>>4 >= 3 && sq>>4 <= 12 && sq&15 >= 3 && sq&15 <= 11 }
	return on(c&0xFF) && on(c>>8)
}

// pieceIndex maps a kind and side to ElephantEye's piece number.
func pieceIndex(k xiangqi.Kind, c engine.Color) int { return int(k) - 1 + 7*int(c) }

// Locks returns ElephantEye's lock0 and lock1 of p, or of its left-right
// mirror image.
func Locks(p *xiangqi.Position, mirror bool) (lock0, lock1 uint32) {
	for id := uint8(16); id < 48; id++ {
		sq := p.SquareOf(id)
		if sq == 0 {
			continue
		}
		k, c := p.PieceAt(sq)
		if mirror {
			sq = xiangqi.MirrorSquare(sq)
		}
		z := &pieceZobrist[pieceIndex(k, c)][Square(sq)]
		lock0 ^= z.lock0
		lock1 ^= z.lock1
	}
	if p.SideToMove() == engine.Second {
		lock0 ^= sideZobrist.lock0
		lock1 ^= sideZobrist.lock1
	}
	return lock0, lock1
}
