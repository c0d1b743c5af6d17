package index

import (
	"math/rand/v2"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// BenchmarkPositionLookup times a tree's lookup (Position without the game
// list) at positions sampled from the stored games, on a store of random
// games built by a large import and then small ones (issue 18: trees on a
// grown database). It reports allocations, as every hot path does.
func BenchmarkPositionLookup(b *testing.B) {
	gs := randomChessGames(6000, 3)
	dir := b.TempDir()
	s, err := Open(dir, Options{RunGames: 2000})
	if err != nil {
		b.Fatal(err)
	}
	for _, part := range [][2]int{{0, 4000}, {4000, 4500}, {4500, 5000}, {5000, 5500}, {5500, 6000}} {
		w, err := s.NewWriter()
		if err != nil {
			b.Fatal(err)
		}
		for _, g := range gs[part[0]:part[1]] {
			if _, err := w.Add(g); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	// Lookups on the store opened read-only, as tree and games open it:
	// the writer's last memtable is then in a table, not in a skip list
	// every point read searches first.
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	if s, err = Open(dir, Options{ReadOnly: true}); err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	rng := rand.New(rand.NewPCG(5, 6))
	var positions []engine.Position
	for i := 0; i < 256; i++ {
		g := gs[rng.IntN(len(gs))]
		p, _ := games.New(engine.Chess, "")
		for _, m := range g.Moves[:rng.IntN(len(g.Moves)+1)] {
			p.Make(m)
		}
		positions = append(positions, p)
	}
	// With the heads of the large stats values (head.go) and without:
	// a head spares the start position's tree its whole stats value, and
	// costs every other lookup a point read per run that finds nothing.
	for _, heads := range []bool{false, true} {
		b.Run(map[bool]string{true: "heads", false: "stats values"}[heads], func(b *testing.B) {
			s.man.Heads = heads
			defer func() { s.man.Heads = true }()
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				st, err := s.Position(engine.Chess, positions[i%len(positions)], false)
				if err != nil || len(st.Moves) == 0 {
					b.Fatalf("lookup: %v, %d moves", err, len(st.Moves))
				}
			}
		})
	}
}
