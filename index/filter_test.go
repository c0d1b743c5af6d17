package index

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/xqdb/xqdb/engine"
)

// TestPositionFilter: a filter holds every key added (by its top prefix
// bits, for a merged run's) and rules out all but about 1% of the others;
// a large one is split into chunks, a Badger value each.
func TestPositionFilter(t *testing.T) {
	for _, tt := range []struct {
		name   string
		n      int
		prefix int // 64: a written run's; fewer: a merged run's
		maxFP  float64
	}{
		{"a small run's", 800, 64, 0.01},
		{"a written run's", 200_000, 64, 0.01},
		{"a merged run's, by 26 bits", 200_000, 26, 0.015},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(tt.n)))
			b := newFilterBuilder([4]int{2: tt.n}, tt.prefix)
			keys := make([]uint64, tt.n)
			for i := range keys {
				keys[i] = rng.Uint64()
				if tt.prefix < 64 {
					keys[i] &^= 1<<(64-tt.prefix) - 1 // the bits a merge knows
				}
				b.add(2, keys[i])
			}
			dir := t.TempDir()
			rf, err := b.write(dir, 7)
			if err != nil {
				t.Fatal(err)
			}
			f := openFilter(dir, 7, *rf)
			if f == nil || int(rf.Prefix) != tt.prefix {
				t.Fatalf("filter %+v does not open", rf)
			}
			defer f.release()
			for _, k := range keys {
				// A lookup knows the whole key: the bits below the prefix
				// are any.
				if !f.mayHold(2, k|rng.Uint64()>>tt.prefix) {
					t.Fatalf("key %x added, not found", k)
				}
			}
			fp := 0
			for range 100_000 {
				if f.mayHold(2, rng.Uint64()) {
					fp++
				}
				if f.mayHold(0, rng.Uint64()) {
					t.Fatal("a game without keys lets a key through")
				}
			}
			if rate := float64(fp) / 100_000; rate > tt.maxFP {
				t.Fatalf("false positives %.3f, want at most %.2f", rate, tt.maxFP)
			}
			t.Logf("false positives %.4f", float64(fp)/100_000)
			if bits := float64(8*len(f.blocks[2])) / float64(tt.n); bits > filterBitsPerKey+1 {
				t.Fatalf("%.1f bits a key", bits)
			}
		})
	}
}

// TestPositionFilterFileChecked: a filter file that is missing, cut short
// or another run's opens as none, so that the run is read in full.
func TestPositionFilterFileChecked(t *testing.T) {
	dir := t.TempDir()
	b := newFilterBuilder([4]int{100}, 64)
	b.add(0, 12345)
	rf, err := b.write(dir, 3)
	if err != nil {
		t.Fatal(err)
	}
	if f := openFilter(dir, 3, *rf); f == nil || !f.mayHold(0, 12345) {
		t.Fatal("the filter written does not hold its key")
	} else {
		f.release()
	}
	if f := openFilter(dir, 4, *rf); f != nil {
		t.Fatal("run 3's file opened as run 4's")
	}
	data, err := os.ReadFile(filterPath(dir, 3))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filterPath(dir, 3), data[:len(data)-1], 0o644); err != nil {
		t.Fatal(err)
	}
	if f := openFilter(dir, 3, *rf); f != nil {
		t.Fatal("a file cut short opened")
	}
	os.Remove(filterPath(dir, 3))
	if f := openFilter(dir, 3, *rf); f != nil {
		t.Fatal("a missing file opened")
	}
}

// TestMergedFilter: a merged run's filter is sized for its runs' keys and
// hashes the fewest bits any of their blocks kept; a run without a filter
// leaves the merged one without.
func TestMergedFilter(t *testing.T) {
	m := &manifest{Filters: map[uint32]runFilter{
		3: {Prefix: 64, Keys: [4]uint32{1000, 0, 10}, Known: 27},
		4: {Prefix: 25, Keys: [4]uint32{3000}, Known: 25},
	}}
	b := mergedFilter(m, []uint32{3, 4}, 14)
	if b == nil || b.f.Prefix != 25 || b.f.Keys != [4]uint32{4000, 0, 10} {
		t.Fatalf("merged filter %+v", b)
	}
	if b := mergedFilter(m, []uint32{3, 5}, 14); b != nil {
		t.Fatalf("run 5 has no filter, merged filter %+v", b.f)
	}
}

// TestFilterFilesFollowLiveRuns: the filter files are those of the live
// runs with filters: a run that never committed (a crash after its file
// was written) and runs a reindex replaced leave none behind.
func TestFilterFilesFollowLiveRuns(t *testing.T) {
	dir := t.TempDir()
	opts := Options{RunGames: 40, PromoteAt: 3}
	s := filteredStore(t, dir, opts)
	defer func() { s.Close() }()
	var err error
	files := func() []string {
		es, err := os.ReadDir(filepath.Join(dir, filtersDir))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		var names []string
		for _, e := range es {
			names = append(names, e.Name())
		}
		return names
	}
	live := func() []string {
		var names []string
		for _, r := range s.man.LiveRuns {
			if _, ok := s.man.Filters[r]; ok {
				names = append(names, filepath.Base(filterPath(dir, r)))
			}
		}
		slices.Sort(names)
		return names
	}
	if len(live()) == 0 || !slices.Equal(files(), live()) {
		t.Fatalf("filter files %v, live runs' %v", files(), live())
	}
	// A run whose filter was written, stopped before its commit.
	pending := s.man.NextRun
	if err := s.updateManifest(func(m *manifest) { m.NextRun++; m.Pending = pending }); err != nil {
		t.Fatal(err)
	}
	b := newFilterBuilder([4]int{10}, 64)
	b.add(0, 1)
	if _, err := b.write(dir, pending); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(dir, opts); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(files(), live()) {
		t.Fatalf("after the stopped run: filter files %v, live runs' %v", files(), live())
	}
	if err := s.ReindexPositions(); err != nil {
		t.Fatal(err)
	}
	if len(files()) != 0 || len(s.man.Filters) != 0 {
		t.Fatalf("after a reindex: filter files %v, manifest %v", files(), s.man.Filters)
	}
}

