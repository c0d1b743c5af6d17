package clickhouse

import (
	"slices"
	"strings"
)

// Sorting a block before it is sent. A MergeTree insert writes each block
// as a part sorted by the table's ORDER BY; the server first checks whether
// the block is sorted already and, when it is not, sorts it with a
// comparator that compares column by column through virtual calls (18.16).
// That sort was most of the server's work on position rows: 4 M of them,
// inserted as Native, took it 2.85 CPU-seconds unsorted and 1.1 sorted
// (measured 2026-12-01, README). Sorting here — rows bucketed by the top
// bits of their key, then each bucket sorted — costs a fraction of that
// (BenchmarkSortRows: about 0.1 s for a block of a million rows), in a
// sender goroutine, while the writer fills the next block.

// fixedWidth is the bytes of one value of a fixed-width type (0: a
// variable-width one, such as String).
func fixedWidth(typ string) int {
	switch typ {
	case "UInt8":
		return 1
	case "UInt16":
		return 2
	case "UInt32":
		return 4
	case "UInt64":
		return 8
	}
	return 0
}

// sortOrder returns the columns of a table's ORDER BY ("(key, game, gid)"),
// most significant first, as indices into cols.
func sortOrder(order string, cols []column) []int {
	var out []int
	for _, name := range strings.Split(strings.Trim(order, "()"), ",") {
		name = strings.TrimSpace(name)
		for i, c := range cols {
			if c.name == name {
				out = append(out, i)
			}
		}
	}
	return out
}

// sortItem is one row being sorted: its first ORDER BY column, and its
// other columns packed, so that sorting moves whole rows and writing the
// columns back reads the items in order (gathering each column through an
// index read it at random: most of the time of a sort).
type sortItem struct {
	k   uint64
	row [16]byte
}

// sorter holds what sorting a block needs, reused from block to block (one
// per sender goroutine).
type sorter struct {
	items, tmp []sortItem
	starts     []uint32 // per bucket of the top 16 bits of k
	// The middle ORDER BY column, if any: its offset and width in row.
	tOff, tw int
}

// sortRows orders b's rows by b.order: the first column as an unsigned
// number of up to 8 bytes, then at most one middle column of up to 4
// bytes, then the last column — which the rows must already ascend by, as
// the game id does (games are added in id order): a stable sort by the
// others keeps them in that order. Blocks that do not fit this (a single
// ORDER BY column, String columns, rows of more than 24 bytes, a last
// column out of order) are left as they are, and the server sorts them.
// It reports whether it sorted.
func (s *sorter) sortRows(b *block) bool {
	order := b.order
	if len(order) < 2 || len(order) > 3 || b.rows < 2 {
		return false
	}
	kc, lc := order[0], order[len(order)-1]
	kw := fixedWidth(b.cols[kc].typ)
	// The other columns' offsets in a packed row.
	offs := make([]int, len(b.cols))
	size := 0
	s.tw = 0
	for c, col := range b.cols {
		w := fixedWidth(col.typ)
		if w == 0 {
			return false
		}
		if c == kc {
			continue
		}
		if len(order) == 3 && c == order[1] {
			s.tOff, s.tw = size, w
		}
		offs[c] = size
		size += w
	}
	if size > len(sortItem{}.row) || s.tw > 4 {
		return false
	}
	n := b.rows
	last, lw := b.data[lc], fixedWidth(b.cols[lc].typ)
	for i := 1; i < n; i++ {
		if value(last, i, lw) < value(last, i-1, lw) {
			return false
		}
	}
	if cap(s.items) < n {
		s.items, s.tmp = make([]sortItem, n), make([]sortItem, n)
	}
	items, tmp := s.items[:n], s.tmp[:n]
	// Bucket the rows by the top 16 bits of k, keeping their order, then
	// sort each bucket. Position keys (Zobrist) and term ids (FNV) are
	// uniform, so a bucket holds a few rows, or many of one popular key,
	// which are in order already.
	kd := b.data[kc]
	for i := range items {
		items[i].k = value(kd, i, kw)
	}
	for c, col := range b.data {
		if c == kc {
			continue
		}
		w, off := fixedWidth(b.cols[c].typ), offs[c]
		for i := range items {
			copy(items[i].row[off:off+w], col[i*w:i*w+w])
		}
	}
	shift := uint(8*kw - 16)
	if kw < 2 {
		shift = 0
	}
	if s.starts == nil {
		s.starts = make([]uint32, 1<<16+1)
	}
	starts := s.starts
	clear(starts)
	for i := range items {
		starts[items[i].k>>shift+1]++
	}
	for x := 1; x < len(starts); x++ {
		starts[x] += starts[x-1]
	}
	for i := range items {
		x := items[i].k >> shift
		tmp[starts[x]] = items[i]
		starts[x]++
	}
	// starts[x] is now the end of bucket x.
	items, tmp = tmp, items
	lo := uint32(0)
	for _, hi := range starts[:len(starts)-1] {
		if hi-lo > 1 {
			s.sortBucket(items[lo:hi])
		}
		lo = hi
	}
	// Write the columns back in the new order.
	for c, col := range b.data {
		if c == kc {
			for i := range items {
				putValue(col, i, kw, items[i].k)
			}
			continue
		}
		w, off := fixedWidth(b.cols[c].typ), offs[c]
		for i := range items {
			copy(col[i*w:i*w+w], items[i].row[off:off+w])
		}
	}
	return true
}

// less orders items by k, then by the middle ORDER BY column.
func (s *sorter) less(a, b *sortItem) bool {
	if a.k != b.k || s.tw == 0 {
		return a.k < b.k
	}
	var x, y uint32
	for i := s.tw - 1; i >= 0; i-- {
		x, y = x<<8|uint32(a.row[s.tOff+i]), y<<8|uint32(b.row[s.tOff+i])
	}
	return x < y
}

// sortBucket sorts items by less, keeping the order of equal ones:
// insertion for the few rows of a bucket, which moves nothing where they
// are rows of one key; a merge sort for a large one.
func (s *sorter) sortBucket(items []sortItem) {
	if len(items) > 64 {
		slices.SortStableFunc(items, func(a, b sortItem) int {
			if s.less(&a, &b) {
				return -1
			}
			if s.less(&b, &a) {
				return 1
			}
			return 0
		})
		return
	}
	for i := 1; i < len(items); i++ {
		it := items[i]
		j := i
		for ; j > 0 && s.less(&it, &items[j-1]); j-- {
			items[j] = items[j-1]
		}
		items[j] = it
	}
}

// putValue sets the i-th value of a column of w-byte unsigned numbers.
func putValue(col []byte, i, w int, v uint64) {
	switch w {
	case 1:
		col[i] = byte(v)
	case 2:
		le.PutUint16(col[2*i:], uint16(v))
	case 4:
		le.PutUint32(col[4*i:], uint32(v))
	default:
		le.PutUint64(col[8*i:], v)
	}
}

// value reads the i-th value of a column of w-byte unsigned numbers.
func value(col []byte, i, w int) uint64 {
	switch w {
	case 1:
		return uint64(col[i])
	case 2:
		return uint64(le.Uint16(col[2*i:]))
	case 4:
		return uint64(le.Uint32(col[4*i:]))
	}
	return le.Uint64(col[8*i:])
}
