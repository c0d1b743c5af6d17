package clickhouse

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// rowsOf reads a block's rows back as strings, one a row, each value
// printed as a number (columns of fixed width only).
func rowsOf(b *block) []string {
	out := make([]string, b.rows)
	for i := range out {
		for c, col := range b.cols {
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
	for gid := uint32(1); gid <= uint32(n); gid++ {
		for ply := range plies {
			c := b.data // key, game, gid, ply, code, result, date, rating
			c[0] = le.AppendUint64(c[0], r.Uint64N(keys)*0x9e3779b97f4a7c15)
			c[1] = append(c[1], uint8(gid%3/2))
			c[2] = le.AppendUint32(c[2], gid)
			c[3] = le.AppendUint16(c[3], uint16(ply))
			c[4] = le.AppendUint16(c[4], uint16(r.Uint32()))
			c[5] = append(c[5], uint8(gid%4))
			c[6] = le.AppendUint32(c[6], r.Uint32())
			c[7] = le.AppendUint16(c[7], uint16(r.Uint32()))
			b.rows++
		}
	}
	return b
}

// TestSortRows: a block of position rows comes out ordered by the table's
// ORDER BY (key, game, gid), holding the same rows, so the server writes
// it without sorting it (sort.go); so does a block of terms (tid, gid).
// Blocks it cannot sort stay as they were.
func TestSortRows(t *testing.T) {
	terms := tableBlock("x.terms", "terms")
	r := rand.New(rand.NewPCG(3, 4))
	for gid := uint32(1); gid < 500; gid++ {
		for range 12 {
			terms.data[0] = le.AppendUint64(terms.data[0], r.Uint64N(300)<<40|r.Uint64N(3))
			terms.data[1] = le.AppendUint32(terms.data[1], gid)
			terms.data[2] = le.AppendUint32(terms.data[2], r.Uint32N(5))
			terms.rows++
		}
	}
	outOfOrder := positionsBlock(50, 30, 40, 5)
	le.PutUint32(outOfOrder.data[2][4*7:], 49) // a gid out of order
	dict := tableBlock("x.dict", "dict")
	for _, s := range []string{"lü", "hu", "lü"} {
		dict.data[0] = appendString(dict.data[0], "white")
		dict.data[1] = appendString(dict.data[1], s)
		dict.data[2] = le.AppendUint64(dict.data[2], termID("white", s))
		dict.rows++
	}
	for _, tc := range []struct {
		name string
		b    *block
		want bool // sorted
	}{
		{"positions, few keys shared by many games", positionsBlock(3000, 40, 500, 1), true},
		{"positions, random keys", positionsBlock(2000, 60, 1<<62, 2), true},
		{"positions, one key", positionsBlock(100, 1, 1, 3), true},
		{"terms", terms, true},
		{"gids out of order", outOfOrder, false},
		{"dict: strings", dict, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before []string
			if tc.b.table != "x.dict" {
				before = rowsOf(tc.b)
			}
			data := slices.Clone(tc.b.data)
			var s sorter
			if got := s.sortRows(tc.b); got != tc.want {
				t.Fatalf("sortRows = %v, want %v", got, tc.want)
			}
			if !tc.want {
				for c := range data {
					if !slices.Equal(data[c], tc.b.data[c]) {
						t.Errorf("column %s changed", tc.b.cols[c].name)
					}
				}
				return
			}
			after := rowsOf(tc.b)
			if !slices.Equal(sortedCopy(before), sortedCopy(after)) {
				t.Fatal("the rows changed")
			}
			for i := 1; i < tc.b.rows; i++ {
				if cmpRows(tc.b, i-1, i) > 0 {
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

// BenchmarkSortRows: a full block of position rows (blockRows), sorted as
// a sender sorts it before the insert.
func BenchmarkSortRows(b *testing.B) {
	src := positionsBlock(blockRows/64, 64, 1<<62, 9)
	blk := tableBlock("x.positions", "positions")
	var s sorter
	b.SetBytes(int64(src.size()))
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		for c := range blk.data {
			blk.data[c] = append(blk.data[c][:0], src.data[c]...)
		}
		blk.rows = src.rows
		b.StartTimer()
		s.sortRows(blk)
	}
}
