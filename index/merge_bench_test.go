package index

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/engine/games"
)

// randomChessGames plays n seeded games of random legal chess moves (30 to
// 90 plies), as bench/scale.sh's corpus: nearly every position distinct.
func randomChessGames(n int, seed uint64) []*Game {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	gs := make([]*Game, 0, n)
	for range n {
		g := &Game{Record: Record{Game: engine.Chess, Result: engine.Result(1 + rng.IntN(3))}}
		p, _ := games.New(engine.Chess, "")
		g.Moves, g.Keys = enginetest.RandomMoves(rng, p, 30+rng.IntN(60), nil, []uint64{p.Key()})
		gs = append(gs, g)
	}
	return gs
}

// BenchmarkMergeRuns times a tier merge per game merged (issue 18: the
// growth imports that merge four runs of their tier pay it): four runs of
// random chess games (three of 3,000 and one of 100, like the third growth
// import's 10,000 × 3 and 100), merged into a new run's folder, the
// merged runs' folders removed and the store closed. Each iteration
// merges a fresh copy of the store. Besides wall time, it reports CPU
// time per game (cpu-µs/game), the steadier figure on a shared machine.
func BenchmarkMergeRuns(b *testing.B) {
	const runGames = 3000
	gs := randomChessGames(3*runGames+100, 11)
	src := filepath.Join(b.TempDir(), "src")
	s, err := Open(src, Options{RunGames: runGames})
	if err != nil {
		b.Fatal(err)
	}
	importGames(b, s, gs)
	runs := append([]uint32(nil), s.man.LiveRuns...)
	if len(runs) != 4 {
		b.Fatalf("%d runs, want 4 unmerged", len(runs))
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	{
		b.Run("whole", func(b *testing.B) {
			cpu := time.Duration(0) // the process's, Badger's goroutines included
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				dir := filepath.Join(b.TempDir(), "db")
				if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
					b.Fatal(err)
				}
				s, err := Open(dir, Options{})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				c0 := cpuTime()
				if err := s.mergeRuns(runs); err != nil {
					b.Fatal(err)
				}
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
				cpu += cpuTime() - c0
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(gs)), "µs/game")
			// CPU time swells less than wall time when the machine is shared.
			b.ReportMetric(float64(cpu.Microseconds())/float64(b.N*len(gs)), "cpu-µs/game")
		})
	}
}

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
