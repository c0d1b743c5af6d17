package query

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/index"
	"github.com/xqdb/xqdb/index/indextest"
)

// BenchmarkFirstPage times the first page (20 games, newest first) of the
// start position's game list, which every game reached, on a store built
// by a large import and four small ones: from the heads of the large
// stats values, and as every game of the position sorted (issue 18: an
// opening position's first page at a million games took 0.5 s).
func BenchmarkFirstPage(b *testing.B) {
	const n = 40_000
	rng := rand.New(rand.NewPCG(5, 6))
	var gs []*index.Game
	for range n {
		p, _ := games.New(engine.Chess, "")
		g := &index.Game{Record: index.Record{Game: engine.Chess, Result: engine.Result(1 + rng.IntN(3)),
			Tags: []index.Tag{{Name: "Date", Value: fmt.Sprintf("%d.01.01", 1950+rng.IntN(75))}}}}
		g.Moves, g.Keys = enginetest.RandomMoves(rng, p, 6+rng.IntN(6), nil, []uint64{p.Key()})
		gs = append(gs, g)
	}
	s, err := index.Open(b.TempDir(), index.Options{RunGames: n})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for _, part := range [][2]int{{0, n * 4 / 5}, {n * 4 / 5, n * 17 / 20}, {n * 17 / 20, n * 9 / 10}, {n * 9 / 10, n * 19 / 20}, {n * 19 / 20, n}} {
		indextest.Import(b, s, gs[part[0]:part[1]])
	}
	start, _ := games.New(engine.Chess, "")
	req := ListRequest{Position: start, Limit: 20}
	for _, db := range []struct {
		name string
		db   index.DB
	}{{"heads", s}, {"every game", everyGame{s}}} {
		b.Run(db.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				l, err := Games(db.db, req)
				if err != nil || l.Total != s.Games() || len(l.Games) != 20 {
					b.Fatalf("%v: %d games, %d listed", err, l.Total, len(l.Games))
				}
			}
		})
	}
}