// filteredStore builds in dir a store of 120 games and five imports of 4
// more, whose runs get filters.
func filteredStore(t *testing.T, dir string, opts Options) *Store {
	t.Helper()
	s, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	gs := randomGames(t, 140)
	for from, n := 0, 120; from < len(gs); from, n = from+n, 4 {
		w, err := s.NewWriter()
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gs[from : from+n] {
			if _, err := w.Add(g); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// TestRunsBesideLargeOnesKeepWideFingerprints: a run small enough for a
// filter lives beside the large runs, merged only with its peers for a
// long time, so its fingerprints keep besideTailWidth bits below a full
// bucket however few entries its blocks have, and a merge of such runs
// keeps them (a lookup then rarely replays a stray game of theirs, and
// their filters know as many bits).
func TestRunsBesideLargeOnesKeepWideFingerprints(t *testing.T) {
	s := filteredStore(t, t.TempDir(), Options{})
	defer s.Close()
	filtered := 0
	for _, run := range s.man.LiveRuns {
		rf, ok := s.man.Filters[run]
		if !ok {
			continue
		}
		filtered++
		bits := s.man.tailBits(run)
		if want := uint8(tailBucketBits + besideTailWidth); rf.Known < want {
			t.Errorf("run %d (%d games): its filter knows %d key bits, want %d", run, s.man.RunGames[run], rf.Known, want)
		}
		blocks := 0
		err := s.viewRuns(func(txn *view) error {
			it := txn.NewIterator(badger.IteratorOptions{Prefix: runPrefix(prefixTail, byte(engine.Xiangqi), run)})
			defer it.Close()
			for it.Rewind(); it.Valid(); it.Next() {
				err := it.Item().Value(func(v []byte) error {
					return decodeTail(v, func(_, _ uint32, w int) {
						if w-(tailBucketBits-bits) < besideTailWidth {
							t.Fatalf("run %d, %d bucket bits: a %d-bit fingerprint", run, bits, w)
						}
					})
				})
				if err != nil {
					return err
				}
				blocks++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if blocks == 0 {
			t.Fatalf("run %d has no tail blocks", run)
		}
	}
	if filtered < 2 {
		t.Fatalf("%d runs with filters among %v", filtered, s.man.LiveRuns)
	}
}

// TestCheckFindsFilterMisses: xqdb check replays every game against the
// filter of the run holding its tail postings, and reports the games a
// damaged filter would hide from lookups.
func TestCheckFindsFilterMisses(t *testing.T) {
	dir := t.TempDir()
	opts := Options{RunGames: 40, PromoteAt: 3}
	s := filteredStore(t, dir, opts)
	rep, err := s.Check()
	if err != nil {
		t.Fatal(err)
	}
	if rep.FilterMisses != 0 || len(rep.Problems) != 0 {
		t.Fatalf("a sound store: %+v", rep)
	}
	var run uint32
	for _, r := range s.man.LiveRuns {
		if _, ok := s.man.Filters[r]; ok {
			run = r
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// The filter's blocks cleared, its header kept: it rules out everything.
	path := filterPath(dir, run)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	clear(data[filterHeaderSize:])
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(dir, Options{ReadOnly: true}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if rep, err = s.Check(); err != nil {
		t.Fatal(err)
	}
	if rep.FilterMisses == 0 || len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0], "position filter") {
		t.Fatalf("run %d's filter cleared: %+v", run, rep)
	}
}

// FuzzOpenFilter: a filter file of any bytes opens as a filter or as
// none, never panics, and a filter it opens answers any key.
func FuzzOpenFilter(f *testing.F) {
	dir := f.TempDir()
	b := newFilterBuilder([4]int{3, 0, 2}, 40)
	for _, k := range []uint64{1, 1 << 63, 12345} {
		b.add(0, k)
	}
	b.add(2, 99)
	if _, err := b.write(dir, 5); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(filterPath(dir, 5))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good, uint8(40), uint64(12345))
	f.Add(good[:filterHeaderSize], uint8(40), uint64(1))
	f.Add([]byte("xqdbflt2"), uint8(64), uint64(0))
	f.Fuzz(func(t *testing.T, data []byte, prefix uint8, key uint64) {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, filtersDir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filterPath(dir, 5), data, 0o644); err != nil {
			t.Fatal(err)
		}
		// A merge under way reads back the filter it wrote of its parts.
		rb := newFilterBuilder([4]int{3, 0, 2}, int(prefix))
		if rb.reload(dir, 5) {
			if !bytes.Equal(data[filterHeaderSize:], slices.Concat(rb.blocks[:]...)) {
				t.Fatal("reloaded filter blocks differ from the file's")
			}
			rb.add(0, key)
		}
		lf := openFilter(dir, 5, runFilter{Prefix: prefix})
		if lf == nil {
			return
		}
		defer lf.release()
		for g := range byte(4) {
			lf.mayHold(g, key)
		}
	})
}
