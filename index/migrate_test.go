package index

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// writeFullTails makes the stores written until restore is called have
// full tail blocks only, as an xqdb before schema version 8 wrote them.
func writeFullTails() (restore func()) {
	fullTailsOnly = true
	return func() { fullTailsOnly = false }
}

// downgrade marks a store with an older version, as an xqdb of that
// version left it: first every run's values move back from its folder
// into the store's Badger (before version 9); a store written with full
// tail blocks (writeFullTails) may go further back: for 5 and 6 it then
// rewrites the keys in the layout of schema version 5
// (s|game|key|run, t|game|bucket|run) or 6 (S|game|run|key,
// T|game|run|bucket), with heads H|game|run|key and records g|gid in
// both, and drops the manifest's epochs, which those versions did not
// know.
func downgrade(t *testing.T, dir string, version uint64) {
	t.Helper()
	db, err := badger.Open(badgerOptions(filepath.Join(dir, "badger"), false))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	moveRunsIn(t, dir, db)
	moveGlobalsIn(t, dir, db)
	wb := db.NewWriteBatch()
	be := binary.BigEndian
	err = db.View(func(txn *badger.Txn) error {
		if version >= 7 {
			return nil
		}
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{prefixRun, '|'}})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			k := it.Item().KeyCopy(nil)
			run, rest := runOf(k), k[7:]
			var old []byte
			switch kind := keyKind(k); {
			case kind == prefixGame:
				old = append([]byte{prefixGame, '|'}, rest...)
			case version == 5 && kind == prefixStats: // rest: game, key
				old = be.AppendUint32(append([]byte{prefixStatsV5, '|'}, rest...), run)
			case version == 5 && kind == prefixTail: // rest: game, bucket
				old = be.AppendUint32(append([]byte{prefixTailV5, '|'}, rest...), run)
			default: // S, T, H of version 6 (and H of 5): kind|game|run|rest
				old = append(be.AppendUint32([]byte{kind, '|', rest[0]}, run), rest[1:]...)
			}
			v, _ := it.Item().ValueCopy(nil)
			wb.Set(old, v)
			wb.Delete(k)
		}
		return nil
	})
	if err == nil {
		err = wb.Flush()
	}
	if err == nil {
		err = db.Update(func(txn *badger.Txn) error {
			item, err := txn.Get(manifestKey)
			if err != nil {
				return err
			}
			var m map[string]any
			if err := item.Value(func(v []byte) error { return json.Unmarshal(v, &m) }); err != nil {
				return err
			}
			if _, ok := m["tail_bits"]; ok && version < 8 {
				return errors.New("the store has runs of coarse tail blocks, which no older version wrote")
			}
			if version < 7 {
				delete(m, "epochs")
			}
			b, _ := json.Marshal(m)
			if err := txn.Set(manifestKey, b); err != nil {
				return err
			}
			return txn.Set(versionKey, binary.AppendUvarint(nil, version))
		})
	}
	if err != nil {
		t.Fatal(err)
	}
}

// moveRunsIn writes the values of every run's folder into the store's
// Badger db and removes the folders: a version 8 store's layout.
func moveRunsIn(t *testing.T, dir string, db *badger.DB) {
	t.Helper()
	s := &Store{dir: dir, opts: Options{}.withDefaults()}
	runs, err := s.runFolders()
	if err != nil {
		t.Fatal(err)
	}
	wb := db.NewWriteBatch()
	defer wb.Cancel()
	for _, run := range runs {
		rdb, err := badger.Open(runBadgerOptions(s.runPath(run), true))
		if err != nil {
			t.Fatal(err)
		}
		err = rdb.View(func(txn *badger.Txn) error {
			it := txn.NewIterator(badger.IteratorOptions{})
			defer it.Close()
			for it.Rewind(); it.Valid(); it.Next() {
				v, err := it.Item().ValueCopy(nil)
				if err != nil {
					return err
				}
				if err := wb.Set(it.Item().KeyCopy(nil), v); err != nil {
					return err
				}
			}
			return nil
		})
		if cerr := rdb.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := wb.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, runsDir)); err != nil {
		t.Fatal(err)
	}
}

