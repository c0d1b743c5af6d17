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

// TestOpeningCountsReadAndWriteOnlyTheirPages: a writer that asks about a
// few positions reads only their pages of the table and writes back only
// the pages it changed, in place; the table then reads back exactly as if
// written whole. A table of the first format is read whole and written in
// the current one.
func TestOpeningCountsReadAndWriteOnlyTheirPages(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	full := newOpeningCounts()
	for full.bits < countsMinBits+2 {
		full.add(engine.Chess, rng.Uint64(), 1+rng.IntN(3))
	}
	if err := full.save(dir); err != nil {
		t.Fatal(err)
	}
	c, err := loadOpeningCounts(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c.whole || c.file == nil || c.bits != full.bits || c.postings != full.postings {
		t.Fatalf("loaded: whole %v, file %v, bits %d (want %d)", c.whole, c.file != nil, c.bits, full.bits)
	}
	keys := make([]uint64, 40)
	for i := range keys {
		keys[i] = rng.Uint64()
		if got, want := c.count(engine.Xiangqi, keys[i]), full.count(engine.Xiangqi, keys[i]); got != want {
			t.Fatalf("key %x counts %d, want %d", keys[i], got, want)
		}
		c.add(engine.Xiangqi, keys[i], 2)
		full.add(engine.Xiangqi, keys[i], 2)
	}
	read := 0
	for _, p := range c.loaded {
		if p {
			read++
		}
	}
	if read > len(keys) {
		t.Errorf("%d of %d pages read for %d keys", read, len(c.loaded), len(keys))
	}
	path := filepath.Join(dir, countsFile)
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
	for p := 0; p < len(c.loaded); p++ {
		off := countsHeader + p*countsPage
		if string(before[off:off+countsPage]) != string(after[off:off+countsPage]) {
			changed++
			if !c.loaded[p] {
				t.Fatalf("page %d changed on disk but was never read", p)
			}
		}
	}
	if changed == 0 || changed > len(keys) {
		t.Errorf("%d pages written for %d keys", changed, len(keys))
	}
	back, err := loadOpeningCounts(dir)
	if err != nil || back.postings != full.postings || !sameCells(back, full) {
		t.Fatalf("the table written in place does not read back as written whole: %v", err)
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
