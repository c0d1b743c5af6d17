package obk

import (
	_ "embed"
	"strconv"
	"strings"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

// binghe_zobrist.txt is the format's key table, copied from
// ../shared/data/xiangqi/books (interoperability data published with the
// format; SOURCES.md there gives its provenance and checksum).
//
//go:embed binghe_zobrist.txt
var tableText string

// RedToMove is XORed into the key when Red is to move.
const RedToMove = 0xA0CE2AF90C452F58

// table[piece*256+square]: piece K A B N R C P = 0–6, black +7.
var table = func() (t [14 * 256]uint64) {
	i := 0
	for _, line := range strings.Split(tableText, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		v, err := strconv.ParseUint(line, 16, 64)
		if err != nil || i == len(t) {
			panic("obk: corrupt embedded key table")
		}
		t[i] = v
		i++
	}
	if i != len(t) {
		panic("obk: short embedded key table")
	}
	return t
}()

// square returns the format's square of an xqdb square: 0x33 + fenRow*16
// + file, the same 16×16 mailbox with the rows counted from Black's side.
func square(sq uint8) uint8 { return sq ^ 0xF0 }

// Key returns the book key of p, or of its left-right mirror image.
func Key(p *xiangqi.Position, mirror bool) uint64 {
	var k uint64
	for id := uint8(16); id < 48; id++ {
		sq := p.SquareOf(id)
		if sq == 0 {
			continue
		}
		kind, c := p.PieceAt(sq)
		if mirror {
			sq = xiangqi.MirrorSquare(sq)
		}
		k ^= table[(int(kind)-1+7*int(c))*256+int(square(sq))]
	}
	if p.SideToMove() == engine.First {
		k ^= RedToMove
	}
	return k
}

// Code returns the vmove of a move: from<<8 | to on the format's squares
// (h2e2 = 43687).
func Code(m engine.Move) uint16 {
	return uint16(square(xiangqi.MoveFrom(m)))<<8 | uint16(square(xiangqi.MoveTo(m)))
}

// FromCode is the inverse of Code; ok is false when a square is off the
// board.
func FromCode(c uint16) (engine.Move, bool) {
	from, to := square(uint8(c>>8)), square(uint8(c))
	on := func(sq uint8) bool { return sq>>4 >= 3 && sq>>4 <= 12 && sq&15 >= 3 && sq&15 <= 11 }
	if !on(from) || !on(to) {
		return engine.NoMove, false
	}
	return xiangqi.NewMove(from, to), true
}

// MirrorCode mirrors a vmove left to right: from = (from & 0xF0) |
// (14 − (from & 0x0F)), likewise to.
func MirrorCode(c uint16) uint16 {
	f := func(sq uint16) uint16 { return sq&0xF0 | (14-sq&0x0F)&0x0F }
	return f(c>>8)<<8 | f(c&0xFF)
}

// TableValue returns entry i of the key table (piece*256 + square).
func TableValue(i int) uint64 { return table[i] }
