package index

import (
	"cmp"
	"expvar"
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

// TestMergeFrom: the merge policy merges the newest runs of one size tier
// (log4 of their games) once mergeFanIn of them are live, older runs of
// lower tiers with them, and merges the newest runs whatever their sizes
// past MaxRuns large runs (more than smallMergeGames games); up to
// MaxRuns small runs more live beside them, past which the newest small
// ones merge; a run of unknown size is large and never merged by tier.
func TestMergeFrom(t *testing.T) {
	for _, tt := range []struct {
		name  string
		sizes []uint32 // 0: unknown
		max   int
		want  int
	}{
		{"one run", []uint32{1000}, 8, 1},
		{"a large run and three small", []uint32{1_000_000, 10_000, 10_000, 10_000}, 8, 4},
		{"a large run and four small", []uint32{1_000_000, 10_000, 10_000, 10_000, 10_000}, 8, 1},
		{"four small after a middle one", []uint32{1_000_000, 40_000, 10_000, 10_000, 10_000, 10_000}, 8, 2},
		{"a smaller run among them", []uint32{1_000_000, 40_000, 100, 10_000, 10_000, 10_000}, 8, 2},
		{"the newest run larger", []uint32{100, 100, 100, 10_000}, 8, 0},
		{"the newest run smaller", []uint32{10_000, 10_000, 10_000, 100}, 8, 4},
		{"past MaxRuns", []uint32{1 << 20, 1 << 18, 1 << 16, 1 << 14}, 3, 2},
		{"unknown sizes", []uint32{0, 0, 0, 0}, 8, 4},
		{"unknown sizes past MaxRuns", []uint32{0, 0, 0, 0}, 2, 1},
		{"small runs after an unknown one", []uint32{0, 5, 5, 5, 5}, 8, 1},
		{"small runs beside MaxRuns large ones", []uint32{1 << 20, 1 << 18, 1 << 16, 1600, 1600, 400, 100, 100}, 4, 8},
		{"small runs past twice MaxRuns", []uint32{1 << 20, 1 << 18, 1 << 16, 1600, 1600, 1600, 400, 100}, 3, 3},
		{"large runs past MaxRuns among small ones", []uint32{1 << 20, 1 << 18, 1 << 16, 1 << 14, 400, 100}, 3, 2},
		{"past twice MaxRuns, the newest large", []uint32{1 << 20, 100, 100, 400, 1 << 14}, 2, 1},
	} {
		live := make([]uint32, len(tt.sizes))
		sizes := map[uint32]uint32{}
		for i, n := range tt.sizes {
			live[i] = uint32(10 + i)
			if n > 0 {
				sizes[live[i]] = n
			}
		}
		if got := mergeFrom(live, sizes, tt.max); got != tt.want {
			t.Errorf("%s: mergeFrom = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestManySmallImportsAnswerAsOne is issue 18's proof: a database built
// by many small imports (whose runs merge by tiers, and whose promotions
// count earlier imports' games through the opening counts) and one built
// by one large import give the same tree and the same game list at every
// position the games reach.
func TestManySmallImportsAnswerAsOne(t *testing.T) {
	// Small writes (DeferCompaction) leave merges of more than this many
	// games to larger ones: the deferred case below defers some.
	setSmallMergeGames(t, 12)
	gs := randomGames(t, 160)
	build := func(opts Options, sizes []int) *Store {
		s, err := Open(t.TempDir(), opts)
		if err != nil {
			t.Fatal(err)
		}
		next := 0
		for _, n := range sizes {
			if opts.DeferCompaction { // each import its own session, as the command's
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
				if s, err = Open(s.dir, opts); err != nil {
					t.Fatal(err)
				}
			}
			w, err := s.NewWriter()
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range gs[next : next+n] {
				if _, err := w.Add(g); err != nil {
					t.Fatal(err)
				}
			}
			next += n
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
		}
		if next != len(gs) {
			t.Fatalf("imports of %v games: %d, want %d", sizes, next, len(gs))
		}
		return s
	}
	one := build(Options{RunGames: 1000, PromoteAt: 3}, []int{160})
	defer one.Close()

	for _, tt := range []struct {
		name  string
		opts  Options
		sizes []int
	}{
		{"twenty imports of eight", Options{RunGames: 8, PromoteAt: 3}, slices.Repeat([]int{8}, 20)},
		{"a large import, then ten small", Options{RunGames: 20, PromoteAt: 3}, append([]int{100}, slices.Repeat([]int{6}, 10)...)},
		{"growing imports, runs of one game", Options{RunGames: 1, PromoteAt: 3, MaxRuns: 6}, []int{1, 2, 3, 4, 6, 8, 10, 16, 30, 80}},
		{"thirty small imports, compactions deferred", Options{RunGames: 8, PromoteAt: 3, DeferCompaction: true}, append(slices.Repeat([]int{5}, 30), 10)},
		// Runs small beside the store carry position filters, written and
		// merged ones (filter.go).
		{"a large import, then small ones with filters", Options{RunGames: 40, PromoteAt: 3}, append([]int{120}, slices.Repeat([]int{4}, 10)...)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := build(tt.opts, tt.sizes)
			defer s.Close()
			if strings.Contains(tt.name, "filters") {
				var written, merged int
				for _, run := range s.man.LiveRuns {
					f, ok := s.man.Filters[run]
					switch {
					case !ok:
					case f.Prefix == 64:
						written++
					default:
						merged++
					}
				}
				if written == 0 || merged == 0 {
					t.Fatalf("live runs %v, filters %v: want written and merged runs with filters", s.man.LiveRuns, s.man.Filters)
				}
				// The files of runs merged away are gone.
				files, err := os.ReadDir(filepath.Join(s.dir, filtersDir))
				if err != nil {
					t.Fatal(err)
				}
				want := written + merged
				if st := s.man.Merging; st != nil && st.Filter {
					want++ // the merge under way fills its run's
				}
				if len(files) != want {
					t.Fatalf("%d filter files, %d live runs with filters, merging %+v", len(files), written+merged, s.man.Merging)
				}
			}
			most := max(tt.opts.MaxRuns, 8)
			if tt.opts.DeferCompaction {
				most = 2*most + mergeFanIn - 1 // mergeDeferred, then a part at a time
			}
			if live := s.man.liveRuns(); live > most {
				t.Fatalf("%d live runs (%v, merging %+v)", live, s.man.LiveRuns, s.man.Merging)
			}
			if int(s.man.NextRun)-1 == len(s.man.LiveRuns) {
				t.Fatalf("no runs were merged: the test does not exercise merges")
			}
			// Sampled games, every position of each.
			if n := checkSameAnswers(t, s, one, gs, 4); n < 300 {
				t.Fatalf("%d positions checked", n)
			}
		})
	}
}

// TestSmallImportsDeferCompaction: a small write (DeferCompaction) runs no
// Badger compactor, so nothing starts a compaction for its Close to wait
// for and level 0 keeps its tables past NumLevelZeroTables, up to
// deferredLevelZeroTables: the small write that finds that many compacts
// level 0 at its Close, still without compactors (whose compactions of
// the levels below it would wait for), and level 0 grows no further
// (issue 18: 100 games in ≤ 0.5 s every time). Each import's records are
// a level-0 table after all the others (schema 9), so Badger compacts the
// oldest alone: each small write at the bound pays for one. The session before it leaves the marker
// that lets it open Badger once; without the marker (the second time
// below, as after an older xqdb) it opens Badger twice, and compacts all
// the same.
// TestManySmallImportsAnswerAsOne checks such a store's answers.
func TestSmallImportsDeferCompaction(t *testing.T) {
	gs := randomGames(t, 5*deferredLevelZeroTables+8) // the bound twice, at two games a session
	dir := t.TempDir()
	marker := filepath.Join(dir, badgerDir, levelZeroMarker)
	opts := Options{RunGames: 8, PromoteAt: 3, DeferCompaction: true}
	most, bounds, added := 0, 0, 0
	for i := 0; i < len(gs); i += 2 {
		_, err := os.Stat(marker)
		marked := err == nil
		if marked && bounds == 1 {
			if err := os.Remove(marker); err != nil {
				t.Fatal(err)
			}
		}
		s, err := Open(dir, opts)
		if err != nil {
			t.Fatal(err)
		}
		l0 := s.db.Levels()[0].NumTables
		most = max(most, l0)
		bound := l0 >= deferredLevelZeroTables
		if marked != bound {
			t.Fatalf("session %d, %d level-0 tables: marked for compaction %v", i/2+1, l0, marked)
		}
		if bound {
			bounds++
			if want := bounds == 2; s.reopened != want {
				t.Fatalf("session %d, the bound's %d: Badger opened twice %v, want %v", i/2+1, bounds, s.reopened, want)
			}
		}
		if got := s.db.Opts(); got.NumCompactors != 0 || got.CompactL0OnClose != bound || got.MemTableSize != memTableSize {
			t.Fatalf("session %d, %d level-0 tables: %d compactors, level 0 compacted at close %v, memtable %d; want none, %v and %d", i/2+1, l0, got.NumCompactors, got.CompactL0OnClose, got.MemTableSize, bound, memTableSize)
		} else if bound && got.BaseTableSize != levelZeroCompactionTableSize {
			t.Fatalf("session %d compacts level 0 into tables of %d bytes, want %d", i/2+1, got.BaseTableSize, levelZeroCompactionTableSize)
		}
		_, dups := importGames(t, s, gs[i:i+2])
		added += 2 - dups
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if most <= badgerOptions(dir, false).NumLevelZeroTables || bounds < 2 {
		t.Fatalf("level 0 held at most %d tables, compacted at the bound %d times", most, bounds)
	}
	s, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if l0 := s.db.Levels()[0].NumTables; l0 > deferredLevelZeroTables {
		t.Errorf("%d level-0 tables at the end", l0)
	}
	if n := s.Games(); n != added {
		t.Errorf("%d games stored, want %d", n, added)
	}
}

// TestSmallImportsDeferGlobalsCompaction: a small write runs no compactor
// in the globals Badger either, where each leaves a level-0 table that
// reaches over the whole key range: the one that finds
// globalsDeferredTables of them compacts level 0 at its Close, all of it,
// and its session before leaves the marker that says so (issue 18: a
// compactor that began during a small write's session, at a random
// moment, made its Close wait for a rewrite of the base level).
func TestSmallImportsDeferGlobalsCompaction(t *testing.T) {
	// A new game each session: a session that adds nothing leaves no
	// table (the marker counts one all the same: it is a hint).
	var gs []*Game
	seen := map[string]bool{}
	for _, g := range randomGames(t, 3*globalsDeferredTables) {
		if k := fmt.Sprint(g.Moves); !seen[k] && len(gs) < 2*globalsDeferredTables+6 {
			seen[k] = true
			gs = append(gs, g)
		}
	}
	dir := t.TempDir()
	marker := filepath.Join(dir, globalsDir, levelZeroMarker)
	opts := Options{RunGames: 8, PromoteAt: 3, DeferCompaction: true}
	most, bounds := 0, 0
	for i, g := range gs {
		_, err := os.Stat(marker)
		marked := err == nil
		s, err := Open(dir, opts)
		if err != nil {
			t.Fatal(err)
		}
		l0 := s.gdb.Levels()[0].NumTables
		most = max(most, l0)
		bound := l0 >= globalsDeferredTables
		if marked != bound {
			t.Fatalf("session %d, %d level-0 tables: marked for compaction %v", i+1, l0, marked)
		}
		if got := s.gdb.Opts(); got.NumCompactors != 0 || got.CompactL0OnClose != bound {
			t.Fatalf("session %d, %d level-0 tables: %d compactors, level 0 compacted at close %v; want none and %v", i+1, l0, got.NumCompactors, got.CompactL0OnClose, bound)
		}
		if bound {
			bounds++
		}
		if _, dups := importGames(t, s, []*Game{g}); dups != 0 {
			t.Fatalf("session %d: game %d a duplicate", i+1, i)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if bound {
			s, err := Open(dir, Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			if l0 := s.gdb.Levels()[0].NumTables; l0 != 0 {
				t.Errorf("session %d compacted level 0 at its Close, and left %d tables", i+1, l0)
			}
			s.Close()
		}
	}
	if most != globalsDeferredTables || bounds != 2 {
		t.Fatalf("level 0 held at most %d tables, compacted at the bound %d times", most, bounds)
	}
}

// TestLargerWriteCompactsFullLevelZero: a write that is not small and
// finds level 0 at NumLevelZeroTables compacts it at Close (its oldest
// table: each import's records are a table of their own, schema 9),
// whether its compactors began or not, so the small writes after it do
// not inherit it
// (issue 18: a growth import shorter than the compactors' random start
// left ten imports' tables to a 100-game one); below the bound it opens
// Badger once and leaves level 0 to them, from one table past the bound
// (the table its own Close leaves is the next larger write's to compact).
func TestLargerWriteCompactsFullLevelZero(t *testing.T) {
	bound := badgerOptions(t.TempDir(), false).NumLevelZeroTables
	gs := randomGames(t, 4*bound+8)
	dir := t.TempDir()
	small := Options{RunGames: 8, PromoteAt: 3, DeferCompaction: true}
	next := 0
	session := func(opts Options, n int) (l0Before, l0After int, s *Store) {
		t.Helper()
		s, err := Open(dir, opts)
		if err != nil {
			t.Fatal(err)
		}
		l0Before = s.db.Levels()[0].NumTables
		importGames(t, s, gs[next:next+n])
		next += n
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		r, err := Open(dir, Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		return l0Before, r.db.Levels()[0].NumTables, s
	}
	// Small writes leave a level-0 table each, up to one short of the
	// bound.
	for l0, i := 0, 0; l0+1 < bound; i++ {
		if i == 2*bound {
			t.Fatalf("%d small writes left %d level-0 tables", i, l0)
		}
		_, l0, _ = session(small, 2)
	}
	larger := Options{RunGames: 8, PromoteAt: 3}
	before, after, s := session(larger, 2)
	if s.reopened || s.db.Opts().CompactL0OnClose {
		t.Fatalf("a larger write with %d level-0 tables (bound %d) opened Badger twice %v, compacted level 0 at Close %v", before, bound, s.reopened, s.db.Opts().CompactL0OnClose)
	}
	if after != before+1 {
		t.Fatalf("a larger write below the bound left %d level-0 tables after %d", after, before)
	}
	// The table its Close left took level 0 to the bound: its compactors
	// must not have begun on it inside that Close.
	if got := s.db.Opts().NumLevelZeroTables; got != bound+1 {
		t.Fatalf("a larger write below the bound lets its compactors compact level 0 at %d tables, want %d", got, bound+1)
	}
	// That write left largerWriteMarker: the next opens Badger once, to
	// compact level 0 at Close; without the marker (a store an older xqdb
	// wrote, a crash) it counts the tables and opens Badger twice.
	marker := filepath.Join(dir, badgerDir, largerWriteMarker)
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("a write that left level 0 at the bound left no marker: %v", err)
	}
	unmarked := t.TempDir()
	if err := os.CopyFS(unmarked, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(unmarked, badgerDir, largerWriteMarker)); err != nil {
		t.Fatal(err)
	}
	u, err := Open(unmarked, larger)
	if err != nil {
		t.Fatal(err)
	}
	if !u.reopened || !u.db.Opts().CompactL0OnClose {
		t.Fatalf("a larger write at the bound without the marker opened Badger twice %v, compacted level 0 at Close %v", u.reopened, u.db.Opts().CompactL0OnClose)
	}
	if err := u.Close(); err != nil {
		t.Fatal(err)
	}
	before, after, s = session(larger, 2)
	if s.reopened || !s.db.Opts().CompactL0OnClose {
		t.Fatalf("a larger write with %d level-0 tables (bound %d) and the marker opened Badger twice %v, compacted level 0 at Close %v", before, bound, s.reopened, s.db.Opts().CompactL0OnClose)
	}
	if _, err := os.Stat(marker); (err == nil) != (after >= bound) {
		t.Fatalf("%d level-0 tables left (bound %d), the marker there: %v", after, bound, err == nil)
	}
	if got := s.db.Opts().NumLevelZeroTables; got != deferredLevelZeroTables {
		t.Fatalf("a larger write that compacts level 0 at Close lets its compactors compact it at %d tables, want %d", got, deferredLevelZeroTables)
	}
	if after > before {
		t.Fatalf("a larger write at the bound (%d level-0 tables) left %d", before, after)
	}
	r, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got := r.Games(); got != next {
		t.Fatalf("%d games stored, want %d", got, next)
	}
}

// TestSmallImportsDeferLargeMerges: a small write (DeferCompaction)
// merges runs of no more than smallMergeGames games while fewer than
// twice MaxRuns runs are live, and what is due past that a part at a
// time; the next larger import merges what they left (issue 18: a tier
// merge of 34,000 games fell on an import of 100, and the rest of one of
// 40,000 took another 0.55 s).
func TestSmallImportsDeferLargeMerges(t *testing.T) {
	setSmallMergeGames(t, 12)
	gs := randomGames(t, 150)
	dir := t.TempDir()
	small := Options{RunGames: 8, PromoteAt: 3, MaxRuns: 4, DeferCompaction: true}
	next, most, deferred := 0, 0, false
	session := func(n int, opts Options) *Store {
		t.Helper()
		s, err := Open(dir, opts)
		if err != nil {
			t.Fatal(err)
		}
		before := slices.Clone(s.man.LiveRuns)
		importGames(t, s, gs[next:next+n])
		next += n
		merged := 0 // the games of the runs live before and merged away
		for _, r := range before {
			if !slices.Contains(s.man.LiveRuns, r) {
				merged += int(s.man.RunGames[r])
			}
		}
		if opts.DeferCompaction && len(before)+1 < 2*opts.MaxRuns && merged+n > smallMergeGames {
			t.Fatalf("a small import with %d live runs merged %d games and its %d", len(before), merged, n)
		}
		most = max(most, len(s.man.LiveRuns))
		deferred = deferred || len(s.man.LiveRuns) > opts.MaxRuns
		return s
	}
	for i := 0; i < 40; i++ {
		if err := session(3, small).Close(); err != nil {
			t.Fatal(err)
		}
	}
	// Past twice MaxRuns a small import writes a part of the merge due
	// (a mergeFanIn-th), and the next ones the rest.
	if !deferred || most > 2*small.MaxRuns+mergeFanIn-1 {
		t.Fatalf("at most %d live runs with MaxRuns %d: want more than MaxRuns, at most twice and the parts of a merge", most, small.MaxRuns)
	}
	s := session(30, Options{RunGames: 8, PromoteAt: 3, MaxRuns: small.MaxRuns})
	defer s.Close()
	if n := len(s.man.LiveRuns); n > small.MaxRuns {
		t.Errorf("%d live runs after a larger import", n)
	}
}

// TestDuplicatesByHashEntries: a writer finds the games already stored
// through their h| entries, without loading every game's attributes; a
// store without those entries (written before them) gets them from its
// attributes once, at its next import, and finds its duplicates as well.
func TestDuplicatesByHashEntries(t *testing.T) {
	gs := randomGames(t, 30)
	dir := t.TempDir()
	add := func(s *Store, want int) {
		t.Helper()
		if _, dups := importGames(t, s, gs); dups != want {
			t.Fatalf("%d duplicates, want %d", dups, want)
		}
	}
	s, err := Open(dir, Options{RunGames: 7})
	if err != nil {
		t.Fatal(err)
	}
	add(s, 0)
	s.Close()
	if s, err = Open(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	add(s, len(gs))
	if s.attrs != nil {
		t.Errorf("the writer loaded every game's attributes")
	}
	// Forget the h| entries, as a store written before them.
	if err := s.gdb.DropPrefix([]byte{prefixHash, '|'}); err != nil {
		t.Fatal(err)
	}
	if err := s.updateManifest(func(m *manifest) { m.HashedUpTo = 0 }); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = Open(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	add(s, len(gs))
	if s.Games() != len(gs) || s.man.HashedUpTo != s.man.NextGid {
		t.Errorf("%d games, hashed up to %d of %d", s.Games(), s.man.HashedUpTo, s.man.NextGid)
	}
}

// TestPopularKeysWithoutStatsValues: a writer learns which positions are
// popular from the P| entries, which every run writes for the keys it
// makes popular, without reading the stats values (whose game lists
// share their blocks: issue 18); a store written before those entries
// gets them from its stats values once, at its next import, and answers
// as a store that always had them.
func TestPopularKeysWithoutStatsValues(t *testing.T) {
	gs := randomGames(t, 120)
	statsKeys := func(s *Store) [4][]uint64 {
		var out [4][]uint64
		err := s.viewRuns(func(txn *view) error {
			return txn.eachRunKey(prefixStats, func(it *badger.Iterator) error {
				if k := it.Item().Key(); len(k) == statsKeyLen && s.man.live(runOf(k)) {
					out[keyGame(k)%4] = append(out[keyGame(k)%4], keyPosition(k))
				}
				return nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		for i := range out {
			slices.Sort(out[i])
			out[i] = slices.Compact(out[i])
		}
		return out
	}
	loaded := func(s *Store) [4][]uint64 {
		w := &Writer{s: s}
		if err := w.loadPopular(); err != nil {
			t.Fatal(err)
		}
		var out [4][]uint64
		for i := range out {
			out[i] = w.popular[i].keys()
		}
		return out
	}
	s, err := Open(t.TempDir(), Options{RunGames: 10, PromoteAt: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	importGames(t, s, gs[:60])
	importGames(t, s, gs[60:80])
	want := statsKeys(s)
	if len(want[engine.Xiangqi]) == 0 {
		t.Fatal("no popular positions: the test exercises nothing")
	}
	if got := loaded(s); !equalKeySets(got, want) {
		t.Fatalf("P| entries list %v, stats values %v", got, want)
	}
	// Forget the P| entries, as a store written before them: the next
	// import writes them from the stats values.
	if err := s.gdb.DropPrefix([]byte{prefixPopular, '|'}); err != nil {
		t.Fatal(err)
	}
	if err := s.updateManifest(func(m *manifest) { m.PopularKeys = false }); err != nil {
		t.Fatal(err)
	}
	importGames(t, s, gs[80:100])
	if got, want := loaded(s), statsKeys(s); !equalKeySets(got, want) {
		t.Fatalf("after the backfill, P| entries list %v, stats values %v", got, want)
	}
	// From now on the stats values are not read to list the keys.
	for run := uint32(0); run < s.man.NextRun; run++ {
		db, err := s.runDB(run, true)
		if err == nil {
			err = db.DropPrefix(kindPrefix(prefixStats, run))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := loaded(s); !equalKeySets(got, want) {
		t.Fatalf("without stats values, the writer lists %v, want %v", got, want)
	}
}

func equalKeySets(a, b [4][]uint64) bool {
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// TestLargeImportLeavesOneLevel: an import that adds a quarter of the
// store or more compacts Badger into one level, so the level-0 tables of
// earlier sessions (each session's Close flushes one) and the dead values
// of its merges are not left for the next small import's compaction; a
// smaller import leaves them.
func TestLargeImportLeavesOneLevel(t *testing.T) {
	gs := randomGames(t, 70)
	dir := t.TempDir()
	next := 0
	add := func(n int) *Store {
		t.Helper()
		s, err := Open(dir, Options{RunGames: 8, PromoteAt: 3})
		if err != nil {
			t.Fatal(err)
		}
		w, err := s.NewWriter()
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gs[next : next+n] {
			if _, err := w.Add(g); err != nil {
				t.Fatal(err)
			}
		}
		next += n
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return s
	}
	levels := func(s *Store) (l0, used int) {
		for _, l := range s.db.Levels() {
			if l.NumTables > 0 {
				used++
			}
			if l.Level == 0 {
				l0 = l.NumTables
			}
		}
		return l0, used
	}
	s := add(20)
	if err := s.Compact(); err != nil { // all in the last level
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := add(4).Close(); err != nil { // under a quarter of 20: small
		t.Fatal(err)
	}
	s = add(4) // a small import: level 0 stays as it is
	if l0, used := levels(s); l0 < 1 || used != 2 {
		t.Fatalf("after two small imports: %d level-0 tables, %d levels used; want some over the last level", l0, used)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = add(30) // a large import: one level
	if l0, used := levels(s); l0 != 0 || used != 1 {
		t.Fatalf("after a large import: %d level-0 tables, %d levels used; want 0 and 1", l0, used)
	}
	// Closed and opened again: its merges' last values and tombstones
	// were in the one level too, not flushed into level 0 by Close.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if l0, used := levels(s); l0 != 0 || used != 1 {
		t.Fatalf("after a large import, closed: %d level-0 tables, %d levels used; want 0 and 1", l0, used)
	}
}

// TestDuplicateCheckReadsCommittedGamesOnly: a writer asks the store's
// h| values only for games committed before it started. Into an empty
// store it reads none (a point read per game found nothing); into a
// store with games it reads them, but drops the gids a run a crash left
// uncommitted wrote there, which this writer hands out again: kept, they
// came before its own gids in the value it writes back, which then no
// longer decoded ("corrupt list of game ids") at the next import.
func TestDuplicateCheckReadsCommittedGamesOnly(t *testing.T) {
	gs := randomGames(t, 30)
	dir := t.TempDir()
	add := func(s *Store, gs []*Game, wantDups int) {
		t.Helper()
		if _, dups := importGames(t, s, gs); dups != wantDups {
			t.Fatalf("%d duplicates, want %d", dups, wantDups)
		}
	}
	s, err := Open(dir, Options{RunGames: 7})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { s.Close() }()
	add(s, gs[:20], 0)
	if s.hashReads != 0 {
		t.Errorf("a writer into an empty store read %d h| values, want 0", s.hashReads)
	}
	// A run a crash left uncommitted listed game 25's moves under a gid
	// past the committed ones.
	p, err := Prepare(gs[25])
	if err != nil {
		t.Fatal(err)
	}
	wb := s.newBatch()
	if err := wb.Set(hashKey(p.attrs.Hash), encodeGids([]uint32{s.man.NextGid + 10})); err != nil {
		t.Fatal(err)
	}
	if err := wb.Flush(); err != nil {
		t.Fatal(err)
	}
	add(s, gs[20:], 0)
	if s.hashReads == 0 {
		t.Errorf("a writer into a store with games read no h| value")
	}
	add(s, gs, len(gs))
	if s.Games() != len(gs) {
		t.Errorf("%d games, want %d", s.Games(), len(gs))
	}
}

// TestLookupsSkipRunsAfterAPositionTurnedPopular: a tree or a game list's
// first page at a popular position does not read the tail of a run whose
// games all came after the position's first stats game (RunFrom), and
// answers what it answers reading every run's tail; the manifest knows
// the first game of every run an import or a merge writes, and xqdb
// check finds a run that holds a game below it (issue 18).
func TestLookupsSkipRunsAfterAPositionTurnedPopular(t *testing.T) {
	badgerMetrics = true // to count the reads below
	t.Cleanup(func() { badgerMetrics = false })
	setSmallMergeGames(t, 12)
	gs := randomGames(t, 160)
	dir := t.TempDir()
	s, err := Open(dir, Options{RunGames: 20, PromoteAt: 3})
	if err != nil {
		t.Fatal(err)
	}
	importGames(t, s, gs[:100])
	for i := 100; i < len(gs); i += 6 {
		importGames(t, s, gs[i:min(i+6, len(gs))])
	}
	// Read as tree and games read: the manifest as written.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(dir, Options{ReadOnly: true}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if int(s.man.NextRun)-1 == len(s.man.LiveRuns) {
		t.Fatal("no runs were merged: the test does not exercise merges")
	}
	for _, run := range s.man.LiveRuns {
		if _, ok := s.man.RunFrom[run]; !ok {
			t.Fatalf("live run %d has no first game (RunFrom %v)", run, s.man.RunFrom)
		}
	}
	rep, err := s.Check()
	if err != nil {
		t.Fatal(err)
	}
	if rep.BadRunStarts != 0 || len(rep.Problems) != 0 {
		t.Fatalf("check: %d bad run starts, problems %q", rep.BadRunStarts, rep.Problems)
	}

	type answer struct {
		moves  []MoveStats
		newest []GameHit
		total  int
	}
	ask := func(p engine.Position) answer {
		st, err := s.Position(engine.Xiangqi, p, false)
		if err != nil {
			t.Fatal(err)
		}
		hits, total, _, err := s.NewestGames(engine.Xiangqi, p, 20)
		if err != nil {
			t.Fatal(err)
		}
		moves := slices.Clone(st.Moves)
		slices.SortFunc(moves, func(a, b MoveStats) int { return cmp.Compare(a.Code, b.Code) })
		hits = slices.Clone(hits)
		slices.SortFunc(hits, func(a, b GameHit) int { return cmp.Compare(a.Gid, b.Gid) })
		return answer{moves, hits, total}
	}
	from := s.man.RunFrom
	skipped := 0
	for i, g := range gs {
		if i%4 != 0 {
			continue
		}
		p, _ := games.New(engine.Xiangqi, "")
		for ply := 0; ; ply++ {
			got := ask(p)
			s.man.RunFrom = nil // every run's tail read
			want := ask(p)
			s.man.RunFrom = from
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: skipping runs %+v, reading all %+v", p.FEN(), got, want)
			}
			if st, _ := s.statsOf(engine.Xiangqi, p.Key(), false); len(got.moves) > 0 && len(st.Games) > 0 {
				first := st.firstGid()
				for _, run := range s.man.LiveRuns {
					if from[run] >= first {
						skipped++
					}
				}
			}
			if ply == len(g.Moves) {
				break
			}
			p.Make(g.Moves[ply])
		}
	}
	if skipped == 0 {
		t.Fatal("no lookup skipped a run: the test does not exercise the skip")
	}
	// The start position's games are all in its stats, from the first
	// game on: its lookups read no run's tail (the runs with a position
	// filter were not read before: their filters leave popular positions
	// out).
	reads := func() int64 {
		var n int64
		expvar.Get("badger_get_num_lsm").(*expvar.Map).Do(func(kv expvar.KeyValue) { n += kv.Value.(*expvar.Int).Value() })
		return n
	}
	start, _ := games.New(engine.Xiangqi, "")
	before := reads()
	ask(start)
	skipping := reads() - before
	s.man.RunFrom = nil
	before = reads()
	ask(start)
	all := reads() - before
	s.man.RunFrom = from
	unfiltered := 0
	for _, run := range s.man.LiveRuns {
		if _, ok := s.man.Filters[run]; !ok {
			unfiltered++
		}
	}
	if unfiltered == 0 || all-skipping != 2*int64(unfiltered) { // a tree and a game list, a tail block a run each
		t.Fatalf("the start position's lookups read %d times from Badger skipping runs, %d reading every run's tail (%d live runs, %d without filters)", skipping, all, len(s.man.LiveRuns), unfiltered)
	}

	// A run said to start after a game it holds is found.
	run := s.man.LiveRuns[0]
	s.man.RunFrom[run]++
	defer func() { s.man.RunFrom[run]-- }()
	if rep, err = s.Check(); err != nil {
		t.Fatal(err)
	}
	if rep.BadRunStarts != 1 || len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0], "reindex --positions") {
		t.Fatalf("check after moving run %d's first game up: %d bad run starts, problems %q", run, rep.BadRunStarts, rep.Problems)
	}
}

// TestFirstImportLeavesLevelZero: a large import into an empty store
// leaves its tables in level 0, where its memtables put them, unless
// level 0 nears the bound at which Badger compacts it (levelZeroOnly):
// flattening them would only compress them all again. The store answers
// as one that was compacted.
func TestFirstImportLeavesLevelZero(t *testing.T) {
	gs := randomGames(t, 30)
	dir := t.TempDir()
	s, err := Open(dir, Options{RunGames: 8, PromoteAt: 3})
	if err != nil {
		t.Fatal(err)
	}
	importGames(t, s, gs)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, db := range []*badger.DB{s.db, s.gdb} {
		levels := db.Levels()
		if levels[0].NumTables == 0 {
			t.Errorf("%s: no table in level 0 after the first import", db.Opts().Dir)
		}
		for _, l := range levels[1:] {
			if l.NumTables > 0 {
				t.Errorf("%s: %d tables in level %d after the first import; want level 0 only", db.Opts().Dir, l.NumTables, l.Level)
			}
		}
	}
	got := answersOf(t, s, gs)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Compact(); err != nil {
		t.Fatal(err)
	}
	sameAnswers(t, "compacted", answersOf(t, s, gs), got)
}
