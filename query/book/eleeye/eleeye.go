// Package eleeye reads, writes and builds ElephantEye's Xiangqi opening
// book, BOOK.DAT (github.com/xqbase/eleeye, BOOK/MAKEBOOK.CPP and
// eleeye/book.cpp; ../shared/data/xiangqi/books/SOURCES.md).
//
// A book is a sequence of 8-byte little-endian records sorted by lock:
// lock u32 | move u16 | value u16. The lock is the third word (lock1) of
// ElephantEye's own Zobrist key, not xqdb's; the move is from | to<<8 on
// ElephantEye's 16×16 board, whose rows run from Black's back rank. Only
// one of a position and its left-right mirror is stored; readers look for
// the position, then its mirror.
//
//	file       what
//	zobrist.go ElephantEye's RC4 key table, Locks, move codes
//	eleeye.go  Record, Parse, Append, Probe
//	build.go   Builder: MAKEBOOK's values, order and merging
package eleeye

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

// RecordSize is the size of one record in bytes.
const RecordSize = 8

// ErrBadSize is returned when a file's size is not a multiple of 8 bytes.
var ErrBadSize = errors.New("eleeye: book size is not a multiple of 8 bytes")

// ErrUnsorted is returned when a file's locks are not in ascending order:
// ElephantEye's binary search would miss records.
var ErrUnsorted = errors.New("eleeye: book locks are not sorted")

// Record is one book record: a position's lock1, a move in ElephantEye's
// code and its value (the sum of 3 a win, 1 a draw, −1 a loss from the
// mover's view, divided by 4).
type Record struct {
	Lock  uint32
	Move  uint16
	Value uint16
}

// Parse reads a whole book, checking its size and order.
func Parse(data []byte) ([]Record, error) {
	if len(data)%RecordSize != 0 {
		return nil, fmt.Errorf("%w (%d bytes)", ErrBadSize, len(data))
	}
	out := make([]Record, len(data)/RecordSize)
	for i := range out {
		b := data[i*RecordSize:]
		out[i] = Record{binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint16(b[4:]), binary.LittleEndian.Uint16(b[6:])}
		if i > 0 && out[i].Lock < out[i-1].Lock {
			return nil, fmt.Errorf("%w: record %d (lock %08x) follows lock %08x", ErrUnsorted, i, out[i].Lock, out[i-1].Lock)
		}
	}
	return out, nil
}

// Append appends records in the file layout to dst.
func Append(dst []byte, rs []Record) []byte {
	for _, r := range rs {
		dst = binary.LittleEndian.AppendUint32(dst, r.Lock)
		dst = binary.LittleEndian.AppendUint16(dst, r.Move)
		dst = binary.LittleEndian.AppendUint16(dst, r.Value)
	}
	return dst
}

// Find returns the records of lock in a parsed book.
func Find(rs []Record, lock uint32) []Record {
	i := sort.Search(len(rs), func(i int) bool { return rs[i].Lock >= lock })
	j := i
	for j < len(rs) && rs[j].Lock == lock {
		j++
	}
	return rs[i:j]
}

// Hit is one book move of a position.
type Hit struct {
	Move  engine.Move
	Value int
}

// Probe returns the book moves of p as ElephantEye's GetBookMoves does:
// the records of the position's lock, or else of its mirror's (moves
// mapped back), keeping only moves legal in the real position (32-bit
// locks collide), by descending value, ties in file order.
func Probe(rs []Record, p *xiangqi.Position) []Hit {
	var hits []Hit
	for _, mirror := range [2]bool{false, true} {
		_, l1 := Locks(p, mirror)
		found := Find(rs, l1)
		if len(found) == 0 {
			continue
		}
		for _, r := range found {
			m := FromCode(r.Move)
			if mirror {
				m = xiangqi.MirrorMove(m)
			}
			if validCode(r.Move) && p.IsLegal(m) {
				hits = append(hits, Hit{m, int(r.Value)})
			}
		}
		break
	}
	slices.SortStableFunc(hits, func(a, b Hit) int { return b.Value - a.Value })
	return hits
}
