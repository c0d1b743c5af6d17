package index

import (
	"cmp"
	"errors"
	"math"
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

	type gameAt struct {
		gid  uint32
		code uint16
	}
	answer := func(s *Store, p engine.Position) ([]MoveStats, []gameAt) {
		st, err := s.Position(engine.Xiangqi, p, true)
		if err != nil {
			t.Fatal(err)
		}
		moves := slices.Clone(st.Moves)
		slices.SortFunc(moves, func(a, b MoveStats) int { return cmp.Compare(a.Code, b.Code) })
		var hits []gameAt
		for _, h := range st.Games {
			hits = append(hits, gameAt{h.Gid, h.Code})
		}
		slices.SortFunc(hits, func(a, b gameAt) int { return cmp.Or(cmp.Compare(a.gid, b.gid), cmp.Compare(a.code, b.code)) })
		return moves, hits
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
		if err := s.db.Update(func(txn *badger.Txn) error { return txn.Set(k, []byte{1}) }); err != nil {
			t.Fatal(err)
		}
	}
	has := func(k []byte) bool {
		err := s.db.View(func(txn *badger.Txn) error { _, err := txn.Get(k); return err })
		if err != nil && !errors.Is(err, badger.ErrKeyNotFound) {
			t.Fatal(err)
		}
		return err == nil
	}
	runKeys := func(run uint32) int {
		n := 0
		s.db.View(func(txn *badger.Txn) error {
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
	if err := s.dropGarbageRuns(math.MaxInt); err != nil {
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

// TestMergeLeavesGarbageToNextImports: the tier merge at the end of a
// small import commits and leaves the values of the runs it replaced,
// named as garbage, to the next imports (their tombstones were a third to
// a half of the merge's cost, all on that one import; issue 18), which
// delete a bounded amount of it each before they merge. Answers never see
// them, an open leaves them, and Compact deletes them all. A large import,
// which compacts the store into one level, deletes them at once.
func TestMergeLeavesGarbageToNextImports(t *testing.T) {
	gs := randomGames(t, 140)
	dir := t.TempDir()
	s, err := Open(dir, Options{RunGames: 5, PromoteAt: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { s.Close() }()
	importGames(t, s, gs[:100]) // large: merges and deletes at once
	if len(s.man.Garbage) > 0 {
		t.Fatalf("a large import left garbage %v", s.man.Garbage)
	}
	runValues := func(runs []uint32) int {
		n := 0
		s.db.View(func(txn *badger.Txn) error {
			for _, r := range runs {
				for _, kind := range runKinds {
					it := txn.NewIterator(badger.IteratorOptions{Prefix: runPrefix(kind, byte(engine.Xiangqi), r)})
					for it.Rewind(); it.Valid(); it.Next() {
						n++
					}
					it.Close()
				}
			}
			return nil
		})
		return n
	}
	checkAnswers := func(when string) {
		t.Helper()
		st, err := s.Position(engine.Xiangqi, position(t), false)
		if err != nil || int(totalGames(st.Moves)) != s.Games() {
			t.Fatalf("%s: start position: %d games (%v), want %d", when, totalGames(st.Moves), err, s.Games())
		}
	}
	live := slices.Clone(s.man.LiveRuns)
	importGames(t, s, gs[100:120]) // four runs of five games: one tier, merged
	garbage := slices.Clone(s.man.Garbage)
	if len(garbage) != 4 || runValues(garbage) == 0 || slices.ContainsFunc(garbage, s.man.live) || !slices.Equal(s.man.LiveRuns[:len(live)], live) {
		t.Fatalf("after a small import that merged: live runs %v (before %v), garbage %v with %d values; want the four new runs merged and left as garbage",
			s.man.LiveRuns, live, garbage, runValues(garbage))
	}
	checkAnswers("garbage left")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(dir, Options{RunGames: 5, PromoteAt: 3}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.man.Garbage, garbage) || runValues(garbage) == 0 {
		t.Fatalf("an open deleted garbage: %v left of %v, %d values", s.man.Garbage, garbage, runValues(garbage))
	}
	checkAnswers("reopened")
	importGames(t, s, gs[120:]) // deletes the garbage (within its budget), merges, leaves its own
	if runValues(garbage) > 0 || slices.ContainsFunc(s.man.Garbage, func(r uint32) bool { return slices.Contains(garbage, r) }) {
		t.Fatalf("the next import kept garbage: %v named, %d values of %v", s.man.Garbage, runValues(garbage), garbage)
	}
	garbage = slices.Clone(s.man.Garbage)
	if len(garbage) == 0 {
		t.Fatal("the third import merged nothing: the test needs a merge")
	}
	checkAnswers("third import")
	if err := s.Compact(); err != nil {
		t.Fatal(err)
	}
	if len(s.man.Garbage) > 0 || runValues(garbage) > 0 {
		t.Fatalf("after Compact: garbage %v, %d values", s.man.Garbage, runValues(garbage))
	}
	checkAnswers("compacted")
}

// TestGarbageBudget: an import deletes garbage in proportion to what it
// adds, and all of it once the garbage passes a quarter of the store.
func TestGarbageBudget(t *testing.T) {
	m := manifest{Garbage: []uint32{7, 8}, RunGames: map[uint32]uint32{7: 10_000, 8: 10_000, 9: 1_000_000}}
	for _, tc := range []struct {
		name          string
		added, stored int
		m             manifest
		want          int
	}{
		{"a 10,000-game import", 10_000, 1_000_000, m, 15_000},
		{"100 games", 100, 1_000_000, m, 2000},
		{"garbage past a quarter", 100, 60_000, m, math.MaxInt},
		{"no garbage", 100, 10, manifest{}, 2000},
	} {
		if got := garbageBudget(tc.added, tc.stored, &tc.m); got != tc.want {
			t.Errorf("%s: budget %d, want %d", tc.name, got, tc.want)
		}
	}
}
