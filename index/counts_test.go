package index

import (
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
	if mean := float64(stray) / 10_000; mean > 2*float64(c.postings)/float64(len(c.cells))+0.5 {
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
	if err != nil || back.bits != c.bits || back.postings != c.postings || string(back.cells) != string(c.cells) {
		t.Fatalf("counts did not round-trip: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, countsFile), []byte("xqdbOC1\n\x10garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if back, err := loadOpeningCounts(dir); err != nil || back.count(engine.Xiangqi, one) != 0 {
		t.Errorf("a damaged counts file: %v", err)
	}
}
