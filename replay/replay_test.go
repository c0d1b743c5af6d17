package replay

import (
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/engine/movetext"
	"github.com/xqdb/xqdb/engine/xiangqi"
	"github.com/xqdb/xqdb/importer"
)

func readAll(t testing.TB, r *importer.Reader) []*importer.Record {
	t.Helper()
	var out []*importer.Record
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return out
		}
		if rec == nil {
			t.Fatalf("read: %v", err)
		}
		out = append(out, rec)
	}
}

func replayText(t *testing.T, text string, rp Replayer) (*Game, error) {
	t.Helper()
	recs := readAll(t, importer.NewReader(strings.NewReader(text), "t.pgn"))
	if len(recs) != 1 {
		t.Fatalf("%d records in %q", len(recs), text)
	}
	var g Game
	err := rp.Replay(recs[0], &g)
	return &g, err
}

func TestReplay(t *testing.T) {
	tests := []struct {
		name     string
		pgn      string
		rp       Replayer
		plies    int
		notation engine.Notation
		kind     string // "" when valid
		ply      int
		move     string
	}{
		{name: "chinese", pgn: "[Game \"Chinese Chess\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\n", plies: 4, notation: engine.Chinese},
		// One parser reads both scripts; the game is told Chinese.
		{name: "traditional", pgn: "[Game \"Chinese Chess\"]\n\n1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ *\n", plies: 4, notation: engine.Chinese},
		{name: "iccs", pgn: "[Red \"A\"]\n\n1. h2e2 h9g7 2. h0g2 *\n", plies: 3, notation: engine.ICCS},
		{name: "wxf", pgn: "[Game \"Chinese Chess\"]\n\n1. C2.5 H8+7 2. H2+3 R9.8 *\n", plies: 4, notation: engine.WXF},
		{name: "vietnamese", pgn: "[Game \"Chinese Chess\"]\n\n1. P2-5 M8.7 2. M2.3 X9-8 *\n", plies: 4, notation: engine.Vietnamese},
		{name: "chess", pgn: "[White \"A\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1/2-1/2\n", plies: 6},
		{name: "illegal", pgn: "[Game \"Chinese Chess\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一进二 车８进七 *\n",
			kind: "illegal", ply: 6, move: "车８进七", plies: 5},
		{name: "chess illegal", pgn: "[White \"A\"]\n\n1. e4 e5 2. Ke3 *\n", kind: "illegal", ply: 3, move: "Ke3", plies: 2},
		{name: "unreadable", pgn: "[White \"A\"]\n\n1. e4 Zz9 *\n", kind: "parse", ply: 2, move: "Zz9", plies: 1},
		{name: "bad fen", pgn: "[Game \"Chinese Chess\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1\"]\n\n1. h2e2 *\n", kind: "bad_fen"},
		{name: "empty", pgn: "[Game \"Chinese Chess\"]\n[Result \"*\"]\n\n*\n", kind: "empty"},
		{name: "coordinates, no tags: the game whose rules they fit", pgn: "1. g1f3 e7e5 *\n", plies: 2},
		{name: "coordinates of neither game", pgn: "1. a1a1 *\n", kind: "parse"},
		{name: "variant", pgn: "[Variant \"Crazyhouse\"]\n\n1. e4 e5 *\n", kind: "parse"},
		{name: "black first (X1: not flipped)", pgn: "[Game \"Chinese Chess\"]\n\n1. h7e7 *\n", kind: "illegal", ply: 1, move: "h7e7"},
		{name: "black to move by FEN", pgn: "[Game \"Chinese Chess\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\"]\n\n1. 炮８平５ *\n", plies: 1},
		{name: "forced notation", pgn: "[Game \"Chinese Chess\"]\n\n1. P2-5 *\n", rp: Replayer{Notation: engine.WXF}, kind: "illegal", ply: 1, move: "P2-5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := replayText(t, tt.pgn, tt.rp)
			if tt.kind == "" {
				if err != nil {
					t.Fatalf("replay: %v", err)
				}
				if tt.notation != engine.Auto && g.Notation != tt.notation {
					t.Errorf("notation %v, want %v", g.Notation, tt.notation)
				}
			} else {
				var ge *GameError
				if !errors.As(err, &ge) {
					t.Fatalf("err = %v, want a GameError of kind %s", err, tt.kind)
				}
				if Kind(err) != tt.kind || ge.Ply != tt.ply || ge.Move != tt.move || ge.File != "t.pgn" || ge.Game != 1 {
					t.Fatalf("got %s at ply %d %q (%v), want %s at ply %d %q", Kind(err), ge.Ply, ge.Move, ge, tt.kind, tt.ply, tt.move)
				}
			}
			if len(g.Moves) != tt.plies || tt.kind == "" && len(g.Keys) != len(g.Moves)+1 {
				t.Fatalf("%d moves, %d keys; want %d moves", len(g.Moves), len(g.Keys), tt.plies)
			}
		})
	}
}

