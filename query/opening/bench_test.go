package opening_test

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/importer"
	"github.com/xqdb/xqdb/query/opening"
	"github.com/xqdb/xqdb/replay"
)

// replayed reads and replays a bundled archive.
func replayed(b *testing.B, name string) []replay.Game {
	r, err := importer.Open(filepath.Join(enginetest.RepoRoot(), "testdata", name))
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	var rp replay.Replayer
	var out []replay.Game
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			continue
		}
		var g replay.Game
		if rp.Replay(rec, &g) == nil {
			out = append(out, g)
		}
	}
}

// BenchmarkClassifyImport measures what import pays per game: classifying
// a replayed game from its moves and keys (ns/op is per game, over the
// bundled real games).
func BenchmarkClassifyImport(b *testing.B) {
	for _, tc := range []struct{ name, file string }{
		{"chess", "pgnmentor-capablanca-fischer.pgn.gz"},
		{"xiangqi", "ccpd-masters-3001.pgn.gz"},
	} {
		games := replayed(b, tc.file)
		opening.Classify(games[0].Game, "", games[0].Moves, games[0].Keys) // load the table
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				g := &games[i%len(games)]
				opening.Classify(g.Game, g.StartFEN, g.Moves, g.Keys)
				i++
			}
		})
	}
}
