package clickhouse

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// rowsOf reads a block's rows back as strings, one a row, each value
// printed as a number (columns of fixed width, or items).
func rowsOf(b *block) []string {
	out := make([]string, b.rows)
	for i := range out {
		for c, col := range b.cols {
			if l := b.layout; l != nil {
				v := b.items[i].k
				if c != l.kc {
					v = value(b.items[i].row[l.off[c]:], 0, l.w[c])
				}
				out[i] += fmt.Sprintf("%d ", v)
				continue
			}
			out[i] += fmt.Sprintf("%d ", value(b.data[c], i, fixedWidth(col.typ)))
		}
	}
	return out
}

// positionsBlock is a block of position rows: n games (ids from 1, in
// order), each reaching plies positions drawn from keys distinct keys,
// every third game a chess one.
func positionsBlock(n, plies int, keys uint64, seed uint64) *block {
	r := rand.New(rand.NewPCG(seed, 1))
	b := tableBlock("x.positions", "positions")
	l := b.layout
	for gid := uint32(1); gid <= uint32(n); gid++ {
		for ply := range plies {
			var it sortItem
			for c, v := range []uint64{ // key, game, gid, ply, code, result, date, rating
				r.Uint64N(keys) * 0x9e3779b97f4a7c15, uint64(gid % 3 / 2), uint64(gid), uint64(ply),
				uint64(uint16(r.Uint32())), uint64(gid % 4), uint64(r.Uint32()), uint64(uint16(r.Uint32())),
			} {
				l.put(&it, c, v)
			}
			b.items = append(b.items, it)
			b.rows++
		}
	}
	return b
}

// TestSortRows: a block of position rows comes out as columns ordered by
// the table's ORDER BY (key, game, gid), holding the same rows, so the
// server writes it without sorting it (sort.go); so does a block of terms
// (tid, gid). A block of columns (dict) is sent as it is.
func TestSortRows(t *testing.T) {
	terms := tableBlock("x.terms", "terms")
	r := rand.New(rand.NewPCG(3, 4))
	for gid := uint32(1); gid < 500; gid++ {
		for range 12 {
			var it sortItem
			terms.layout.put(&it, 0, r.Uint64N(300)<<40|r.Uint64N(3))
			terms.layout.put(&it, 1, uint64(gid))
			terms.layout.put(&it, 2, uint64(r.Uint32N(5)))
			terms.items = append(terms.items, it)
			terms.rows++
		}
	}
	dict := tableBlock("x.dict", "dict")
	for _, s := range []string{"lü", "hu", "lü"} {
		dict.data[0] = appendString(dict.data[0], "white")
		dict.data[1] = appendString(dict.data[1], s)
		dict.data[2] = le.AppendUint64(dict.data[2], termID("white", s))
		dict.rows++
	}
	if got := (&sorter{}).columns(dict); got != dict {
		t.Error("a block of dict was not sent as it is")
	}
	var s sorter // reused from block to block, as a sender reuses it
	for _, tc := range []struct {
		name string
		b    *block
	}{
		{"positions, few keys shared by many games", positionsBlock(3000, 40, 500, 1)},
		{"positions, random keys", positionsBlock(2000, 60, 1<<62, 2)},
		{"positions, one key", positionsBlock(100, 1, 1, 3)},
		{"positions, one row", positionsBlock(1, 1, 1<<62, 4)},
		{"terms", terms},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := rowsOf(tc.b)
			out := s.columns(tc.b)
			if out.layout != nil || out.table != tc.b.table || out.rows != tc.b.rows {
				t.Fatalf("columns gave a block of %s, %d rows", out.table, out.rows)
			}
			after := rowsOf(out)
			if !slices.Equal(sortedCopy(before), sortedCopy(after)) {
				t.Fatal("the rows changed")
			}
			for i := 1; i < out.rows; i++ {
				if cmpRows(out, i-1, i) > 0 {
					t.Fatalf("rows %d and %d out of order: %s, %s", i-1, i, after[i-1], after[i])
				}
			}
		})
	}
}

func sortedCopy(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }

// cmpRows compares rows i and j of b by its ORDER BY.
func cmpRows(b *block, i, j int) int {
	for _, c := range b.order {
		w := fixedWidth(b.cols[c].typ)
		if x, y := value(b.data[c], i, w), value(b.data[c], j, w); x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// BenchmarkSortRows: a full block of position rows (blockRows), sorted and
// written out as columns, as a sender does before the insert.
func BenchmarkSortRows(b *testing.B) {
	src := positionsBlock(blockRows/64, 64, 1<<62, 9)
	blk := tableBlock("x.positions", "positions")
	var s sorter
	b.SetBytes(int64(24 * src.rows))
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		blk.items = append(blk.items[:0], src.items...)
		blk.rows = src.rows
		b.StartTimer()
		s.columns(blk)
	}
}
