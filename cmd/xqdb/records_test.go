package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/engine/movetext"
	"github.com/xqdb/xqdb/importer"
	"github.com/xqdb/xqdb/index"
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
	sum := importJSON(t, "--db", db, writeFile(t, "null.pgn", nullMovesPGN))
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
	if tr := treeOf(t, "--db", db, "--game", "xiangqi", "--moves", "h2e2"); tr.Games != 1 {
		t.Errorf("before the null move: %+v", tr)
	}
	if tr := treeOf(t, "--db", db, "--fen", "rnbakabnr/9/1c5c1/p1p1C1p1p/9/9/P1P1P1P1P/7C1/9/RNBAKABNR b - - 0 2"); tr.Games != 0 {
		t.Errorf("after the null move: %+v", tr)
	}
	if tr := treeOf(t, "--db", db, "--moves", "e4"); tr.Games != 0 {
		t.Errorf("the odds game after its null move: %+v", tr)
	}
	// The export reads back as the same games.
	exp := filepath.Join(t.TempDir(), "e.pgn")
	if code, _, stderr := runCLI(t, "export", "--db", db, "-o", exp); code != exitOK {
		t.Fatalf("export: %s", stderr)
	}
	if sum := importJSON(t, "--db", filepath.Join(t.TempDir(), "db2"), exp); sum.Added != 3 || sum.Rejected != 0 {
		t.Fatalf("re-import of the export: %+v", sum)
	}
}

// TestImportKeepsHeaderOnlyGames: the 605 games of the FIDE Women's World
// Rapid 2024 broadcast (scalachess's FWWRC.pgn: results, ratings, FIDE
// ids, no moves) are stored as header-only games: games --query finds
// them, show and export write them, position search skips them, a second
// import adds nothing, and clean still reports them as "empty".
func TestImportKeepsHeaderOnlyGames(t *testing.T) {
	src := enginetest.SharedData(t, "chess/scalachess/FWWRC.pgn")
	db := filepath.Join(t.TempDir(), "db")
	sum := importJSON(t, "--db", db, src, fixture("pgnmentor-capablanca-fischer.pgn.gz"))
	if sum.HeaderOnly != 605 || sum.Rejected != 1 {
		t.Fatalf("import: %+v, want 605 header-only games and Gelfand–Gareev rejected", sum)
	}
	if n := countQuery(t, db, `black:"Ju, Wenjun"`); n < 1 {
		t.Errorf("games --query black:\"Ju, Wenjun\": %d games", n)
	}
	if n := countQuery(t, db, `event:"Women’s World Rapid"`); n != 605 {
		t.Errorf("games --query event: %d games, want 605", n)
	}
	// Position search: the start position counts the games with moves only.
	tr := treeOf(t, "--db", db, "--game", "chess")
	if tr.Games != sum.Added-605 {
		t.Errorf("tree of the start: %d games, want %d (the games with moves)", tr.Games, sum.Added-605)
	}
	_, out, _ := runCLI(t, "games", "--db", db, "--query", `white:charkhalashvili black:"Ju, Wenjun"`, "--json")
	var gl gamesJSON
	if err := json.Unmarshal([]byte(out), &gl); err != nil || gl.Total != 1 {
		t.Fatalf("Charkhalashvili–Ju: %s", out)
	}
	code, show, _ := runCLI(t, "show", "--db", db, fmt.Sprint(gl.Games[0].ID))
	if code != exitOK || !strings.Contains(show, `[White "Charkhalashvili, Inga"]`) || !strings.Contains(show, `[BlackFideId "8603006"]`) ||
		!strings.Contains(show, "\n0-1\n") {
		t.Fatalf("show: exit %d\n%s", code, show)
	}
	if again := importJSON(t, "--db", db, src); again.Added != 0 || again.AlreadySaved+again.Duplicates != 605 {
		t.Errorf("second import: %+v, want the 605 already saved", again)
	}
	exp := filepath.Join(t.TempDir(), "e.pgn")
	if code, _, stderr := runCLI(t, "export", "--db", db, "--query", "event:rapid", "-o", exp); code != exitOK {
		t.Fatalf("export: %s", stderr)
	}
	if back := importJSON(t, "--db", filepath.Join(t.TempDir(), "db2"), exp); back.Added != 605 || back.HeaderOnly != 605 {
		t.Errorf("import of the export: %+v", back)
	}
	// clean reports them, as before: kind "empty", counted as rejected.
	rep := filepath.Join(t.TempDir(), "r.jsonl")
	if code, _, stderr := runCLI(t, "clean", "--report", rep, src); code != exitOK {
		t.Fatalf("clean: %s", stderr)
	}
	lines := readReport(t, rep)
	if len(lines) != 605 || lines[0].Kind != "empty" {
		t.Errorf("clean report: %d lines, first %+v; want 605 of kind empty", len(lines), lines[0])
	}
}

// annotatedPGN has every kind of note: a comment before the first move,
// suffix and numeric NAGs, a ";" comment, nested variations, a variation
// holding a null move, and one with an illegal move.
const annotatedPGN = `[Event "Annotated"]
[White "A"]
[Black "B"]
[Result "1-0"]

{A short game.} 1. e4! e5 (1... c5 {Sicilian} 2. Nf3 (2. c3 d5) 2... d6) 2. Nf3 $14 ; the usual
Nc6 (2... d6 3. d4 -- (3... exd4)) (2... Nf6 3. Ke3 Nxe4) 3. Bb5 1-0
`

