package index

import (
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
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

// sameCells says whether two tables hold the same counts.
func sameCells(a, b *openingCounts) bool {
	return a.bits == b.bits && string(a.cells) == string(b.cells)
}

// TestOpeningCountsCountInPlace: a writer maps the table and counts in
// place: the file changes only in the cells it counted and the header,
// and is never rewritten (the same file, not one renamed over it); it
// then reads back exactly as the table written whole. A table of the
// first format is read whole and written in the current one.
func TestOpeningCountsCountInPlace(t *testing.T) {
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
	for _, keys := range []int{40, 20_000} {
		c, err := loadOpeningCounts(dir)
		if err != nil {
			t.Fatal(err)
		}
		if c.mapped == nil && runtime.GOOS == "linux" || c.bits != full.bits || c.postings != full.postings {
			t.Fatalf("%d keys: loaded: mapped %v, bits %d (want %d)", keys, c.mapped != nil, c.bits, full.bits)
		}
		before, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		stat, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		asked := map[int]bool{}
		for range keys {
			k := rng.Uint64()
			if got, want := c.count(engine.Xiangqi, k), full.count(engine.Xiangqi, k); got != want {
				t.Fatalf("%d keys: key %x counts %d, want %d", keys, k, got, want)
			}
			c.add(engine.Xiangqi, k, 2)
			full.add(engine.Xiangqi, k, 2)
			asked[c.cell(engine.Xiangqi, k)] = true
		}
		if err := c.save(dir); err != nil {
			t.Fatal(err)
		}
		mapped := c.mapped != nil
		c.release()
		after, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if now, err := os.Stat(path); err != nil || mapped && !os.SameFile(stat, now) {
			t.Errorf("%d keys: the table was written whole, not counted in place (%v)", keys, err)
		}
		changed := 0
		for i := countsHeader; i < len(after); i++ {
			if before[i] != after[i] {
				changed++
				if !asked[i-countsHeader] {
					t.Fatalf("%d keys: cell %d changed on disk but was never counted", keys, i-countsHeader)
				}
			}
		}
		if changed == 0 {
			t.Errorf("%d keys: nothing written", keys)
		}
		back, err := loadOpeningCounts(dir)
		if err != nil || back.postings != full.postings || !sameCells(back, full) {
			t.Fatalf("%d keys: the table counted in place does not read back as written whole: %v", keys, err)
		}
		back.release()
	}

	// The first format: magic, bits, postings as a uvarint, the cells.
	v1 := append([]byte(countsMagicV1), byte(full.bits))
	v1 = binary.AppendUvarint(v1, full.postings)
	v1 = append(v1, full.cells...)
	if err := os.WriteFile(path, v1, 0o644); err != nil {
		t.Fatal(err)
	}
	old, err := loadOpeningCounts(dir)
	if err != nil || old.mapped != nil || !sameCells(old, full) {
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