// moveGlobalsIn writes the global kinds of the globals Badger into the
// store's Badger db (the popular keys as P|) and removes the globals
// folder: a version 8 store's layout.
func moveGlobalsIn(t *testing.T, dir string, db *badger.DB) {
	t.Helper()
	gdir := filepath.Join(dir, globalsDir)
	gdb, err := badger.Open(globalsOptions(gdir, false))
	if err != nil {
		t.Fatal(err)
	}
	wb := db.NewWriteBatch()
	defer wb.Cancel()
	err = gdb.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			k := it.Item().KeyCopy(nil)
			if k[0] == prefixPostings {
				continue // since version 11
			}
			if k[0] == prefixPopular {
				k[0] = prefixPopularV8
			}
			v, err := it.Item().ValueCopy(nil)
			if err != nil {
				return err
			}
			if err := wb.Set(k, v); err != nil {
				return err
			}
		}
		return nil
	})
	if cerr := gdb.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = wb.Flush()
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(gdir); err != nil {
		t.Fatal(err)
	}
}

// storeAnswers is every answer a store gives about games gs: each
// position's games and moves, and each stored record.
type storeAnswers struct {
	positions []string
	records   []*Record
}

func answersOf(t *testing.T, s *Store, gs []*Game) storeAnswers {
	t.Helper()
	var out storeAnswers
	for _, g := range gs {
		p, _ := games.New(engine.Xiangqi, "")
		for i := 0; i <= len(g.Moves); i++ {
			st, err := s.Position(engine.Xiangqi, p, true)
			if err != nil {
				t.Fatal(err)
			}
			out.positions = append(out.positions, fmt.Sprintf("%d games %v moves %v", len(st.Games), st.Games, st.Moves))
			if i < len(g.Moves) {
				p.Make(g.Moves[i])
			}
		}
	}
	for gid := uint32(1); gid < s.man.NextGid; gid++ {
		r, err := s.Game(gid)
		if err != nil {
			t.Fatal(err)
		}
		out.records = append(out.records, r)
	}
	return out
}

func sameAnswers(t *testing.T, what string, got, want storeAnswers) {
	t.Helper()
	if len(got.positions) != len(want.positions) || len(got.records) != len(want.records) {
		t.Fatalf("%s: %d answers and %d records, want %d and %d", what, len(got.positions), len(got.records), len(want.positions), len(want.records))
	}
	for i := range want.positions {
		if got.positions[i] != want.positions[i] {
			t.Fatalf("%s: position %d: %s, want %s", what, i, got.positions[i], want.positions[i])
		}
	}
	for i := range want.records {
		if !reflect.DeepEqual(got.records[i], want.records[i]) {
			t.Fatalf("%s: game %d: %+v, want %+v", what, i+1, got.records[i], want.records[i])
		}
	}
}

