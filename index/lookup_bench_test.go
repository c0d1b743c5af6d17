package index

import (
	"expvar"
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
	s = reopenReadOnly(b, s, dir)
	defer s.Close()
	positions := samplePositions(gs, 256)
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

// BenchmarkPositionLookupManyRuns times a tree's lookup on a store of
// eight live runs, MaxRuns, as ten growth imports leave a million-game
// store (issue 18: trees as fast after them as before, within 20%). Run
// sizes fall tier by tier, so no merge joins them. It reports the table
// seeks of a lookup, each a Badger block decoded (Badger's own count):
// the work each live run adds, without this machine's noise. "every run
// asked" reads each run's stats value and head, as lookups did before the
// popular keys answered for all runs.
func BenchmarkPositionLookupManyRuns(b *testing.B) {
	sizes := []int{4100, 1100, 1100, 300, 300, 70, 70, 20}
	total := 0
	for _, n := range sizes {
		total += n
	}
	gs := randomChessGames(total, 7)
	dir := b.TempDir()
	s, err := Open(dir, Options{RunGames: 5000})
	if err != nil {
		b.Fatal(err)
	}
	next := 0
	for _, n := range sizes {
		importGames(b, s, gs[next:next+n])
		next += n
	}
	if got := len(s.man.LiveRuns); got != len(sizes) {
		b.Fatalf("%d live runs, want %d", got, len(sizes))
	}
	s = reopenReadOnly(b, s, dir)
	defer s.Close()
	positions := samplePositions(gs, 256)
	seeks := func() int64 {
		var n int64
		expvar.Get("badger_get_num_lsm").(*expvar.Map).Do(func(kv expvar.KeyValue) { n += kv.Value.(*expvar.Int).Value() })
		return n
	}
	for _, popular := range []bool{true, false} {
		b.Run(map[bool]string{true: "popular keys", false: "every run asked"}[popular], func(b *testing.B) {
			s.man.PopularKeys = popular
			defer func() { s.man.PopularKeys = true }()
			b.ReportAllocs()
			n, before := 0, seeks()
			for i := 0; b.Loop(); i++ {
				st, err := s.Position(engine.Chess, positions[i%len(positions)], false)
				if err != nil || len(st.Moves) == 0 {
					b.Fatalf("lookup: %v, %d moves", err, len(st.Moves))
				}
				n++
			}
			b.ReportMetric(float64(seeks()-before)/float64(n), "seeks/op")
		})
	}
}

// samplePositions returns n positions reached by games gs, at random
// plies (the same ones every run).
func samplePositions(gs []*Game, n int) []engine.Position {
	rng := rand.New(rand.NewPCG(5, 6))
	var positions []engine.Position
	for range n {
		g := gs[rng.IntN(len(gs))]
		p, _ := games.New(engine.Chess, "")
		for _, m := range g.Moves[:rng.IntN(len(g.Moves)+1)] {
			p.Make(m)
		}
		positions = append(positions, p)
	}
	return positions
}

// reopenReadOnly closes s and opens the store in dir read-only, as tree
// and games open it.
func reopenReadOnly(b *testing.B, s *Store, dir string) *Store {
	b.Helper()
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	s, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	return s
}
