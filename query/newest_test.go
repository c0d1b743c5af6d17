package query

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/index"
	"github.com/xqdb/xqdb/index/indextest"
)

// everyGame hides a store's NewestGames: its game lists take today's path,
// every game of the position sorted.
type everyGame struct{ index.DB }

// randomDatedGames are n random Xiangqi games after one of a few
// openings, dated from a handful of dates (many games share one; some
// give only a year, some no date).
func randomDatedGames(t *testing.T, n int, seed uint64) []*index.Game {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	openings := [][]string{{"h2e2", "h9g7"}, {"h2e2", "b9c7"}, {"c3c4"}}
	dates := []string{"1990.01.01", "2005.06.??", "", "2012.03.04", "2005.??.??", "1990.01.01", "2024.11.30"}
	var out []*index.Game
	for range n {
		p, ms, keys := play(t, openings[rng.IntN(len(openings))]...)
		ms, keys = enginetest.RandomMoves(rng, p, rng.IntN(20), ms, keys)
		rec := index.Record{Game: engine.Xiangqi, Moves: ms, Result: engine.Result(1 + rng.IntN(3))}
		if d := dates[rng.IntN(len(dates))]; d != "" {
			rec.Tags = []index.Tag{{Name: "Date", Value: d}}
		}
		out = append(out, &index.Game{Record: rec, Keys: keys})
	}
	return out
}

// TestNewestFirstAsEveryGame: a game list's first pages answered from the
// heads of the large stats values are the pages of today's path, which
// sorts every game of the position: at every position of sampled games,
// for first and later pages, both date orders, with --mirror and with a
// query, after one large import, after imports of games newer and older
// than the stored ones, and after a deletion of the newest games.
func TestNewestFirstAsEveryGame(t *testing.T) {
	s, err := index.Open(t.TempDir(), index.Options{RunGames: 2000, PromoteAt: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	add := func(gs []*index.Game) { indextest.Import(t, s, gs) }
	reqs := []ListRequest{
		{Limit: 20}, {Limit: 20, Offset: 20}, {Limit: 20, Offset: 80}, {Limit: 20, Offset: 90},
		{Limit: 1, Sort: ByDateDesc}, {Limit: 20, Sort: ByDate},
		{Limit: 20, Options: Options{Mirror: true}}, {Limit: 5, Options: Options{Query: "date:>=2005"}},
	}
	sample := randomDatedGames(t, 12, 99)
	check := func(stage string) {
		t.Helper()
		start, _ := games.New(engine.Xiangqi, "")
		if _, total, ok, err := s.NewestGames(engine.Xiangqi, start, 20); err != nil || !ok || total < 1024 {
			t.Fatalf("%s: the start position's list did not come from its heads (%d games, %v, %v)", stage, total, ok, err)
		}
		positions := 0
		for _, g := range sample {
			p, _ := games.New(engine.Xiangqi, "")
			for ply := 0; ply <= len(g.Moves); ply++ {
				positions++
				for _, req := range reqs {
					req.Position = p
					got, err := Games(s, req)
					if err != nil {
						t.Fatal(err)
					}
					want, err := Games(everyGame{s}, req)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s, %s, %+v: %d games %v, want %d games %v", stage, p.FEN(), req, got.Total, gids(got), want.Total, gids(want))
					}
				}
				if ply < len(g.Moves) {
					p.Make(g.Moves[ply])
				}
			}
		}
		if positions < 50 {
			t.Fatalf("%s: %d positions", stage, positions)
		}
	}
	add(randomDatedGames(t, 1100, 1))
	check("one import")
	add(randomDatedGames(t, 80, 2))
	add(randomDatedGames(t, 80, 3))
	add(sample)
	check("three more imports")
	// The newest games of the start position go.
	first, err := Games(s, ListRequest{Position: func() engine.Position { p, _ := games.New(engine.Xiangqi, ""); return p }(), Limit: 30})
	if err != nil {
		t.Fatal(err)
	}
	var del []uint32
	for _, r := range first.Games[:25] {
		del = append(del, r.Record.ID)
	}
	if err := s.Delete(del); err != nil {
		t.Fatal(err)
	}
	check("after deleting the newest games")
}

func gids(l *GameList) []uint32 {
	var out []uint32
	for _, r := range l.Games {
		out = append(out, r.Record.ID)
	}
	return out
}
