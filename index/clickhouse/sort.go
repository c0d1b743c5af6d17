package clickhouse

import (
	"slices"
	"strings"
	"unsafe"
)

// Sorting a block before it is sent. A MergeTree insert writes each block
// as a part sorted by the table's ORDER BY; the server first checks whether
// the block is sorted already and, when it is not, sorts it with a
// comparator that compares column by column through virtual calls (18.16).
// That sort was most of the server's work on position rows: 4 M of them,
// inserted as Native, took it 2.85 CPU-seconds unsorted and 1.1 sorted
// (measured 2026-12-01, README). Sorting here costs a fraction of that
// (BenchmarkSortRows), in a sender goroutine, while the writer fills the
// next block.
//
// The rows of the tables sorted so (positions, terms) are gathered as
// sortItems, one a row (the writer packs them: layout), not as columns: a
// sort moves whole rows, and gathering them from columns first, then
// scattering them back, was a third of the sort's time. The sender sorts
// the items by radix, two passes of 8 bits of the first ORDER BY column
// (each pass writes to 256 places at once, which the caches keep up with,
// where one pass of 16 bits wrote to 65,536 and waited on memory at every
// row), then each group of rows that share those 16 bits, and writes the
// columns out of the sorted items.

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

// sortItem is one row of a sorted table: its first ORDER BY column in k,
// its other columns packed in row (layout).
type sortItem struct {
	k   uint64
	row [16]byte
}

// layout is how a table's rows are packed in sortItems: the first ORDER BY
// column (an unsigned number of 2 to 8 bytes) in k, the other columns one
// after the other in row, in the table's order; at most one middle ORDER BY
// column, of up to 4 bytes; the last ORDER BY column must ascend as rows
// are added (the game id: games are added in id order), which a stable
// sort by the others keeps.
type layout struct {
	kc, kw int
	off, w []int // by column: its offset in row (kc: unused), its width
	// The middle ORDER BY column, if any: its offset and width in row.
	tOff, tw int
}

// layoutOf returns the layout of a table's rows, or nil when they do not
// fit one (a single ORDER BY column, String columns, rows of more than 24
// bytes): such blocks hold columns and the server sorts them.
func layoutOf(cols []column, order []int) *layout {
	if len(order) < 2 || len(order) > 3 {
		return nil
	}
	l := &layout{kc: order[0], kw: fixedWidth(cols[order[0]].typ), off: make([]int, len(cols)), w: make([]int, len(cols))}
	size := 0
	for c, col := range cols {
		w := fixedWidth(col.typ)
		if w == 0 {
			return nil
		}
		if l.w[c] = w; c == l.kc {
			continue
		}
		if len(order) == 3 && c == order[1] {
			l.tOff, l.tw = size, w
		}
		l.off[c] = size
		size += w
	}
	if l.kw < 2 || size > len(sortItem{}.row) || l.tw > 4 {
		return nil
	}
	return l
}

// sorter holds what sorting blocks needs, reused from block to block (one
// per sender goroutine).
type sorter struct {
	tmp    []sortItem
	counts [256]uint32
	// out holds the columns written out of sorted items, by table.
	out map[string]*block
}

// columns sorts b's rows by b's ORDER BY and returns them as columns: b
// itself when it holds columns (nothing to sort), else the sorter's block
// of b's table, valid until the next call.
func (s *sorter) columns(b *block) *block {
	if b.layout == nil {
		return b
	}
	s.sort(b.items, b.layout)
	if s.out == nil {
		s.out = map[string]*block{}
	}
	out := s.out[b.table]
	if out == nil {
		out = newBlock(b.table, b.cols)
		s.out[b.table] = out
	}
	// The columns take no more bytes than the items (24 a row) and go
	// where the sort moved them through, which is free now: columns of
	// their own were another 40 MB a sender to fill with fresh pages.
	writeColumns(out, b.items, b.layout, asBytes(s.tmp[:len(b.items)]))
	return out
}

// asBytes is the memory of items, as bytes. A sortItem holds no pointers,
// so its bytes may be written as any bytes.
func asBytes(items []sortItem) []byte {
	if len(items) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&items[0])), len(items)*int(unsafe.Sizeof(items[0])))
}

