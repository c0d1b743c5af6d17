package index

import (
	"cmp"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/engine/games"
)

// randomGames plays n seeded random Xiangqi games that share a few
// openings, so some positions are popular (stats entries) and most are
// not (tail postings).
func randomGames(t *testing.T, n int) []*Game {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 6))
	openings := [][]string{{"h2e2", "h9g7"}, {"h2e2", "b9c7"}, {"b2e2", "h9g7"}, {"c3c4"}}
	var out []*Game
	for i := 0; i < n; i++ {
		g := newGame(t, engine.Result(1+rng.IntN(3)), []Tag{{"Date", "1990.01.01"}}, openings[rng.IntN(len(openings))]...)
		p, _ := games.New(engine.Xiangqi, "")
		for _, m := range g.Moves {
			p.Make(m)
		}
		g.Moves, g.Keys = enginetest.RandomMoves(rng, p, rng.IntN(30), g.Moves, g.Keys)
		out = append(out, g)
	}
	return out
}

// TestMergedRunsAnswerAsOneRun imports the same games in many small runs
// over three imports, so the end of an import merges runs (MaxRuns 2), and
// in one run: every position of every game must have the same move
// statistics and the same games.
func TestMergedRunsAnswerAsOneRun(t *testing.T) {
	gs := randomGames(t, 90)
	build := func(opts Options, imports int) *Store {
		s, err := Open(t.TempDir(), opts)
		if err != nil {
			t.Fatal(err)
		}
		per := (len(gs) + imports - 1) / imports
		for from := 0; from < len(gs); from += per {
			w, err := s.NewWriter()
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range gs[from:min(from+per, len(gs))] {
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
	merged := build(Options{RunGames: 7, PromoteAt: 3, MaxRuns: 2}, 3)
	defer merged.Close()
	if n := len(merged.man.LiveRuns); n > 2 {
		t.Fatalf("%d live runs after the imports: no merge happened", n)
	}
	one := build(Options{RunGames: 1000, PromoteAt: 3}, 1)
	defer one.Close()
	if len(one.man.LiveRuns) != 1 {
		t.Fatalf("reference store has %d runs", len(one.man.LiveRuns))
	}

	answer := func(s *Store, p engine.Position) ([]MoveStats, []gameAt) {
		st, err := s.Position(engine.Xiangqi, p, true)
		if err != nil {
			t.Fatal(err)
		}
		return sortedAnswer(st)
	}
	checked, popular := 0, 0
	for _, g := range gs {
		p, _ := games.New(engine.Xiangqi, "")
		for i := 0; ; i++ {
			wantMoves, wantGames := answer(one, p)
			gotMoves, gotGames := answer(merged, p)
			if !slices.Equal(gotMoves, wantMoves) || !slices.Equal(gotGames, wantGames) {
				t.Fatalf("%s: merged runs say %+v %v, one run %+v %v", p.FEN(), gotMoves, gotGames, wantMoves, wantGames)
			}
			// A tree reads no game list: it must count the same games.
			for _, s := range []*Store{one, merged} {
				st, err := s.Position(engine.Xiangqi, p, false)
				if err != nil {
					t.Fatal(err)
				}
				moves := slices.Clone(st.Moves)
				slices.SortFunc(moves, func(a, b MoveStats) int { return cmp.Compare(a.Code, b.Code) })
				if !slices.Equal(moves, wantMoves) {
					t.Fatalf("%s: the tree says %+v, the game list %+v", p.FEN(), moves, wantMoves)
				}
			}
			if len(wantGames) >= 3 {
				popular++
			}
			checked++
			if i == len(g.Moves) {
				break
			}
			p.Make(g.Moves[i])
		}
	}
	if popular == 0 || checked < 500 {
		t.Fatalf("%d positions checked, %d popular: the test does not exercise stats entries", checked, popular)
	}
}

// TestCleanPendingReadsNamedRunsOnly: a merge's commit names the runs it
// replaced as garbage, and the clean-up deletes those runs' values and the
// uncommitted run's only, without walking the rest of the position index
// (whose dead values, until Badger compacts them away, made that walk
// the largest part of a merge at a million games). A stop after the
// commit leaves the garbage named, and the next open deletes it; a store
// whose merged runs an older xqdb left unnamed (Pending set to the live
// merged run) gets the full walk.
func TestCleanPendingReadsNamedRunsOnly(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{RunGames: 5, PromoteAt: 3, MaxRuns: 100})
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range randomGames(t, 15) { // three runs: fewer than a tier merges
		if _, err := w.Add(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	old := slices.Clone(s.man.LiveRuns)
	if len(old) != 3 {
		t.Fatalf("%d runs, want 3", len(old))
	}
	// A value of a run that is neither live nor named: the clean-up after
	// a merge must not even read it.
	stray := statsKey(byte(engine.Xiangqi), 999, 42)
	set := func(k []byte) {
		b := s.newBatch()
		defer b.Cancel()
		if err := b.Set(k, []byte{1}); err != nil {
			t.Fatal(err)
		}
		if err := b.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	has := func(k []byte) bool {
		err := s.viewRuns(func(txn *view) error { _, err := txn.Get(k); return err })
		if err != nil && !errors.Is(err, badger.ErrKeyNotFound) {
			t.Fatal(err)
		}
		return err == nil
	}
	runKeys := func(run uint32) int {
		n := 0
		s.viewRuns(func(txn *view) error {
			for _, kind := range []byte{prefixStats, prefixTail} {
				it := txn.NewIterator(badger.IteratorOptions{Prefix: runPrefix(kind, byte(engine.Xiangqi), run)})
				for it.Rewind(); it.Valid(); it.Next() {
					n++
				}
				it.Close()
			}
			return nil
		})
		return n
	}
	set(stray)
	if err := s.mergeRuns(old[1:]); err != nil {
		t.Fatal(err)
	}
	for _, r := range old[1:] {
		if n := runKeys(r); n > 0 {
			t.Errorf("merged run %d keeps %d values", r, n)
		}
	}
	if runKeys(old[0]) == 0 || !has(stray) || len(s.man.Garbage) > 0 || s.man.Pending != 0 {
		t.Fatalf("after the merge: run %d has values %v, stray value kept %v, garbage %v, pending %d",
			old[0], runKeys(old[0]) > 0, has(stray), s.man.Garbage, s.man.Pending)
	}

	// Stopped after a merge's commit, or a merge that left its garbage to
	// the next imports: the garbage is named, an open keeps it, and its
	// deletion deletes it only.
	dead := statsKey(byte(engine.Xiangqi), 998, 7)
	set(dead)
	if err := s.updateManifest(func(m *manifest) { m.Garbage = []uint32{998} }); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	if !has(dead) || !slices.Equal(s.man.Garbage, []uint32{998}) {
		t.Fatalf("after reopening: named garbage kept %v, garbage %v", has(dead), s.man.Garbage)
	}
	if err := s.dropGarbageRuns(); err != nil {
		t.Fatal(err)
	}
	if has(dead) || !has(stray) || len(s.man.Garbage) > 0 {
		t.Fatalf("after deleting the garbage: named garbage kept %v, stray value kept %v, garbage %v", has(dead), has(stray), s.man.Garbage)
	}

	// An older xqdb's merge, committed but not cleaned: every run that is
	// not live goes.
	live := s.man.LiveRuns[len(s.man.LiveRuns)-1]
	if err := s.updateManifest(func(m *manifest) { m.Pending = live }); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if has(stray) || s.man.Pending != 0 || runKeys(live) == 0 {
		t.Fatalf("after an older xqdb's merge: stray value kept %v, pending %d, live run has values %v", has(stray), s.man.Pending, runKeys(live) > 0)
	}
}

// TestMergedAwayRunsLeaveNoFolder: each run's values live in a folder of
// their own (runstore.go), and the merge that replaces runs removes their
// folders once it commits, writing nothing for their values (in one
// Badger, a tombstone each, which later compactions carried down over
// every dead value: issue 18). Folders a crash left, of runs named as
// garbage or of a run never committed, go at the next writable open.
// Answers never see them.
func TestMergedAwayRunsLeaveNoFolder(t *testing.T) {
	gs := randomGames(t, 140)
	dir := t.TempDir()
	opts := Options{RunGames: 5, PromoteAt: 3}
	s, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { s.Close() }()
	folders := func() []uint32 {
		t.Helper()
		f, err := s.runFolders()
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	named := func() []uint32 { return slices.Sorted(slices.Values(s.man.LiveRuns)) }
	checkAnswers := func(when string) {
		t.Helper()
		st, err := s.Position(engine.Xiangqi, position(t), false)
		if err != nil || int(totalGames(st.Moves)) != s.Games() {
			t.Fatalf("%s: start position: %d games (%v), want %d", when, totalGames(st.Moves), err, s.Games())
		}
	}
	importGames(t, s, gs[:100]) // large: merges whole
	if len(s.man.Garbage) > 0 || !slices.Equal(folders(), named()) {
		t.Fatalf("after a large import: garbage %v, folders %v, live runs %v", s.man.Garbage, folders(), s.man.LiveRuns)
	}
	live := slices.Clone(s.man.LiveRuns)
	importGames(t, s, gs[100:120]) // four runs of five games: one tier, merged
	if len(s.man.Garbage) > 0 || len(s.man.LiveRuns) != len(live)+1 || !slices.Equal(folders(), named()) {
		t.Fatalf("after a small import that merged: live runs %v (before %v), garbage %v, folders %v; want the four new runs merged into one, no other folder",
			s.man.LiveRuns, live, s.man.Garbage, folders())
	}
	checkAnswers("merged")

	// A crash after a merge's commit, before its sources' folders went,
	// and one while a run was written.
	for _, run := range []uint32{998, 999} {
		b := s.newBatch()
		if err := b.Set(statsKey(byte(engine.Xiangqi), run, 7), []byte{1}); err != nil {
			t.Fatal(err)
		}
		if err := b.Flush(); err != nil {
			t.Fatal(err)
		}
		b.Cancel()
	}
	if err := s.updateManifest(func(m *manifest) { m.Garbage, m.Pending = []uint32{998}, 999 }); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(dir, Options{ReadOnly: true}); err != nil {
		t.Fatal(err)
	}
	checkAnswers("read-only, beside the crash's folders")
	if !slices.Contains(folders(), 998) || !slices.Contains(folders(), 999) {
		t.Fatalf("a read-only open removed folders: %v", folders())
	}
	s.Close()
	if s, err = Open(dir, opts); err != nil {
		t.Fatal(err)
	}
	if len(s.man.Garbage) > 0 || s.man.Pending != 0 || !slices.Equal(folders(), named()) {
		t.Fatalf("after a writable open: garbage %v, pending %d, folders %v, live runs %v", s.man.Garbage, s.man.Pending, folders(), s.man.LiveRuns)
	}
	checkAnswers("reopened")
	importGames(t, s, gs[120:])
	if err := s.Compact(); err != nil {
		t.Fatal(err)
	}
	if len(s.man.LiveRuns) != 1 || !slices.Equal(folders(), named()) {
		t.Fatalf("after Compact: live runs %v, folders %v", s.man.LiveRuns, folders())
	}
	checkAnswers("compacted")
}
