package index

import (
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// TestOpeningCountsNeverLowBeforeGrowing: a count-min sketch counts a
// position at least as often as it was added, whatever else shares its
// cell; growing halves the counts, rounded up, so a position counted
// once still counts; the file round-trips, and a damaged file starts
// again empty rather than refusing the store.
func TestOpeningCountsNeverLowBeforeGrowing(t *testing.T) {
	defer func(b uint) { countsMaxBits = b }(countsMaxBits)
	countsMaxBits = countsMinBits // no growth yet
	c := newOpeningCounts()
	rng := rand.New(rand.NewPCG(1, 2))
	want := map[uint64]int{}
	for i := 0; i < 50_000; i++ {
		k := rng.Uint64() | 1
		n := 1 + rng.IntN(3)
		want[k] += n
		c.add(engine.Chess, k, n)
	}
	for k, n := range want {
		if got := c.count(engine.Chess, k); got < min(n, 255) {
			t.Fatalf("key %x counted %d, added %d", k, got, n)
		}
	}
	stray := 0
	for i := 0; i < 10_000; i++ {
		stray += c.count(engine.Xiangqi, rng.Uint64())
	}
	if mean := float64(stray) / 10_000; mean > 2*float64(c.postings)/float64(int(1)<<c.bits)+0.5 {
		t.Errorf("a position never added counts %.2f on average", mean)
	}

	countsMaxBits = countsMinBits + 1
	var one uint64 = 0x0123_4567_89ab_cdef
	c.add(engine.Xiangqi, one, 1)
	for c.bits == countsMinBits {
		c.add(engine.Chess, rng.Uint64(), 1)
	}
	if got := c.count(engine.Xiangqi, one); got < 1 {
		t.Errorf("after growing, a position counted once counts %d", got)
	}

	dir := t.TempDir()
	if err := c.save(dir); err != nil {
		t.Fatal(err)
	}
	back, err := loadOpeningCounts(dir)
	if err != nil || back.bits != c.bits || back.postings != c.postings || !sameCells(back, c) {
		t.Fatalf("counts did not round-trip: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, countsFile), []byte("xqdbOC1\n\x10garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if back, err := loadOpeningCounts(dir); err != nil || back.count(engine.Xiangqi, one) != 0 {
		t.Errorf("a damaged counts file: %v", err)
	}
}

// sameCells says whether two tables hold the same counts (reading their
// pages).
func sameCells(a, b *openingCounts) bool {
	if a.bits != b.bits {
		return false
	}
	for p := range a.loaded {
		a.page(p)
		b.page(p)
	}
	return string(a.cells) == string(b.cells)
}

// TestOpeningCountsReadAndWriteOnlyTheirCells: a writer that asks about a
// few positions reads only their cells of the table, one by one (no page:
// a page lands in fresh memory, ten times a cell's read on this machine),
// and writes back only the cells it changed, in place; one that asks about
// many reads and writes whole pages, only those it needs. Either way the
// table then reads back exactly as if written whole. A table of the first
// format is read whole and written in the current one.
func TestOpeningCountsReadAndWriteOnlyTheirCells(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	full := newOpeningCounts()
	for full.bits < countsMinBits+2 {
		full.add(engine.Chess, rng.Uint64(), 1+rng.IntN(3))
	}
	if err := full.save(dir); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, countsFile)
	for _, tt := range []struct {
		name  string
		keys  int
		pages bool // whole pages read and written
	}{
		{"a few keys", 40, false},
		{"many keys", 3 * full.fewMax(), true},
	} {
		c, err := loadOpeningCounts(dir)
		if err != nil {
			t.Fatal(err)
		}
		if c.whole || c.file == nil || c.bits != full.bits || c.postings != full.postings {
			t.Fatalf("%s: loaded: whole %v, file %v, bits %d (want %d)", tt.name, c.whole, c.file != nil, c.bits, full.bits)
		}
		asked := map[int]bool{}
		pagesAsked := map[int]bool{}
		for range tt.keys {
			k := rng.Uint64()
			if got, want := c.count(engine.Xiangqi, k), full.count(engine.Xiangqi, k); got != want {
				t.Fatalf("%s: key %x counts %d, want %d", tt.name, k, got, want)
			}
			c.add(engine.Xiangqi, k, 2)
			full.add(engine.Xiangqi, k, 2)
			asked[c.cell(engine.Xiangqi, k)] = true
			pagesAsked[c.cell(engine.Xiangqi, k)>>countsPageBits] = true
		}
		read := 0
		for p, loaded := range c.loaded {
			if loaded {
				read++
				if !pagesAsked[p] {
					t.Errorf("%s: page %d read, no key asked in it", tt.name, p)
				}
			}
		}
		if tt.pages != (read > 0) || !tt.pages && len(c.few) != len(asked) {
			t.Errorf("%s: %d pages and %d cells read for %d keys", tt.name, read, len(c.few), tt.keys)
		}
		before, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.save(dir); err != nil {
			t.Fatal(err)
		}
		after, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		changed := 0
		for i := countsHeader; i < len(after); i++ {
			if before[i] == after[i] {
				continue
			}
			changed++
			cell := i - countsHeader
			if !asked[cell] && !(tt.pages && c.loaded[cell>>countsPageBits]) {
				t.Fatalf("%s: cell %d changed on disk but was never asked", tt.name, cell)
			}
		}
		if changed == 0 {
			t.Errorf("%s: nothing written for %d keys", tt.name, tt.keys)
		}
		back, err := loadOpeningCounts(dir)
		if err != nil || back.postings != full.postings || !sameCells(back, full) {
			t.Fatalf("%s: the table written in place does not read back as written whole: %v", tt.name, err)
		}
		c.closeFile()
		back.closeFile()
	}

	// The first format: magic, bits, postings as a uvarint, the cells.
	v1 := append([]byte(countsMagicV1), byte(full.bits))
	v1 = binary.AppendUvarint(v1, full.postings)
	v1 = append(v1, full.cells...)
	if err := os.WriteFile(path, v1, 0o644); err != nil {
		t.Fatal(err)
	}
	old, err := loadOpeningCounts(dir)
	if err != nil || !old.whole || !sameCells(old, full) {
		t.Fatalf("a table of the first format: %v", err)
	}
	old.add(engine.Chess, 7, 1)
	if err := old.save(dir); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b[:len(countsMagic)]) != countsMagic {
		t.Errorf("a table of the first format was not written in the current one")
	}
}
