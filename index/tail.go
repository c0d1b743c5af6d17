package index

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
)

// tailEntry is one tail posting: a position whose key has the block's
// bucket and this fingerprint was reached in game gid.
type tailEntry struct {
	print uint16
	gid   uint32
}

// encodeTail packs entries (any order; sorted here) into a block:
//
//	uvarint n | byte k | byte gidBits | bits...
//
// where each entry is its fingerprint's gap from the previous one,
// Rice-coded with parameter k (unary quotient, then k low bits), followed by
// the gid in gidBits bits. With ~150 entries per bucket a fingerprint costs
// about 10 bits and a gid about 18: 3.5 bytes a position.
func encodeTail(dst []byte, es []tailEntry) []byte {
	slices.SortFunc(es, func(a, b tailEntry) int {
		if a.print != b.print {
			return int(a.print) - int(b.print)
		}
		return int(a.gid) - int(b.gid)
	})
	es = slices.Compact(es)
	n := len(es)
	var maxGid uint32
	for _, e := range es {
		maxGid = max(maxGid, e.gid)
	}
	gidBits := bits.Len32(maxGid)
	k := 0
	if n > 0 {
		// Rice parameter near log2(mean gap · ln 2).
		mean := float64(1<<16) / float64(n)
		for k < 15 && float64(uint(1)<<(k+1)) <= mean*0.69 {
			k++
		}
	}
	dst = binary.AppendUvarint(dst, uint64(n))
	dst = append(dst, byte(k), byte(gidBits))
	w := bitWriter{buf: dst}
	prev := uint32(0)
	for _, e := range es {
		gap := uint32(e.print) - prev
		prev = uint32(e.print)
		for q := gap >> k; q > 0; q-- {
			w.write(1, 1)
		}
		w.write(0, 1)
		w.write(uint64(gap)&(1<<k-1), k)
		w.write(uint64(e.gid), gidBits)
	}
	return w.flush()
}

// decodeTail calls fn for every entry of a block in order; fn returns
// false to stop early.
func decodeTail(b []byte, fn func(print uint16, gid uint32) bool) error {
	n, m := binary.Uvarint(b)
	if m <= 0 || len(b) < m+2 {
		return fmt.Errorf("index: corrupt tail block header")
	}
	k, gidBits := int(b[m]), int(b[m+1])
	if k > 16 || gidBits > 32 || n > uint64(len(b))*8 {
		return fmt.Errorf("index: corrupt tail block parameters")
	}
	r := bitReader{buf: b[m+2:]}
	print := uint32(0)
	for i := uint64(0); i < n; i++ {
		q := uint32(0)
		for r.read(1) == 1 {
			q++
			if q > 1<<16 || r.err {
				return fmt.Errorf("index: corrupt tail block")
			}
		}
		print += q<<k | uint32(r.read(k))
		gid := uint32(r.read(gidBits))
		if r.err || print > 0xFFFF {
			return fmt.Errorf("index: corrupt tail block")
		}
		if !fn(uint16(print), gid) {
			return nil
		}
	}
	return nil
}

// lookupTail returns the gids of entries whose fingerprint is print.
func lookupTail(b []byte, print uint16, dst []uint32) ([]uint32, error) {
	err := decodeTail(b, func(p uint16, gid uint32) bool {
		if p == print {
			dst = append(dst, gid)
		}
		return p <= print
	})
	return dst, err
}

type bitWriter struct {
	buf  []byte
	acc  uint64
	nacc int
}

func (w *bitWriter) write(v uint64, n int) {
	for n > 0 {
		take := min(n, 64-w.nacc)
		if take == 64 {
			w.acc = v
		} else {
			w.acc |= (v & (1<<take - 1)) << w.nacc
		}
		w.nacc += take
		v >>= take & 63
		if take == 64 {
			v = 0
		}
		n -= take
		for w.nacc >= 8 {
			w.buf = append(w.buf, byte(w.acc))
			w.acc >>= 8
			w.nacc -= 8
		}
	}
}

func (w *bitWriter) flush() []byte {
	if w.nacc > 0 {
		w.buf = append(w.buf, byte(w.acc))
		w.acc, w.nacc = 0, 0
	}
	return w.buf
}

type bitReader struct {
	buf []byte
	pos int // bit position
	err bool
}

func (r *bitReader) read(n int) uint64 {
	var v uint64
	for i := 0; i < n; {
		byteIdx := r.pos >> 3
		if byteIdx >= len(r.buf) {
			r.err = true
			return 0
		}
		off := r.pos & 7
		take := min(n-i, 8-off)
		v |= uint64(r.buf[byteIdx]>>off&(1<<take-1)) << i
		i += take
		r.pos += take
	}
	return v
}
