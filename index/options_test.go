package index

import (
	"errors"
	"expvar"
	"fmt"
	"testing"

	"github.com/dgraph-io/badger/v4"
)

// TestBadgerOptionsForLookups: stores write 16 KB blocks (a lookup
// decompresses a whole block for each value it reads), and a read-only
// store keeps an 8 MB block cache (filling a large one costs a page fault
// per 4 KB of blocks seldom read twice) (issue 18).
func TestBadgerOptionsForLookups(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := w.db.Opts().BlockSize; got != 16<<10 {
		t.Errorf("a writer's block size is %d, want 16 KB", got)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got := r.db.Opts().BlockSize; got != 16<<10 {
		t.Errorf("a reader's block size is %d, want 16 KB", got)
	}
	if got := r.db.Opts().BlockCacheSize; got != 8<<20 {
		t.Errorf("a read-only store's block cache is %d bytes, want 8 MB", got)
	}
}

// TestBloomFiltersSparePointReads: a point read of a key a table does not
// hold decodes one of its blocks only when the table's bloom filter says
// "maybe"; a tree reads a few keys in every live run, most of them absent
// from most tables, so the filters must answer nearly all of them (issue
// 18: at Badger's default, 4.9% of the checks said "maybe"). Counted by
// Badger's own metrics, on a store of 60,000 keys in tables.
func TestBloomFiltersSparePointReads(t *testing.T) {
	badgerMetrics = true
	t.Cleanup(func() { badgerMetrics = false })
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	wb := s.newBatch()
	for i := uint64(0); i < 60_000; i++ {
		if err := wb.Set(hashKey(i*2), []byte{1}); err != nil {
			t.Fatal(err)
		}
	}
	if err := wb.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil { // the memtable becomes a table
		t.Fatal(err)
	}
	if s, err = Open(dir, Options{ReadOnly: true}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if len(s.gdb.Tables()) == 0 { // the move hashes' Badger
		t.Fatal("no tables: nothing to check")
	}
	bloom := func() (checks, misses int64) {
		m := expvar.Get("badger_hit_num_lsm_bloom_filter").(*expvar.Map)
		if v, ok := m.Get("DoesNotHave_ALL").(*expvar.Int); ok {
			checks = v.Value()
		}
		if v, ok := m.Get("DoesNotHave_HIT").(*expvar.Int); ok {
			misses = v.Value()
		}
		return checks, misses
	}
	checks0, misses0 := bloom()
	err = s.viewRuns(func(txn *view) error {
		for i := uint64(0); i < 20_000; i++ {
			if _, err := txn.Get(hashKey(i*2 + 1)); !errors.Is(err, badger.ErrKeyNotFound) {
				return fmt.Errorf("absent key %d: %v", i*2+1, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checks, misses := bloom()
	checks, misses = checks-checks0, misses-misses0
	if checks < 20_000 {
		t.Fatalf("%d bloom checks for 20,000 reads: Badger's metrics are off?", checks)
	}
	maybe := float64(checks-misses) / float64(checks)
	t.Logf("%.3f%% of %d bloom checks said maybe", 100*maybe, checks)
	if maybe > 0.005 {
		t.Errorf("%.2f%% of %d bloom checks said maybe, want at most 0.5%%", 100*maybe, checks)
	}
}