// TestImportKeepsCommentsAndVariations: an import stores comments, NAGs
// and variations; show writes them back in the PGN export format; an
// illegal move in a variation is reported (kind "variation", with its
// place) and cuts that variation only; the export imports again to the
// same notes.
func TestImportKeepsCommentsAndVariations(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	rep := filepath.Join(t.TempDir(), "r.jsonl")
	code, out, stderr := runCLI(t, "import", "--db", db, "--json", "--report", rep, writeFile(t, "a.pgn", annotatedPGN))
	var sum importSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil || code != exitOK || sum.Added != 1 || sum.VariationErrors != 1 {
		t.Fatalf("import: exit %d %s %s", code, out, stderr)
	}
	lines := readReport(t, rep)
	if len(lines) != 1 || lines[0].Kind != "variation" || lines[0].Ply != 5 || lines[0].Move != "Ke3" || lines[0].Game != 1 ||
		lines[0].Line != 7 || !strings.Contains(lines[0].Reason, "illegal") {
		t.Fatalf("report: %+v", lines)
	}
	want := `{A short game.} 1. e4 $1 e5 (1... c5 {Sicilian} 2. Nf3 (2. c3 d5) 2... d6) 2.
Nf3 $14 {the usual} 2... Nc6 (2... d6 3. d4 -- (3... exd4)) (2... Nf6) 3. Bb5
1-0`
	show := func(db string) string {
		t.Helper()
		code, out, _ := runCLI(t, "show", "--db", db, "1")
		if code != exitOK {
			t.Fatalf("show: exit %d", code)
		}
		i := strings.Index(out, "\n\n")
		return strings.TrimSpace(out[i:])
	}
	if got := show(db); got != want {
		t.Fatalf("show:\n%s\nwant:\n%s", got, want)
	}
	exp := filepath.Join(t.TempDir(), "e.pgn")
	if code, _, stderr := runCLI(t, "export", "--db", db, "-o", exp); code != exitOK {
		t.Fatalf("export: %s", stderr)
	}
	db2 := filepath.Join(t.TempDir(), "db2")
	if sum := importJSON(t, "--db", db2, exp); sum.Added != 1 || sum.VariationErrors != 0 {
		t.Fatalf("import of the export: %+v", sum)
	}
	if got := show(db2); got != want {
		t.Fatalf("show after export and import:\n%s\nwant:\n%s", got, want)
	}
}

// countNotes counts the variations and comments of a line, nested ones
// included.
func countNotes(notes []movetext.Note) (variations, comments int) {
	for _, n := range notes {
		switch n.Kind {
		case movetext.Variation:
			v, c := countNotes(n.Line.Notes)
			variations, comments = variations+1+v, comments+c
		case movetext.Comment:
			comments++
		}
	}
	return variations, comments
}

// TestImportKeepsXiangqiVariations: XQF's variation tree and comments
// (eleeye's XQFEXAMB.XQF, the "七星聚会" ancient endgame) and DhtmlXQ's
// branches (vschess's 仙人指路全集, 1,446 branches) are stored; the one
// DhtmlXQ branch with an illegal move (ply 65, e2g4 exposes the general)
// is cut there and reported, and the game is kept.
func TestImportKeepsXiangqiVariations(t *testing.T) {
	xqf := enginetest.SharedData(t, "xiangqi/samples/eleeye-xqftools/XQFEXAMB.XQF")
	dx := enginetest.SharedData(t, "xiangqi/samples/vschess-dhtmlxq/dhtmlxq.txt.gz")
	db := filepath.Join(t.TempDir(), "db")
	rep := filepath.Join(t.TempDir(), "r.jsonl")
	if code, _, stderr := runCLI(t, "import", "--db", db, "--report", rep, xqf, dx); code != exitOK {
		t.Fatalf("import: %s", stderr)
	}
	lines := readReport(t, rep)
	if len(lines) != 1 || lines[0].Kind != "variation" || lines[0].Ply != 65 || lines[0].Move != "e2g4" || lines[0].Line != 1517 {
		t.Fatalf("report: %+v", lines)
	}
	s, err := index.Open(db, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for id, path := range map[uint32]string{1: xqf, 2: dx} {
		// What the reader found: every variation and comment is kept.
		ir, err := importer.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := ir.Next()
		ir.Close()
		if err != nil {
			t.Fatal(err)
		}
		var wantV, wantC int
		for _, e := range rec.Elements {
			switch e.Kind {
			case importer.VariationStart:
				wantV++
			case importer.Comment:
				wantC++
			}
		}
		r, err := s.Game(id)
		if err != nil {
			t.Fatal(err)
		}
		v, c := countNotes(r.Notes)
		if v != wantV || c != wantC || v < 19 {
			t.Errorf("game %d (%s): %d variations, %d comments; the reader found %d and %d", id, r.Source.File, v, c, wantV, wantC)
		}
	}
	_, out, _ := runCLI(t, "show", "--db", db, "1")
	if !strings.Contains(out, "七星古局") || !strings.Contains(out, "(") {
		t.Errorf("show 1 lacks the comments or variations:\n%s", out)
	}
}
