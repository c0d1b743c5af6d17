package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFile writes text to name in a fresh temporary folder.
func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// importJSON imports paths into db and returns the summary.
func importJSON(t *testing.T, db string, paths ...string) importSummary {
	t.Helper()
	code, out, stderr := runCLI(t, append([]string{"import", "--db", db, "--json"}, paths...)...)
	var sum importSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil || code != exitOK {
		t.Fatalf("import %v: exit %d: %s %s", paths, code, out, stderr)
	}
	return sum
}

// nullMovesPGN holds pgn-extract's test-allownullmoves.pgn game 1 (its
// regression suite, GPL-3.0: a null move as a threat), an odds game
// giving a move, and a Xiangqi game with a null move.
const nullMovesPGN = `[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "1-0"]
[SetUp "1"]
[FEN "1r5k/q4prp/p4NpQ/P1N1p3/8/3B1R2/1PP3PP/7K w - - 0 31"]

31. Rh3 -- 32. Qxh7+ Rxh7 33. Rxh7# 1-0

[White "Odds"]
[Black "B"]
[Result "0-1"]

1. -- e5 2. e4 Nf6 0-1

[Game "Chinese Chess"]
[Red "R"]
[Black "B"]
[Result "*"]

1. 炮二平五 -- 2. 炮五进四 *
`

// TestImportKeepsNullMoves: games with null moves are stored, written
// back with "--", and position search stops at the null move.
func TestImportKeepsNullMoves(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	sum := importJSON(t, db, writeFile(t, "null.pgn", nullMovesPGN))
	if sum.Added != 3 || sum.Rejected != 0 {
		t.Fatalf("import: %+v, want 3 added", sum)
	}
	code, out, _ := runCLI(t, "show", "--db", db, "1")
	if code != exitOK || !strings.Contains(out, "31. Rh3 -- 32. Qxh7+ Rxh7 33. Rxh7#") {
		t.Fatalf("show 1: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "show", "--db", db, "--notation", "iccs", "3")
	if code != exitOK || !strings.Contains(out, "1. h2e2 -- 2. e2e6") {
		t.Fatalf("show 3: exit %d\n%s", code, out)
	}
	// The position before the null move is found; the ones after are not.
	if tr := treeOf(t, "--db", db, "--game", "xiangqi", "--moves", "h2e2"); tr.Games+tr.EndedHere != 1 {
		t.Errorf("before the null move: %+v", tr)
	}
	if tr := treeOf(t, "--db", db, "--fen", "rnbakabnr/9/1c5c1/p1p1C1p1p/9/9/P1P1P1P1P/7C1/9/RNBAKABNR b - - 0 2"); tr.Games+tr.EndedHere != 0 {
		t.Errorf("after the null move: %+v", tr)
	}
	if tr := treeOf(t, "--db", db, "--moves", "e4"); tr.Games+tr.EndedHere != 0 {
		t.Errorf("the odds game after its null move: %+v", tr)
	}
	// The export reads back as the same games.
	exp := filepath.Join(t.TempDir(), "e.pgn")
	if code, _, stderr := runCLI(t, "export", "--db", db, "-o", exp); code != exitOK {
		t.Fatalf("export: %s", stderr)
	}
	if sum := importJSON(t, filepath.Join(t.TempDir(), "db2"), exp); sum.Added != 3 || sum.Rejected != 0 {
		t.Fatalf("re-import of the export: %+v", sum)
	}
}
