package replay

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/importer"
)

// gamesOf replays a file and returns its valid games' hashes with their
// rulings.
func gamesOf(t *testing.T, path string, rp Replayer) map[[16]byte][]engine.Ruling {
	t.Helper()
	r, err := importer.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	out := map[[16]byte][]engine.Ruling{}
	for _, rec := range readAll(t, r) {
		var g Game
		if err := rp.Replay(rec, &g); err != nil {
			continue
		}
		out[Hash(&g)] = append([]engine.Ruling(nil), g.Rulings...)
	}
	return out
}

// TestChessDrawRulesMatchPGNExtract checks RULES C5 against pgn-extract's
// own regression suite: the games its --repetition, --fifty and
// --seventyfive options select from their test files are exactly those in
// which our referee makes the matching ruling (and --checkmate,
// --stalemate likewise).
func TestChessDrawRulesMatchPGNExtract(t *testing.T) {
	dir := enginetest.SharedData(t, "chess/pgn-extract")
	for _, tc := range []struct {
		name     string
		statuses []engine.Status
		atEnd    bool // the status must be the game's termination
	}{
		{"repetition", []engine.Status{engine.Repetition, engine.Fivefold}, false},
		{"fifty", []engine.Status{engine.FiftyMoves, engine.SeventyFiveMoves}, false},
		{"seventyfive", []engine.Status{engine.SeventyFiveMoves}, false},
		{"checkmate", []engine.Status{engine.Checkmate}, true},
		{"stalemate", []engine.Status{engine.Stalemate}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := gamesOf(t, filepath.Join(dir, "infiles", "test-"+tc.name+".pgn"), Replayer{})
			want := gamesOf(t, filepath.Join(dir, "outfiles", "test-"+tc.name+"-out.pgn"), Replayer{})
			if len(in) == 0 || len(want) == 0 {
				t.Fatalf("%d input games, %d selected by pgn-extract", len(in), len(want))
			}
			for h, rulings := range in {
				got := false
				for i, r := range rulings {
					for _, st := range tc.statuses {
						if r.Status == st && (!tc.atEnd || i == len(rulings)-1) {
							got = true
						}
					}
				}
				if _, sel := want[h]; sel != got {
					t.Errorf("game with rulings %v: we say %v, pgn-extract %v", rulings, got, sel)
				}
			}
		})
	}
}

func TestAfterEndAndResultMismatch(t *testing.T) {
	mate := "[White \"A\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# Ke7 0-1\n"
	_, err := replayText(t, mate, Replayer{})
	if Kind(err) != "after_end" || !strings.Contains(err.Error(), "checkmate") {
		t.Fatalf("move after mate: %v", err)
	}
	wrong := "[White \"A\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 0-1\n"
	g, err := replayText(t, wrong, Replayer{})
	if err != nil || g.Mismatch == "" || g.Termination.Status != engine.Checkmate || g.Termination.Result != engine.FirstWins {
		t.Fatalf("mate recorded as 0-1: err %v, mismatch %q, termination %v", err, g.Mismatch, g.Termination)
	}
	if _, err := replayText(t, wrong, Replayer{StrictResults: true}); Kind(err) != "result_mismatch" {
		t.Fatalf("strict results: %v", err)
	}
	// A claimable draw does not contradict a decisive result.
	rep := "[White \"A\"]\n[Result \"1-0\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1-0\n"
	g, err = replayText(t, rep, Replayer{})
	if err != nil || g.Termination.Status != engine.Repetition || g.Mismatch != "" {
		t.Fatalf("threefold with 1-0: err %v, termination %v, mismatch %q", err, g.Termination, g.Mismatch)
	}
	// Xiangqi: a perpetual chase at the last ply decides the game.
	xq := "[Game \"Chinese Chess\"]\n[FEN \"2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1\"]\n[Result \"1/2-1/2\"]\n\n" +
		"1. c2a2 a7b7 2. a2b2 b7a7 3. b2a2 a7b7 4. a2b2 b7a7 5. b2a2 1/2-1/2\n"
	g, err = replayText(t, xq, Replayer{Rules: asianRules()})
	if err != nil || g.Termination.Status != engine.PerpetualChase || g.Termination.Result != engine.SecondWins || g.Mismatch == "" {
		t.Fatalf("perpetual chase: err %v, termination %v, mismatch %q", err, g.Termination, g.Mismatch)
	}
}

// TestResultMismatchMatchesPGNExtractFixes checks RULES X17 against
// pgn-extract's --fixresulttags oracle: every game of its test file has a
// Result tag that contradicts a mate or stalemate, and the result our
// referee gives is the one pgn-extract writes in its place.
func TestResultMismatchMatchesPGNExtractFixes(t *testing.T) {
	dir := enginetest.SharedData(t, "chess/pgn-extract")
	read := func(name string) []*Game {
		r, err := importer.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		var out []*Game
		for _, rec := range readAll(t, r) {
			var g Game
			if err := (&Replayer{}).Replay(rec, &g); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			out = append(out, &g)
		}
		return out
	}
	in, fixed := read("infiles/test-fixresulttags-in.pgn"), read("outfiles/test-fixresulttags-out.pgn")
	if len(in) != 5 || len(fixed) != len(in) {
		t.Fatalf("%d games in, %d fixed", len(in), len(fixed))
	}
	for i, g := range in {
		if g.Mismatch == "" || g.Termination.Result != fixed[i].Result || fixed[i].Mismatch != "" {
			t.Errorf("game %d: mismatch %q, our result %v, pgn-extract's %v", i+1, g.Mismatch, g.Termination.Result, fixed[i].Result)
		}
	}
}
