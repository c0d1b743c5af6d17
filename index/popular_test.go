package index

import (
	"cmp"
	"slices"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// TestLookupsReadStatsOfPopularKeysOnly: a tree or a game list reads the
// stats values and heads of a position only when the popular keys (P|
// entries) hold it, one read instead of two a live run (issue 18: trees
// after ten growth imports). The answers are those of a lookup that asks
// every run, at every position of sampled games, over several live runs,
// with heads; and a store whose P| entries are not vouched for (manifest
// PopularKeys unset) is still read run by run.
func TestLookupsReadStatsOfPopularKeysOnly(t *testing.T) {
	defer func(g, m int) { headGames, headMinGames = g, m }(headGames, headMinGames)
	headGames, headMinGames = 3, 4
	gs := randomGames(t, 120)
	s, err := Open(t.TempDir(), Options{RunGames: 15, PromoteAt: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, part := range [][2]int{{0, 60}, {60, 80}, {80, 95}, {95, 110}, {110, 120}} {
		importGames(t, s, gs[part[0]:part[1]])
	}
	if len(s.man.LiveRuns) < 3 || !s.man.PopularKeys || !s.man.Heads {
		t.Fatalf("live runs %v, popular keys %v, heads %v: the test exercises too little", s.man.LiveRuns, s.man.PopularKeys, s.man.Heads)
	}
	type answer struct {
		moves  []MoveStats
		hits   []GameHit
		newest []GameHit
		total  int
		ok     bool
	}
	ask := func(p engine.Position, withGames bool) answer {
		st, err := s.Position(engine.Xiangqi, p, withGames)
		if err != nil {
			t.Fatal(err)
		}
		a := answer{moves: slices.Clone(st.Moves), hits: slices.Clone(st.Games)}
		if a.newest, a.total, a.ok, err = s.NewestGames(engine.Xiangqi, p, 2); err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(a.moves, func(x, y MoveStats) int { return cmp.Compare(x.Code, y.Code) })
		byGid := func(x, y GameHit) int { return cmp.Or(cmp.Compare(x.Gid, y.Gid), cmp.Compare(x.Code, y.Code)) }
		slices.SortFunc(a.hits, byGid)
		slices.SortFunc(a.newest, byGid)
		return a
	}
	var popular engine.Position // a position with stats values
	checked := 0
	for i, g := range gs {
		if i%3 != 0 {
			continue
		}
		p, _ := games.New(engine.Xiangqi, "")
		for ply := 0; ; ply++ {
			for _, withGames := range []bool{false, true} {
				got := ask(p, withGames)
				s.man.PopularKeys = false // every run asked
				want := ask(p, withGames)
				s.man.PopularKeys = true
				if !slices.Equal(got.moves, want.moves) || !slices.Equal(got.hits, want.hits) ||
					!slices.Equal(got.newest, want.newest) || got.total != want.total || got.ok != want.ok {
					t.Fatalf("%s (games %v): with the popular keys %+v, every run asked %+v", p.FEN(), withGames, got, want)
				}
			}
			if popular == nil && ply == 1 {
				popular = p.Clone()
			}
			checked++
			if ply == len(g.Moves) {
				break
			}
			p.Make(g.Moves[ply])
		}
	}
	if checked < 300 {
		t.Fatalf("%d positions checked", checked)
	}
	// The lookup trusts the set: without its p| entry, a popular
	// position's stats values are not read (its tail postings, which
	// hold none of its games, are).
	before := ask(popular, false)
	if len(before.moves) == 0 || before.total < headMinGames {
		t.Fatalf("%s: %d moves, %d games: not a position with stats values and heads", popular.FEN(), len(before.moves), before.total)
	}
	if err := s.gdb.DropPrefix(popularKey(byte(engine.Xiangqi), popular.Key())); err != nil {
		t.Fatal(err)
	}
	if after := ask(popular, false); len(after.moves) != 0 || after.total != 0 {
		t.Fatalf("%s without its p| entry: %d moves, %d games; the lookup read its stats values", popular.FEN(), len(after.moves), after.total)
	}
}
