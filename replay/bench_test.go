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
func BenchmarkReadReplay(b *testing.B) {
	for _, name := range []string{"ccpd-masters-3001.pgn.gz", "pgnmentor-capablanca-fischer.pgn.gz"} {
		b.Run(name, func(b *testing.B) {
			data, err := os.ReadFile(filepath.Join(enginetest.RepoRoot(), "testdata", name))
			if err != nil {
				b.Fatal(err)
			}
			var rp Replayer
			var g Game
			games, plies := 0, 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r := importer.NewReader(bytes.NewReader(data), name)
				r.ReuseRecord = true
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
		})
	}
}