// TestMigrateVersion6: a version 6 store (keys by kind first, records
// g|gid) is refused with a message naming xqdb migrate; Migrate rewrites
// it, the store then answers every position and reads every game as
// before, takes a new import whose records sort after the migrated ones,
// and a second Migrate has nothing to do.
func TestMigrateVersion6(t *testing.T) {
	dir := t.TempDir()
	gs := randomGames(t, 60)
	restore := writeFullTails()
	s, err := Open(dir, Options{RunGames: 9, PromoteAt: 3})
	if err != nil {
		t.Fatal(err)
	}
	importGames(t, s, gs[:25])
	importGames(t, s, gs[25:40])
	// Tables in the last level, then the downgrade's in level 0.
	if err := s.Compact(); err != nil {
		t.Fatal(err)
	}
	want := answersOf(t, s, gs[:40])
	s.Close()
	restore()
	downgrade(t, dir, 6)

	_, err = Open(dir, Options{})
	if !errors.Is(err, ErrSchemaMismatch) || !strings.Contains(err.Error(), "version 6") || !strings.Contains(err.Error(), "xqdb migrate") {
		t.Fatalf("open of a version 6 store: %v, want ErrSchemaMismatch naming version 6 and xqdb migrate", err)
	}
	if from, err := Migrate(dir); err != nil || from != 6 {
		t.Fatalf("Migrate: from %d, %v", from, err)
	}
	if from, err := Migrate(dir); err != nil || from != SchemaVersion {
		t.Fatalf("second Migrate: from %d, %v", from, err)
	}
	s, err = Open(dir, Options{RunGames: 9, PromoteAt: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// The rewritten keys are compacted into one level, not left to the
	// next imports' compactions.
	used := 0
	for _, l := range s.db.Levels() {
		if l.NumTables > 0 {
			used++
		}
	}
	if used != 1 {
		t.Errorf("after Migrate, %d levels hold tables; want 1", used)
	}
	sameAnswers(t, "after the migration", answersOf(t, s, gs[:40]), want)
	if err := s.viewRuns(func(txn *view) error {
		for _, kind := range []byte{prefixStats, prefixTail, prefixHead, prefixGame} {
			if _, err := txn.Get([]byte{kind, '|'}); err == nil {
				return fmt.Errorf("a key %c| is left", kind)
			}
			it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kind, '|'}})
			it.Rewind()
			left := it.Valid()
			it.Close()
			if left {
				return fmt.Errorf("version 6 keys %c| are left", kind)
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// A new import into the migrated store, and the same games imported
	// into a new one, answer alike.
	importGames(t, s, gs[40:])
	fresh, err := Open(t.TempDir(), Options{RunGames: 9, PromoteAt: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	importGames(t, fresh, gs[:25])
	importGames(t, fresh, gs[25:40])
	importGames(t, fresh, gs[40:])
	sameAnswers(t, "after an import into the migrated store", answersOf(t, s, gs), answersOf(t, fresh, gs))
}

// TestMigrateVersion8: a version 8 store (every run's values and the
// global kinds in the store's Badger, a merge under way among them) is
// refused with a message naming xqdb migrate; Migrate moves each live
// run's values, and the merge under way's, into a folder of their own and
// the global kinds into the globals Badger, and drops them from the
// store's Badger, and the store then answers as before and takes imports,
// answering as a store built by this version does.
func TestMigrateVersion8(t *testing.T) {
	setSmallMergeGames(t, 10)
	dir := t.TempDir()
	gs := randomGames(t, 90)
	opts := Options{RunGames: 9, PromoteAt: 3, MaxRuns: 3}
	s, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 60; i += 9 {
		importGames(t, s, gs[i:min(i+9, 60)])
	}
	want := answersOf(t, s, gs[:60])
	merging := s.man.Merging != nil
	s.Close()
	downgrade(t, dir, 8)

	_, err = Open(dir, Options{})
	if !errors.Is(err, ErrSchemaMismatch) || !strings.Contains(err.Error(), "version 8") || !strings.Contains(err.Error(), "xqdb migrate") {
		t.Fatalf("open of a version 8 store: %v, want ErrSchemaMismatch naming version 8 and xqdb migrate", err)
	}
	if from, err := Migrate(dir); err != nil || from != 8 {
		t.Fatalf("Migrate: from %d, %v", from, err)
	}
	if from, err := Migrate(dir); err != nil || from != SchemaVersion {
		t.Fatalf("second Migrate: from %d, %v", from, err)
	}
	s, err = Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// The store's Badger holds the records only; each live run has a
	// folder.
	err = s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			if k := it.Item().Key(); k[0] != prefixRun || isRunValue(k) {
				return fmt.Errorf("the store's Badger holds key %q", k)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	folders, err := s.runFolders()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range s.man.LiveRuns {
		if !slices.Contains(folders, r) {
			t.Errorf("live run %d has no folder (folders %v)", r, folders)
		}
	}
	if merging && (s.man.Merging == nil || !slices.Contains(folders, s.man.Merging.Run)) {
		t.Errorf("the merge under way lost its folder (folders %v)", folders)
	}
	sameAnswers(t, "after the migration", answersOf(t, s, gs[:60]), want)
	for i := 60; i < len(gs); i += 10 {
		importGames(t, s, gs[i:i+10])
	}
	fresh, err := Open(t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	for i := 0; i < 60; i += 9 {
		importGames(t, fresh, gs[i:min(i+9, 60)])
	}
	for i := 60; i < len(gs); i += 10 {
		importGames(t, fresh, gs[i:i+10])
	}
	sameAnswers(t, "after imports into the migrated store", answersOf(t, s, gs), answersOf(t, fresh, gs))
}

// TestMigrateVersion7: a version 7 store (full tail blocks only) is
// refused with a message naming xqdb migrate; Migrate only sets the
// version, and the store then answers as before and takes imports whose
// small runs write coarse blocks, merged with its full ones, answering as
// a store built by this version does.
func TestMigrateVersion7(t *testing.T) {
	dir := t.TempDir()
	gs := randomGames(t, 80)
	restore := writeFullTails()
	s, err := Open(dir, Options{RunGames: 9, PromoteAt: 3, MaxRuns: 3})
	if err != nil {
		t.Fatal(err)
	}
	importGames(t, s, gs[:30])
	want := answersOf(t, s, gs[:30])
	s.Close()
	restore()
	downgrade(t, dir, 7)

	_, err = Open(dir, Options{})
	if !errors.Is(err, ErrSchemaMismatch) || !strings.Contains(err.Error(), "version 7") || !strings.Contains(err.Error(), "xqdb migrate") {
		t.Fatalf("open of a version 7 store: %v, want ErrSchemaMismatch naming version 7 and xqdb migrate", err)
	}
	if from, err := Migrate(dir); err != nil || from != 7 {
		t.Fatalf("Migrate: from %d, %v", from, err)
	}
	if from, err := Migrate(dir); err != nil || from != SchemaVersion {
		t.Fatalf("second Migrate: from %d, %v", from, err)
	}
	s, err = Open(dir, Options{RunGames: 9, PromoteAt: 3, MaxRuns: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sameAnswers(t, "after the migration", answersOf(t, s, gs[:30]), want)
	coarse := false
	for i := 30; i < len(gs); i += 10 {
		importGames(t, s, gs[i:i+10])
		coarse = coarse || len(s.man.TailBits) > 0
	}
	if !coarse {
		t.Fatal("no run of coarse tail blocks after the small imports")
	}
	fresh, err := Open(t.TempDir(), Options{RunGames: 9, PromoteAt: 3, MaxRuns: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	importGames(t, fresh, gs[:30])
	for i := 30; i < len(gs); i += 10 {
		importGames(t, fresh, gs[i:i+10])
	}
	sameAnswers(t, "after imports into the migrated store", answersOf(t, s, gs), answersOf(t, fresh, gs))
}

// TestMigrateVersion5: a version 5 store is refused with a message naming
// xqdb migrate; Migrate rewrites it, and the store then answers every
// position as before; a second Migrate has nothing to do.
func TestMigrateVersion5(t *testing.T) {
	dir := t.TempDir()
	gs := randomGames(t, 40)
	restore := writeFullTails()
	s, err := Open(dir, Options{RunGames: 9, PromoteAt: 3})
	if err != nil {
		t.Fatal(err)
	}
	w, _ := s.NewWriter()
	for _, g := range gs {
		if _, err := w.Add(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want := answersOf(t, s, gs)
	s.Close()
	restore()
	downgrade(t, dir, 5)

	_, err = Open(dir, Options{})
	if !errors.Is(err, ErrSchemaMismatch) || !strings.Contains(err.Error(), "xqdb migrate") {
		t.Fatalf("open of a version 5 store: %v, want ErrSchemaMismatch naming xqdb migrate", err)
	}
	if from, err := Migrate(dir); err != nil || from != 5 {
		t.Fatalf("Migrate: from %d, %v", from, err)
	}
	if from, err := Migrate(dir); err != nil || from != SchemaVersion {
		t.Fatalf("second Migrate: from %d, %v", from, err)
	}
	s, err = Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sameAnswers(t, "after the migration", answersOf(t, s, gs), want)
}

// TestImportKeysSortAfterStored: everything an import writes but the
// global kinds (attribute chunks, move hashes, popular keys, manifest)
// sorts after every key stored before it, merges included (issue 18: an
// import's Badger tables then span its own range, not the older records
// and runs, which a compaction of those tables would otherwise rewrite).
func TestImportKeysSortAfterStored(t *testing.T) {
	global := []byte{prefixAttrs, prefixHash, prefixPopular, prefixManifest, prefixVersion}
	gs := randomGames(t, 90)
	// RunGames 5 and MaxRuns 3: the imports merge runs too.
	s, err := Open(t.TempDir(), Options{RunGames: 5, PromoteAt: 3, MaxRuns: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	keys := func() map[string]uint64 { // key → version
		out := map[string]uint64{}
		err := s.viewRuns(func(txn *view) error {
			it := txn.NewIterator(badger.IteratorOptions{})
			defer it.Close()
			for it.Rewind(); it.Valid(); it.Next() {
				if k := it.Item().Key(); !slices.Contains(global, k[0]) {
					out[string(k)] = it.Item().Version()
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	merged := 0
	for i, n := range []int{30, 12, 7, 20, 1, 20} {
		before := keys()
		runs := s.man.NextRun
		importGames(t, s, gs[:n])
		gs = gs[n:]
		merged += int(s.man.NextRun-runs) - (n+4)/5
		last := ""
		for k := range before {
			last = max(last, k)
		}
		written := 0
		for k, v := range keys() {
			if old, ok := before[k]; ok && old == v {
				continue
			}
			written++
			if k <= last {
				t.Fatalf("import %d wrote %x, which sorts before %x, stored before it", i, k, last)
			}
		}
		if written == 0 {
			t.Fatalf("import %d wrote nothing", i)
		}
	}
	if merged == 0 {
		t.Fatal("no import merged runs: the test exercises less than it says")
	}
}