// sort orders items by k, then by the middle ORDER BY column, keeping the
// order of equal ones.
func (s *sorter) sort(items []sortItem, l *layout) {
	n := len(items)
	if cap(s.tmp) < n {
		s.tmp = make([]sortItem, n)
	}
	if n < 2 {
		return
	}
	tmp := s.tmp[:n]
	hi := uint(8*l.kw - 8) // the top 8 bits of k, then the 8 below them
	var starts [257]uint32
	s.scatter(items, tmp, hi, starts[:])
	for b := range 256 {
		lo, end := starts[b], starts[b+1]
		if end-lo < 2 {
			copy(items[lo:end], tmp[lo:end])
			continue
		}
		var sub [257]uint32
		s.scatter(tmp[lo:end], items[lo:end], hi-8, sub[:])
		for x := range 256 {
			if sub[x+1]-sub[x] > 1 {
				sortGroup(items[lo+sub[x]:lo+sub[x+1]], l)
			}
		}
	}
}

// scatter moves src to dst grouped by the 8 bits of k at shift, keeping
// their order within a group, and sets starts[x] to where group x begins
// (starts[256] = len(src)).
func (s *sorter) scatter(src, dst []sortItem, shift uint, starts []uint32) {
	c := &s.counts
	clear(c[:])
	for i := range src {
		c[uint8(src[i].k>>shift)]++
	}
	sum := uint32(0)
	for x := range 256 {
		starts[x] = sum
		sum += c[x]
		c[x] = starts[x]
	}
	starts[256] = sum
	for i := range src {
		x := uint8(src[i].k >> shift)
		dst[c[x]] = src[i]
		c[x]++
	}
}

// sortGroup sorts items that share the top 16 bits of k, keeping the order
// of equal ones: nothing to do when they are in order already (the rows of
// one popular key, in game order), insertion for a few, a merge sort for
// many.
func sortGroup(items []sortItem, l *layout) {
	i := 1
	for i < len(items) && !less(&items[i], &items[i-1], l) {
		i++
	}
	if i == len(items) {
		return
	}
	if len(items) > 64 {
		slices.SortStableFunc(items, func(a, b sortItem) int {
			if less(&a, &b, l) {
				return -1
			}
			if less(&b, &a, l) {
				return 1
			}
			return 0
		})
		return
	}
	for ; i < len(items); i++ {
		it := items[i]
		j := i
		for ; j > 0 && less(&it, &items[j-1], l); j-- {
			items[j] = items[j-1]
		}
		items[j] = it
	}
}

// less orders items by k, then by the middle ORDER BY column.
func less(a, b *sortItem, l *layout) bool {
	if a.k != b.k || l.tw == 0 {
		return a.k < b.k
	}
	var x, y uint32
	for i := l.tw - 1; i >= 0; i-- {
		x, y = x<<8|uint32(a.row[l.tOff+i]), y<<8|uint32(b.row[l.tOff+i])
	}
	return x < y
}

// writeColumns sets out's columns to items, in order, one after the
// other in buf.
func writeColumns(out *block, items []sortItem, l *layout, buf []byte) {
	n := len(items)
	for c := range out.data {
		w := l.w[c]
		col := buf[: n*w : n*w]
		buf = buf[n*w:]
		out.data[c] = col
		if c == l.kc {
			for i := range items {
				putValue(col, i, w, items[i].k)
			}
			continue
		}
		off := l.off[c]
		switch w {
		case 1:
			for i := range items {
				col[i] = items[i].row[off]
			}
		case 2:
			for i := range items {
				copy(col[2*i:2*i+2], items[i].row[off:off+2])
			}
		case 4:
			for i := range items {
				copy(col[4*i:4*i+4], items[i].row[off:off+4])
			}
		default:
			for i := range items {
				copy(col[8*i:8*i+8], items[i].row[off:off+8])
			}
		}
	}
	out.rows = n
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

// put packs value v of column c into it.
func (l *layout) put(it *sortItem, c int, v uint64) {
	if c == l.kc {
		it.k = v
		return
	}
	putValue(it.row[l.off[c]:], 0, l.w[c], v)
}
