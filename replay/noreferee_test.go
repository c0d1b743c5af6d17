package replay

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/importer"
)

// TestNoRefereeReplaysTheSameGames: without the referee the same records
// replay, to the same moves and keys; only the rulings are left out. A
// move after a mate is still refused (as illegal: no move is legal there).
func TestNoRefereeReplaysTheSameGames(t *testing.T) {
	for _, name := range []string{"ccpd-masters-3001.pgn.gz", "pgnmentor-capablanca-fischer.pgn.gz"} {
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(filepath.Join(enginetest.RepoRoot(), "testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			recs := readAll(t, importer.NewReader(f, name))
			var ref, plain Replayer
			plain.NoReferee = true
			var g, h Game
			valid, ruled := 0, 0
			for i, rec := range recs {
				errRef, errPlain := ref.Replay(rec, &g), plain.Replay(rec, &h)
				if (errRef == nil) != (errPlain == nil) {
					t.Fatalf("record %d: with the referee %v, without %v", i+1, errRef, errPlain)
				}
				if errRef != nil {
					continue
				}
				valid++
				if !slices.Equal(g.Moves, h.Moves) || !slices.Equal(g.Keys, h.Keys) || g.Result != h.Result || g.StartFEN != h.StartFEN {
					t.Fatalf("record %d replays otherwise without the referee", i+1)
				}
				if len(g.Rulings) > 0 {
					ruled++
				}
				if len(h.Rulings) > 0 || h.Termination.Decided() || h.Mismatch != "" {
					t.Fatalf("record %d: rulings without the referee: %+v %+v %q", i+1, h.Rulings, h.Termination, h.Mismatch)
				}
			}
			if valid == 0 || ruled == 0 {
				t.Errorf("%d valid records, %d with rulings: the fixture proves nothing", valid, ruled)
			}
		})
	}
	t.Run("a move after mate", func(t *testing.T) {
		text := "[Event \"t\"]\n\n1. f3 e5 2. g4 Qh4# 3. a3 *\n"
		_, errRef := replayText(t, text, Replayer{})
		_, errPlain := replayText(t, text, Replayer{NoReferee: true})
		if errRef == nil || errPlain == nil || !strings.Contains(errPlain.Error(), "a3") {
			t.Errorf("with the referee %v, without %v: want both refused at a3", errRef, errPlain)
		}
	})
}
