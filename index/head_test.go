package index

import (
	"cmp"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// withHeadSizes makes heads small for a test: values of min games or
// more get one, listing the n newest.
func withHeadSizes(t *testing.T, min, n int) {
	oldMin, oldN := headMinGames, headGames
	headMinGames, headGames = min, n
	t.Cleanup(func() { headMinGames, headGames = oldMin, oldN })
}

// datedGames are randomGames with dates drawn from a few, so that many
// games share a date, some have only a year or a month, and some none.
func datedGames(t *testing.T, n int) []*Game {
	rng := rand.New(rand.NewPCG(7, 8))
	dates := []string{"1990.01.01", "1990.01.01", "2005.06.??", "", "2012.03.04", "2005.??.??", "1990.01.01"}
	gs := randomGames(t, n)
	for _, g := range gs {
		g.Tags = nil
		if d := dates[rng.IntN(len(dates))]; d != "" {
			g.Tags = []Tag{{"Date", d}}
		}
	}
	return gs
}

// checkHeads fails unless every live stats value of headMinGames games or
// more has the head it should have and no other value of a live run has
// one (xqdb check's test of them, itself tested by TestCheckFindsBadHeads);
// it returns how many heads there are.
func checkHeads(t *testing.T, s *Store) int {
	t.Helper()
	if !s.man.Heads {
		t.Fatal("the manifest does not vouch for the heads")
	}
	var rep CheckReport
	if err := s.checkHeads(&rep); err != nil {
		t.Fatal(err)
	}
	if rep.BadHeads > 0 {
		t.Fatalf("%d heads disagree with their stats values or have none", rep.BadHeads)
	}
	heads := 0
	err := s.viewRuns(func(txn *view) error {
		return txn.eachRunKey(prefixHead, func(it *badger.Iterator) error {
			if s.man.live(runOf(it.Item().Key())) {
				heads++
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return heads
}

// TestHeadOfListsTheNewest: a head lists a stats value's newest games,
// in the order of a game list sorted by date, newest first (ties by
// gid, undated games last), its count, first game and aggregates.
func TestHeadOfListsTheNewest(t *testing.T) {
	withHeadSizes(t, 3, 7)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{2, 3, 7, 8, 15, 200} {
		dates := map[uint32]uint32{}
		var v statsValue
		gid := uint32(0)
		for range n {
			gid += 1 + uint32(rng.IntN(3))
			dates[gid] = []uint32{0, 19900101, 19900100, 20120304, 20120304}[rng.IntN(5)]
			v.add(gid, uint16(rng.IntN(3)), Attrs{Date: dates[gid]})
		}
		h := headOf(&v, func(g uint32) uint32 { return dates[g] })
		if n < 3 {
			if h != nil {
				t.Errorf("%d games: a head %+v under headMinGames", n, h)
			}
			continue
		}
		want := slices.Clone(v.Games)
		slices.SortFunc(want, func(a, b Posting) int {
			return compareNewest(dates[a.Gid], a.Gid, dates[b.Gid], b.Gid)
		})
		want = want[:min(len(want), 7)]
		if h == nil || !slices.Equal(h.Newest, want) || h.Games != uint32(n) || h.First != v.Games[0] || !slices.Equal(h.Moves, v.Moves) {
			t.Fatalf("%d games: head %+v, want newest %v, first %v", n, h, want, v.Games[0])
		}
		got, err := decodeHead(encodeHead(nil, h), true)
		if err != nil || !reflect.DeepEqual(got, h) {
			t.Fatalf("%d games: decoded %+v, %v; want %+v", n, got, err, h)
		}
		// A tree's read: all but the newest games.
		top, err := decodeHead(encodeHead(nil, h), false)
		want2 := *h
		want2.Newest = nil
		if err != nil || !reflect.DeepEqual(top, &want2) {
			t.Fatalf("%d games: decoded without the newest %+v, %v; want %+v", n, top, err, &want2)
		}
	}
}

// TestRunsTooSmallForHeadsAreNotAsked: a run of fewer games than
// headMinGames cannot hold a head, and readers skip its head reads; a run
// of unknown size may.
func TestRunsTooSmallForHeadsAreNotAsked(t *testing.T) {
	m := &manifest{RunGames: map[uint32]uint32{1: uint32(headMinGames - 1), 2: uint32(headMinGames)}}
	for run, want := range map[uint32]bool{1: false, 2: true, 3: true} {
		if got := m.mayHaveHeads(run); got != want {
			t.Errorf("run %d (%d games): mayHaveHeads %v, want %v", run, m.RunGames[run], got, want)
		}
	}
}

func FuzzDecodeHead(f *testing.F) {
	f.Add(encodeHead(nil, &statsHead{Moves: []MoveStats{{Code: 7, Games: 3}, {Code: EndSlot, Games: 1}}, Games: 4,
		First: Posting{2, 1}, Newest: []Posting{{9, 0}, {2, 1}}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := decodeHead(b, false); err != nil {
			if _, err := decodeHead(b, true); err == nil {
				t.Fatal("a head decodes whole but not without its newest games")
			}
		}
		h, err := decodeHead(b, true)
		if err != nil {
			return
		}
		// A head that decodes names moves it has.
		for _, p := range append(h.Newest, h.First) {
			_ = h.Moves[p.Slot]
		}
	})
}

// TestHeadsMatchStatsValues: the writer's runs, the merges, a deletion,
// the back-fill of a store without heads, and a reindex each leave a head
// beside every live stats value of headMinGames games or more, saying
// what the value says, and none beside the others.
func TestHeadsMatchStatsValues(t *testing.T) {
	withHeadSizes(t, 6, 4)
	gs := datedGames(t, 120)
	s, err := Open(t.TempDir(), Options{RunGames: 10, PromoteAt: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	importGames(t, s, gs[:60])
	for i := 60; i < 100; i += 10 { // small imports: merges by tiers
		importGames(t, s, gs[i:i+10])
	}
	if int(s.man.NextRun)-1 == len(s.man.LiveRuns) {
		t.Fatal("no runs were merged: the test does not exercise merges")
	}
	if n := checkHeads(t, s); n == 0 {
		t.Fatal("no heads: the test exercises nothing")
	}
	// Deleting games rewrites the stats values and their heads; the first
	// games are the start position's newest in several runs.
	if err := s.Delete([]uint32{1, 2, 3, 5, 8, 13, 21, 34, 55, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 89}); err != nil {
		t.Fatal(err)
	}
	checkHeads(t, s)
	// A store whose heads are missing, and one whose heads went stale
	// (an older xqdb deleted games): the next import writes them all.
	if err := s.dropHeads(); err != nil {
		t.Fatal(err)
	}
	if err := s.updateManifest(func(m *manifest) { m.Heads = false }); err != nil {
		t.Fatal(err)
	}
	importGames(t, s, gs[100:110])
	checkHeads(t, s)
	if err := s.ReindexPositions(); err != nil {
		t.Fatal(err)
	}
	checkHeads(t, s)
	importGames(t, s, gs[110:])
	checkHeads(t, s)
}

// TestInterruptedDeleteRewritesHeads: a deletion stopped after a stats
// value was rewritten but before its head was (one write batch is not one
// transaction) is finished by the next writable Open with the heads
// right, though the stats value no longer holds the deleted games.
func TestInterruptedDeleteRewritesHeads(t *testing.T) {
	withHeadSizes(t, 6, 4)
	gs := datedGames(t, 40)
	dir := t.TempDir()
	s, err := Open(dir, Options{RunGames: 20, PromoteAt: 3})
	if err != nil {
		t.Fatal(err)
	}
	importGames(t, s, gs)
	checkHeads(t, s)
	// The heads before the deletion, which an interrupted one leaves.
	var keys, vals [][]byte
	err = s.viewRuns(func(txn *view) error {
		return txn.eachRunKey(prefixHead, func(it *badger.Iterator) error {
			v, err := it.Item().ValueCopy(nil)
			if err != nil {
				return err
			}
			keys, vals = append(keys, it.Item().KeyCopy(nil)), append(vals, v)
			return nil
		})
	})
	if err != nil || len(keys) == 0 {
		t.Fatalf("%d heads: %v", len(keys), err)
	}
	del := []uint32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}
	if err := s.updateManifest(func(m *manifest) { m.Deleting = del }); err != nil {
		t.Fatal(err)
	}
	if err := s.deletePositions(del, func(g uint32) bool { return g <= 18 }, false); err != nil {
		t.Fatal(err)
	}
	wb := s.newBatch()
	for i := range keys {
		if err := wb.Set(keys[i], vals[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := wb.Flush(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = Open(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Games() != len(gs)-len(del) {
		t.Fatalf("%d games after the deletion was finished", s.Games())
	}
	checkHeads(t, s)
}

// newestOrder sorts hits as a game list's default order does: the latest
// date first, games of one date by gid, undated games last.
func newestOrder(s *Store, hits []GameHit) {
	slices.SortFunc(hits, func(a, b GameHit) int {
		return compareNewest(s.Attrs(a.Gid).Date, a.Gid, s.Attrs(b.Gid).Date, b.Gid)
	})
}

// compareNewest is the order of a game list sorted newest first, spelled
// out: undated games last, then the later date first, then the lower gid.
func compareNewest(da, ga, db, gb uint32) int {
	switch {
	case da == 0 && db != 0:
		return 1
	case da != 0 && db == 0:
		return -1
	}
	return cmp.Or(cmp.Compare(db, da), cmp.Compare(ga, gb))
}

// TestNewestGamesAsPosition: at every position of sampled games, through
// imports that add games newer and older than the stored ones, merges
// and a deletion, NewestGames's first n games (newest first) and count
// are Position's, their plies and moves included; it declines only when
// n is past a truncated head's list. Trees read from the heads are the
// trees read from the stats values.
func TestNewestGamesAsPosition(t *testing.T) {
	withHeadSizes(t, 6, 4)
	gs := datedGames(t, 150)
	s, err := Open(t.TempDir(), Options{RunGames: 10, PromoteAt: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fromHeads := 0
	check := func(stage string) {
		t.Helper()
		positions := 0
		for i, g := range gs {
			if i%5 != 0 {
				continue
			}
			p, _ := games.New(engine.Xiangqi, "")
			for ply := 0; ply <= len(g.Moves); ply++ {
				positions++
				want, err := s.Position(engine.Xiangqi, p, true)
				if err != nil {
					t.Fatal(err)
				}
				all := slices.Clone(want.Games)
				newestOrder(s, all)
				for _, n := range []int{1, 2, 4, 5} {
					hits, total, ok, err := s.NewestGames(engine.Xiangqi, p, n)
					if err != nil {
						t.Fatal(err)
					}
					if !ok {
						if n <= headGames {
							t.Fatalf("%s, %s: NewestGames declined %d games", stage, p.FEN(), n)
						}
						continue
					}
					if len(hits) < len(all) {
						fromHeads++
					}
					newestOrder(s, hits)
					if total != len(all) || len(hits) < min(n, len(all)) || !slices.Equal(hits[:min(n, len(all))], all[:min(n, len(all))]) {
						t.Fatalf("%s, %s, n=%d: NewestGames %v (of %d), Position %v", stage, p.FEN(), n, hits, total, all)
					}
				}
				// The tree from the heads.
				tree, err := s.Position(engine.Xiangqi, p, false)
				if err != nil {
					t.Fatal(err)
				}
				s.man.Heads = false
				slow, err := s.Position(engine.Xiangqi, p, false)
				s.man.Heads = true
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(tree, slow) {
					t.Fatalf("%s, %s: tree from the heads %+v, from the stats values %+v", stage, p.FEN(), tree, slow)
				}
				if ply < len(g.Moves) {
					p.Make(g.Moves[ply])
				}
			}
		}
		if positions < 100 {
			t.Fatalf("%s: %d positions checked", stage, positions)
		}
	}
	importGames(t, s, gs[:70])
	check("one import")
	for i := 70; i < 130; i += 10 {
		importGames(t, s, gs[i:i+10])
	}
	check("small imports")
	if err := s.Delete([]uint32{2, 4, 6, 71, 72, 73, 74, 75, 120, 121}); err != nil {
		t.Fatal(err)
	}
	check("after a deletion")
	importGames(t, s, gs[130:])
	check("one more import")
	if fromHeads == 0 {
		t.Fatal("no list came from heads: the test exercises nothing")
	}
}

// TestCheckFindsBadHeads: xqdb check reports a head that disagrees with
// its stats value and one left without a value, and reindex --positions
// repairs them.
func TestCheckFindsBadHeads(t *testing.T) {
	withHeadSizes(t, 6, 4)
	s, err := Open(t.TempDir(), Options{RunGames: 20, PromoteAt: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	importGames(t, s, datedGames(t, 40))
	bad := func() int {
		t.Helper()
		rep, err := s.Check()
		if err != nil {
			t.Fatal(err)
		}
		if (rep.BadHeads > 0) != (len(rep.Problems) > 0) {
			t.Fatalf("%d bad heads, problems %q", rep.BadHeads, rep.Problems)
		}
		return rep.BadHeads
	}
	if n := bad(); n != 0 {
		t.Fatalf("a store just written has %d bad heads", n)
	}
	start, _ := games.New(engine.Xiangqi, "")
	run := s.man.LiveRuns[0]
	var h *statsHead
	err = s.viewRuns(func(txn *view) error {
		var err error
		h, err = readHead(txn, engine.Xiangqi, run, start.Key(), true)
		return err
	})
	if err != nil || h == nil {
		t.Fatalf("no head at the start position: %v", err)
	}
	h.Newest = h.Newest[1:] // stale: a game missing from its newest
	wb := s.newBatch()
	if err := wb.Set(headKey(byte(engine.Xiangqi), run, start.Key()), encodeHead(nil, h)); err != nil {
		t.Fatal(err)
	}
	if err := wb.Set(headKey(byte(engine.Xiangqi), run, start.Key()^1), encodeHead(nil, h)); err != nil { // no value
		t.Fatal(err)
	}
	if err := wb.Flush(); err != nil {
		t.Fatal(err)
	}
	if n := bad(); n != 2 {
		t.Fatalf("%d bad heads found, want 2", n)
	}
	if err := s.ReindexPositions(); err != nil {
		t.Fatal(err)
	}
	if n := bad(); n != 0 {
		t.Fatalf("%d bad heads after reindex --positions", n)
	}
}
