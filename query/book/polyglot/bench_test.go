package polyglot_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/importer"
	"github.com/xqdb/xqdb/query/book/polyglot"
	"github.com/xqdb/xqdb/replay"
)

// benchGame is one replayed game of the benchmark's fixture.
type benchGame struct {
	fen    string
	moves  []engine.Move
	keys   []uint64
	result engine.Result
}

func benchFixture(b testing.TB) []byte {
	data, err := os.ReadFile(filepath.Join(enginetest.RepoRoot(), "testdata", "pgnmentor-capablanca-fischer.pgn.gz"))
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// readReplay reads and replays the fixture as book build does (main line
// only, no referee), handing each legal game to f.
func readReplay(b testing.TB, data []byte, f func(g *replay.Game)) {
	r := importer.NewReader(bytes.NewReader(data), "fixture.pgn.gz")
	r.ReuseRecord, r.MainLineOnly = true, true
	rp := replay.Replayer{Game: engine.Chess, NoReferee: true}
	var g replay.Game
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return
		}
		if err == nil && rec != nil && rp.Replay(rec, &g) == nil {
			f(&g)
		}
	}
}

// BenchmarkBuild measures the parts of book build on the bundled
// Capablanca and Fischer games (1,424 legal games, make-book's options),
// each on one goroutine: reading and replaying the PGN, encoding the
// plies (key, book move, score), and counting them into the book's
// entries (the Builder: appending, bucketing, counting, sorting). The
// counting runs over the games repeated 64 times (7.4 M plies), so that
// its buckets and tables have the sizes of a real corpus's. Beside the
// wall time each part reports its CPU time a ply (all threads): the
// machine is often shared. bench/book.sh times the whole command against
// polyglot make-book.
func BenchmarkBuild(b *testing.B) {
	data := benchFixture(b)
	var games []benchGame
	readReplay(b, data, func(g *replay.Game) {
		games = append(games, benchGame{g.StartFEN, slices.Clone(g.Moves), slices.Clone(g.Keys), g.Result})
	})
	plies := 0
	for _, g := range games {
		plies += len(g.moves)
	}
	opt := polyglot.Options{MinGame: 3, MaxPly: 1024, Compat: true}
	b.Run("read-replay", func(b *testing.B) {
		b.ReportAllocs()
		c0 := cpuTime()
		for range b.N {
			readReplay(b, data, func(*replay.Game) {})
		}
		reportPlies(b, plies*b.N, c0)
	})
	enc := polyglot.NewEncoder(opt)
	encoded := make([][]polyglot.Ply, len(games))
	encode := func(b *testing.B) {
		for i, g := range games {
			var err error
			if encoded[i], err = enc.Append(encoded[i][:0], g.fen, g.moves, g.keys, g.result); err != nil {
				b.Fatal(err)
			}
		}
	}
	encode(b)
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		c0 := cpuTime()
		for range b.N {
			encode(b)
		}
		reportPlies(b, plies*b.N, c0)
	})
	const copies = 64
	b.Run("count", func(b *testing.B) {
		b.ReportAllocs()
		c0 := cpuTime()
		for range b.N {
			pb := polyglot.NewBuilder(opt)
			pb.SizeHint(copies * plies)
			for range copies {
				for _, ps := range encoded {
					pb.Add(ps)
				}
			}
			if len(pb.Entries()) == 0 {
				b.Fatal("no entries")
			}
		}
		reportPlies(b, copies*plies*b.N, c0)
	})
}

// reportPlies reports plies a second of wall time and CPU nanoseconds a
// ply (all threads, since c0) when the CPU time is known.
func reportPlies(b *testing.B, plies int, c0 time.Duration) {
	b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "plies/s")
	if c := cpuTime() - c0; c > 0 {
		b.ReportMetric(float64(c.Nanoseconds())/float64(plies), "cpu-ns/ply")
	}
}
