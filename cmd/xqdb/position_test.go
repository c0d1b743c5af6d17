package main

import (
	"encoding/json"
	"github.com/xqdb/xqdb/query/api"
	"strings"
	"testing"
)

func TestPositionJSON(t *testing.T) {
	code, out, errOut := runCLI(t, "position", "--moves", "h2e2 h9g7", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res api.Position
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("bad JSON: %v", err)
	}
	if res.FEN != "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2" ||
		res.Side != "red" || res.Status != "ongoing" || res.InCheck || len(res.Key) != 16 {
		t.Fatalf("got %+v", res)
	}
	for _, m := range res.LegalMoves {
		for _, f := range []string{"iccs", "wxf", "chinese", "vietnamese"} {
			if m[f] == "" {
				t.Fatalf("legal move %v lacks %s", m, f)
			}
		}
	}
}

func TestPositionBadMoveNamesToken(t *testing.T) {
	code, _, errOut := runCLI(t, "position", "--moves", "h2e2 h9g9")
	// A wrong --moves is a usage error, as in tree and games (issue 14).
	if code != exitUsage || !strings.Contains(errOut, `"h9g9"`) || !strings.Contains(errOut, "own piece") {
		t.Fatalf("exit %d, stderr %q; want exit 2 naming h9g9 and why", code, errOut)
	}
}

func TestPositionCheckmate(t *testing.T) {
	code, out, _ := runCLI(t, "position", "--fen", "4k4/9/9/9/9/9/9/9/4Ar3/2r1K4 w - - 0 1", "--json")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var res api.Position
	_ = json.Unmarshal([]byte(out), &res)
	if res.Status != "checkmate" || !res.InCheck || len(res.LegalMoves) != 0 {
		t.Fatalf("got %+v, want checkmate", res)
	}
}

func TestPositionChess(t *testing.T) {
	code, out, errOut := runCLI(t, "position", "--game", "chess", "--moves", "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		api.Position
		LegalMoves []map[string]string `json:"legal_moves"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Side != "black" || res.Status != "checkmate" || !res.InCheck || len(res.LegalMoves) != 0 {
		t.Fatalf("scholar's mate: %+v", res)
	}
	code, out, _ = runCLI(t, "position", "--game", "chess", "--json")
	if code != exitOK || !strings.Contains(out, `"san":"Nf3","uci":"g1f3"`) || !strings.Contains(out, `"key":"463b96181691fc9c"`) {
		t.Fatalf("start position JSON lacks Nf3/g1f3 or the Polyglot start key: %s", out)
	}
}

func TestPositionReportsFirstDecidedEnd(t *testing.T) {
	fen := "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1"
	moves := "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2"
	for _, tc := range []struct {
		rules, moves, status, result string
		endPly                       int
	}{
		{"asian", moves, "perpetual_chase", "0-1", 9}, // RULES X13: the 3rd occurrence
		{"vn", moves[:44], "ongoing", "*", 0},         // 5 chasing moves: within the allowance
		{"vn", moves, "perpetual_chase", "0-1", 11},   // the 6th chasing move by one piece
	} {
		code, out, stderr := runCLI(t, "position", "--fen", fen, "--moves", tc.moves, "--rules", tc.rules, "--json")
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var res api.Position
		_ = json.Unmarshal([]byte(out), &res)
		if res.Status != tc.status || res.Result != tc.result || res.EndPly != tc.endPly {
			t.Errorf("--rules %s: %s %s at %d, want %s %s at %d", tc.rules, res.Status, res.Result, res.EndPly, tc.status, tc.result, tc.endPly)
		}
	}
	code, out, _ := runCLI(t, "position", "--game", "chess", "--moves", "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8", "--json")
	var res api.Position
	_ = json.Unmarshal([]byte(out), &res)
	if code != exitOK || res.Status != "threefold" || res.Result != "1/2-1/2" || res.EndPly != 8 {
		t.Errorf("chess repetition: %s %s at %d", res.Status, res.Result, res.EndPly)
	}
}
