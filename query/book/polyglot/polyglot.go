// Package polyglot reads, writes and builds chess opening books in the
// Polyglot .bin format (ANCHORS §5; hgm.nubati.net/book_format.html).
//
// A book is a sequence of 16-byte big-endian entries sorted by key:
// key u64 | move u16 | weight u16 | learn u32. The key is the Polyglot
// Zobrist key, which is xqdb's chess key (engine/chess), and the move has
// the engine's own move layout except that castling is king-takes-own-rook
// (e1h1): chess.Position.PolyglotMove and FromPolyglot convert.
//
//	file         what
//	polyglot.go  Entry, Parse, Append, Find
//	build.go     Encoder (a game's plies, on any goroutine), Builder:
//	             make-book's counting, filters and order
package polyglot

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
)

// EntrySize is the size of one book entry in bytes.
const EntrySize = 16

// ErrBadSize is returned when a book's size is not a multiple of 16 bytes
// (python-chess's reader rejects such files the same way).
var ErrBadSize = errors.New("polyglot: book size is not a multiple of 16 bytes")

// ErrUnsorted is returned when a book's keys are not in ascending order:
// a reader's binary search would miss entries.
var ErrUnsorted = errors.New("polyglot: book keys are not sorted")

// Entry is one book entry.
type Entry struct {
	Key    uint64
	Move   uint16
	Weight uint16
	Learn  uint32
}

// Parse reads a whole book. It checks the size and the key order; entries
// are returned in file order.
func Parse(data []byte) ([]Entry, error) {
	if len(data)%EntrySize != 0 {
		return nil, fmt.Errorf("%w (%d bytes)", ErrBadSize, len(data))
	}
	out := make([]Entry, len(data)/EntrySize)
	for i := range out {
		b := data[i*EntrySize:]
		out[i] = Entry{
			Key:    binary.BigEndian.Uint64(b),
			Move:   binary.BigEndian.Uint16(b[8:]),
			Weight: binary.BigEndian.Uint16(b[10:]),
			Learn:  binary.BigEndian.Uint32(b[12:]),
		}
		if i > 0 && out[i].Key < out[i-1].Key {
			return nil, fmt.Errorf("%w: entry %d (key %016x) follows key %016x", ErrUnsorted, i, out[i].Key, out[i-1].Key)
		}
	}
	return out, nil
}

// Append appends the entries in the file layout to dst.
func Append(dst []byte, entries []Entry) []byte {
	for _, e := range entries {
		dst = binary.BigEndian.AppendUint64(dst, e.Key)
		dst = binary.BigEndian.AppendUint16(dst, e.Move)
		dst = binary.BigEndian.AppendUint16(dst, e.Weight)
		dst = binary.BigEndian.AppendUint32(dst, e.Learn)
	}
	return dst
}

// Find returns the entries of key in a parsed book (sorted by key), in
// file order: by descending weight in books make-book writes.
func Find(entries []Entry, key uint64) []Entry {
	i := sort.Search(len(entries), func(i int) bool { return entries[i].Key >= key })
	j := i
	for j < len(entries) && entries[j].Key == key {
		j++
	}
	return entries[i:j]
}