func TestReplayStatusAndResult(t *testing.T) {
	g, err := replayText(t, "[White \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n", Replayer{})
	if err != nil || g.Status != engine.Checkmate || g.Result != engine.FirstWins || g.Game != engine.Chess {
		t.Fatalf("scholar's mate: status %v result %v game %v err %v", g.Status, g.Result, g.Game, err)
	}
}

// TestReplayCCPD replays the bundled CCPD master games: all legal but one
// record without moves (CCPD's "empty game", id 4039) and record 21,856 of
// the full set, whose ply 70 is illegal (testdata/SOURCES.md).
func TestReplayCCPD(t *testing.T) {
	r, err := importer.Open(filepath.Join(enginetest.RepoRoot(), "testdata", "ccpd-masters-3001.pgn.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.ReuseRecord = true
	var rp Replayer
	var g Game
	valid, plies := 0, 0
	var bad []string
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := rp.Replay(rec, &g); err != nil {
			var ge *GameError
			errors.As(err, &ge)
			bad = append(bad, Kind(err)+" "+ge.Move)
			continue
		}
		valid++
		plies += len(g.Moves)
	}
	if valid != 2999 || len(bad) != 2 || bad[0] != "empty " || bad[1] != "illegal 士６進５" {
		t.Fatalf("%d valid, rejected %v; want 2999 valid, one empty and the illegal 士６進５", valid, bad)
	}
	if plies < 200_000 {
		t.Fatalf("only %d plies", plies)
	}
}

func FuzzReplay(f *testing.F) {
	for _, s := range []string{
		"[Game \"Chinese Chess\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 *\n",
		"[White \"A\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n",
		"1. h2e2 h9g7 *",
		"[FEN \"4k4/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 1\"]\n\n1. 将5平4 *",
		"1. P2-5 M8.7 2. M2.3 X9-8",
		"[White \"A\"]\n\n1. e4 -- 2. -- Z0 3. d4 0000 *\n",
		"[Game \"Chinese Chess\"]\n\n1. 炮二平五 -- 2. 炮五进四 *\n",
		"[White \"A\"]\n\n{c} 1. e4! (1. d4 {x} d5 (1... Nf6 2. Ke3) $2) e5 ; l\n2. -- (2. Nf3 -- 3. Bc4) *\n",
		"[Game \"Chinese Chess\"]\n\n1. 炮二平五 {中炮} (1. 马二进三 (1. 相三进五) 卒７进１) 马８进７！ *\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := importer.NewReader(strings.NewReader(s), "fuzz.pgn")
		var rp Replayer
		var g Game
		for i := 0; i < 100; i++ {
			rec, err := r.Next()
			if err == io.EOF || rec == nil && err != nil && !errors.As(err, new(*importer.ParseError)) {
				return
			}
			if rec == nil {
				continue
			}
			if err := rp.Replay(rec, &g); err == nil && len(g.Keys) != len(g.Moves)+1 {
				t.Fatalf("%d keys for %d moves", len(g.Keys), len(g.Moves))
			} else if err == nil {
				checkNotes(t, g.Moves, g.Notes)
				for _, e := range g.VariationErrors {
					if !e.Variation || e.Ply < 1 {
						t.Fatalf("variation error %+v", e)
					}
				}
			}
		}
	})
}

// checkNotes checks what index relies on: notes in order within their
// line, variations after a move and not empty.
func checkNotes(t *testing.T, moves []engine.Move, notes []movetext.Note) {
	t.Helper()
	at := 0
	for _, n := range notes {
		if n.At < at || n.At > len(moves) {
			t.Fatalf("note at %d after %d, line of %d moves", n.At, at, len(moves))
		}
		at = n.At
		if n.Kind == movetext.Variation {
			if n.At == 0 || n.Line == nil || len(n.Line.Moves) == 0 && len(n.Line.Notes) == 0 {
				t.Fatalf("variation %+v", n)
			}
			checkNotes(t, n.Line.Moves, n.Line.Notes)
		}
	}
}

func asianRules() xiangqi.Rules { return xiangqi.Rules{Profile: xiangqi.Asian} }
