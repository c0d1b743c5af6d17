package index

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// TestRunsLiveInFoldersWithoutLevelZero: every run an import or a merge
// writes (merges in parts included) lives in a Badger folder of its own,
// written by StreamWriter into the levels below level 0, so that no
// compaction ever rewrites it; the store's Badger holds the game records
// only, and its level-0 tables, one an import, do not overlap (issue 18:
// in one Badger, a compaction of level 0 rewrote ten imports' runs at
// once, their tables all reaching the global keys). The live runs have
// folders, and only they and the merge under way.
func TestRunsLiveInFoldersWithoutLevelZero(t *testing.T) {
	setSmallMergeGames(t, 12)
	gs := randomGames(t, 248)
	s := partsStore(t, t.TempDir(), gs[:218])
	defer s.Close()
	sawMerging := false
	for i := 218; i < len(gs); i += 6 {
		importGames(t, s, gs[i:i+6])
		sawMerging = sawMerging || s.man.Merging != nil && s.man.Merging.Done != [2]int{}
		want := append([]uint32(nil), s.man.LiveRuns...)
		if st := s.man.Merging; st != nil {
			want = append(want, st.Run)
		}
		folders, err := s.runFolders()
		if err != nil {
			t.Fatal(err)
		}
		if len(folders) != len(want) {
			t.Fatalf("after the import of games %d on: folders %v, want the live runs and the merge under way's, %v", i, folders, want)
		}
		for _, run := range want {
			db, err := s.runDB(run, false)
			if err != nil || db == nil {
				t.Fatalf("run %d: no Badger (%v)", run, err)
			}
			levels := db.Levels()
			tables := 0
			for _, l := range levels {
				tables += l.NumTables
			}
			if levels[0].NumTables > 0 || tables == 0 {
				t.Fatalf("run %d: %d tables in level 0 of %d", run, levels[0].NumTables, tables)
			}
		}
	}
	if !sawMerging {
		t.Fatal("no import left a merge written in part: the test needs one")
	}
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			if k := it.Item().Key(); keyKind(k) != prefixGame {
				t.Fatalf("the store's Badger holds key %q", k)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var prev []byte
	for _, tb := range s.db.Tables() {
		if tb.Level != 0 {
			continue
		}
		if prev != nil && bytes.Compare(tb.Left, prev) <= 0 {
			t.Fatalf("level-0 tables overlap: one begins at %q, the one before ends at %q", tb.Left, prev)
		}
		prev = tb.Right
	}
}

// TestStreamedRunRefusesKeysOutOfOrder: a run written by StreamWriter
// takes each stream's keys in order; one out of order is an error, not
// the panic Badger's stream writer raises in a goroutine of its own.
func TestStreamedRunRefusesKeysOutOfOrder(t *testing.T) {
	s, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	b := s.newBatch()
	defer b.Cancel()
	if err := b.stream(7, tailBucketBits, runTableSize); err != nil {
		t.Fatal(err)
	}
	if err := b.Set(statsKey(0, 7, 200), []byte{1}); err != nil {
		t.Fatal(err)
	}
	// Another stream (the tail blocks) may come in between.
	if err := b.Set(tailKey(0, 7, 3), []byte{1}); err != nil {
		t.Fatal(err)
	}
	err = b.Set(statsKey(0, 7, 100), []byte{1})
	if err == nil || !strings.Contains(err.Error(), "written after") {
		t.Fatalf("a stats key out of order: %v, want an error", err)
	}
}

// TestReadOnlyStoreOpensTheMergingRunOnce: a reader (tree, games, a
// --batch) opens each run's Badger once, the merge under way's included,
// which a writer opens writable; the reader asked for it writable closed
// and reopened it at every read (a tree of the start position 2.4 ms
// instead of 0.09 after ten growth imports at a million games).
func TestReadOnlyStoreOpensTheMergingRunOnce(t *testing.T) {
	setSmallMergeGames(t, 12)
	gs := randomGames(t, 224)
	dir := t.TempDir()
	s := partsStore(t, dir, gs[:218])
	importGames(t, s, gs[218:224]) // the fourth small run: a tier merge begins
	if s.man.Merging == nil {
		t.Fatal("no merge under way after the fourth small run: the test needs one")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	run := r.man.Merging.Run
	first, err := r.runDB(run, false)
	if err != nil || first == nil {
		t.Fatalf("the merge under way's run %d: no Badger (%v)", run, err)
	}
	p, _ := games.New(engine.Xiangqi, "")
	for i := 0; i < 3; i++ {
		if _, err := r.Position(engine.Xiangqi, p, true); err != nil {
			t.Fatal(err)
		}
	}
	if again, err := r.runDB(run, true); err != nil || again != first {
		t.Fatalf("the merge under way's run %d was opened again (%v)", run, err)
	}
}

// TestViewReportsARunItCannotOpen: an iterator over a run whose Badger
// cannot be opened iterates over nothing, and the view returns the error:
// a merge reading its sources so would have written the merged run
// without that run's values.
func TestViewReportsARunItCannotOpen(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	importGames(t, s, randomGames(t, 20))
	run := s.man.LiveRuns[0]
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, runsDir, strconv.Itoa(int(run)), "MANIFEST"), []byte("not a manifest"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	keys := 0
	err = s.viewRuns(func(v *view) error {
		it := v.NewIterator(badger.IteratorOptions{Prefix: kindPrefix(prefixTail, run)})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			keys++
		}
		return nil
	})
	if err == nil || keys != 0 {
		t.Fatalf("a view over run %d, whose Badger cannot open, read %d keys and returned %v", run, keys, err)
	}
}

// TestStoreStoppedBeforeItsGlobalsReadsEmpty: a first import killed
// after it created the store's Badger and before the globals' leaves a
// store that holds nothing committed; a reader finds it empty, as before
// schema 9 (TestImportSurvivesKill's kill -9 at 0.15 s said "no database
// here").
func TestStoreStoppedBeforeItsGlobalsReadsEmpty(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, globalsDir)); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("a store stopped before its globals: %v", err)
	}
	defer r.Close()
	if n := r.Games(); n != 0 {
		t.Fatalf("%d games, want none", n)
	}
}

// TestSmallRunsBuildSmallTables: a run's Badger builds tables about the
// size of what its streams hold, so that a small import or merge does not
// zero a table builder of twice the full 4 MB for each of its streams;
// a large run, or one of unknown size, keeps the full size.
func TestSmallRunsBuildSmallTables(t *testing.T) {
	for _, tt := range []struct {
		games int
		want  int64
	}{
		{0, 256 << 10},
		{100, 256 << 10},
		{1_600, 409_600},
		{10_000, 2_560_000},
		{16_384, runTableSize},
		{1_000_000, runTableSize},
		{math.MaxInt, runTableSize}, // a merge of a run of unknown size
	} {
		if got := runTableSizeFor(tt.games); got != tt.want {
			t.Errorf("a run of %d games: tables of %d bytes, want %d", tt.games, got, tt.want)
		}
	}
	s, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	importGames(t, s, randomGames(t, 6))
	run := s.man.LiveRuns[0]
	db, err := s.runDB(run, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := db.Opts().BaseTableSize; got != runTableSizeFor(6) {
		t.Errorf("the run of a 6-game import builds tables of %d bytes, want %d", got, runTableSizeFor(6))
	}
}
