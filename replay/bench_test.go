package replay

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/importer"
)

// BenchmarkReadReplay reads and replays (with adjudication) the bundled
// real games: the per-game cost of clean and import before the output.
// It reports games/s, plies/s and allocations per game.
//
// The mainline and import variants read as import did before it kept
// comments and variations (the main line only) and as it reads now (all
// but move numbers, header-only games kept, moves ranked): for games
// without annotations they must cost the same.
func BenchmarkReadReplay(b *testing.B) {
	for _, name := range []string{"ccpd-masters-3001.pgn.gz", "pgnmentor-capablanca-fischer.pgn.gz"} {
		b.Run(name, func(b *testing.B) { benchReadReplay(b, name, Replayer{}, nil) })
		b.Run(name+"/mainline", func(b *testing.B) {
			benchReadReplay(b, name, Replayer{Ranks: true}, func(r *importer.Reader) { r.MainLineOnly = true })
		})
		b.Run(name+"/import", func(b *testing.B) {
			benchReadReplay(b, name, Replayer{Ranks: true, KeepEmpty: true}, func(r *importer.Reader) { r.NoMoveNumbers = true })
		})
	}
}

// BenchmarkReplayReferee compares replay with and without adjudication on
// the same records (read once, outside the timer). RULES X13–X16 and C5
// must cost at most a quarter of replay's time.
func BenchmarkReplayReferee(b *testing.B) {
	for _, name := range []string{"ccpd-masters-3001.pgn.gz", "pgnmentor-capablanca-fischer.pgn.gz"} {
		data, err := os.ReadFile(filepath.Join(enginetest.RepoRoot(), "testdata", name))
		if err != nil {
			b.Fatal(err)
		}
		recs := readAll(b, importer.NewReader(bytes.NewReader(data), name))
		for _, mode := range []struct {
			name string
			rp   Replayer
		}{{"plain", Replayer{NoReferee: true}}, {"referee", Replayer{}}} {
			b.Run(name+"/"+mode.name, func(b *testing.B) {
				var g Game
				plies := 0
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					for _, rec := range recs {
						if mode.rp.Replay(rec, &g) == nil {
							plies += len(g.Moves)
						}
					}
				}
				b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "plies/s")
			})
		}
	}
}

func benchReadReplay(b *testing.B, name string, rp Replayer, setup func(*importer.Reader)) {
	data, err := os.ReadFile(filepath.Join(enginetest.RepoRoot(), "testdata", name))
	if err != nil {
		b.Fatal(err)
	}
	var g Game
	games, plies := 0, 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := importer.NewReader(bytes.NewReader(data), name)
		r.ReuseRecord = true
		if setup != nil {
			setup(r)
		}
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if rec != nil && rp.Replay(rec, &g) == nil {
				plies += len(g.Moves)
			}
			games++
		}
	}
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(games)/s, "games/s")
	b.ReportMetric(float64(plies)/s, "plies/s")
}
