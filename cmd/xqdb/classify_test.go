package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine/enginetest"
)

const classifyInput = `[Event "wrong tag"]
[White "A"]
[Black "B"]
[Result "1-0"]
[ECO "A00"]
[Opening "Wrong"]
[Variation "Wrong too"]

1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be2 e5 1-0

[Event "illegal"]
[Result "*"]

1. e4 e5 2. Ke3 *

[Game "Chinese Chess"]
[Event "xiangqi"]
[Red "R"]
[Black "B"]
[Result "1/2-1/2"]
[ECCO "A00"]

1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. g3g4 c6c5 5. b0a2 c9e7 6. b2b6 g6g5 7. g4g5 e7g5 8. g2f4 d9e8 9. b6i6 h7h2 10. a0b0 a9b9 1/2-1/2
`

// TestClassifyWritesTags: classify replaces a game's opening tags with
// its classification (ECO in chess, ECCO in Xiangqi, Opening, Variation
// when the code has one), keeps the rest of the game, and writes a record
// that does not replay back unchanged.
func TestClassifyWritesTags(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.pgn")
	if err := os.WriteFile(in, []byte(classifyInput), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI(t, "classify", in)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"[ECO \"B92\"]\n[Opening \"Sicilian Defense: Najdorf Variation, Opocensky Variation\"]\n",
		"1. e4 c5 2. Nf3 d6",
		"[Event \"illegal\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *",
		"[ECCO \"C95\"]\n[Opening \"五八炮互进三兵对屏风马\"]\n[Variation \"红左边马对黑兑７卒\"]\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, gone := range []string{"Wrong", `[ECCO "A00"]`} {
		if strings.Contains(out, gone) {
			t.Errorf("output keeps %q", gone)
		}
	}
	if !strings.Contains(stderr, "classified 2 of 3 games (1 not replayed)") {
		t.Errorf("stderr: %s", stderr)
	}
	outFile := filepath.Join(dir, "out.jsonl")
	if code, _, stderr := runCLI(t, "classify", "--json", "-o", outFile, in); code != exitOK {
		t.Fatalf("--json: exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(outFile)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], `"opening":"B92"`) || !strings.Contains(lines[1], `"error"`) || !strings.Contains(lines[2], `"opening":"C95"`) {
		t.Errorf("--json:\n%s", b)
	}
}

// ecoPGN writes lichess's table (the one xqdb embeds) as the PGN ECO file
// pgn-extract -e reads: one game per line, with ECO and Opening tags.
func ecoPGN(t *testing.T, path string) {
	f, err := os.Open(filepath.Join(enginetest.RepoRoot(), "query/opening/eco.tsv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) != 3 || fs[0] == "eco" {
			continue
		}
		fmt.Fprintf(&b, "[ECO %q]\n[Opening %q]\n\n%s *\n\n", fs[0], fs[1], fs[2])
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestClassifyAgreesWithPgnExtract classifies real master games (a sample
// of the pgnmentor files) with xqdb and with pgn-extract -e given the same
// lichess table: issue 15 asks that the codes agree on at least 97% of the
// games. They agree on 99.88% of the whole corpus; README "Openings" says
// why the rest differ (pgn-extract matches boards whatever the side to
// move, and stops looking 6 plies past its longest line).
func TestClassifyAgreesWithPgnExtract(t *testing.T) {
	pe := enginetest.FindEngine(t, "pgn-extract")
	src := enginetest.SharedData(t, "chess/pgnmentor-players")
	files, _ := filepath.Glob(filepath.Join(src, "*.pgn.gz"))
	dir := t.TempDir()
	var all bytes.Buffer
	for i, f := range files {
		if i%8 != 0 { // a sample: every eighth player
			continue
		}
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(fh)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := all.ReadFrom(zr); err != nil {
			t.Fatal(err)
		}
		fh.Close()
		all.WriteString("\n")
	}
	in := filepath.Join(dir, "games.pgn")
	if err := os.WriteFile(in, all.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	eco := filepath.Join(dir, "eco.pgn")
	ecoPGN(t, eco)
	peOut := filepath.Join(dir, "pe.pgn")
	cmd := exec.Command(pe, "-e"+eco, "-s", "-o", peOut, in)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pgn-extract: %v: %s", err, msg)
	}
	b, err := os.ReadFile(peOut)
	if err != nil {
		t.Fatal(err)
	}
	// pgn-extract writes each game's tags with its ECO tag; games it
	// rejects (illegal moves) it leaves out, as xqdb's --json marks them.
	var theirs []string
	ecoTag := regexp.MustCompile(`^\[ECO "(.*)"\]`)
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "[Event ") {
			theirs = append(theirs, "")
		}
		if m := ecoTag.FindStringSubmatch(line); m != nil && len(theirs) > 0 {
			theirs[len(theirs)-1] = m[1]
		}
	}
	code, out, stderr := runCLI(t, "classify", "--json", in)
	if code != exitOK {
		t.Fatalf("classify: exit %d: %s", code, stderr)
	}
	var ours []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var l classifyJSON
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		if l.Error == "" {
			ours = append(ours, l.Opening)
		}
	}
	if len(ours) != len(theirs) || len(ours) < 10000 {
		t.Fatalf("xqdb classified %d games, pgn-extract %d", len(ours), len(theirs))
	}
	same := 0
	for i := range ours {
		if ours[i] == theirs[i] {
			same++
		}
	}
	pct := 100 * float64(same) / float64(len(ours))
	t.Logf("%d games: the same ECO code in %d (%.2f%%)", len(ours), same, pct)
	if pct < 99.5 { // issue 15 asks ≥ 97%; the whole corpus measures 99.88%
		t.Errorf("agreement %.2f%%, want ≥ 99.5%%", pct)
	}
}

// TestImportStoresOpening: import indexes each game's classification as
// opening and opening_name (wildcards work) in place of a disagreeing
// tag, which the record keeps; games and tree show the opening.
func TestImportStoresOpening(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.pgn")
	if err := os.WriteFile(in, []byte(classifyInput), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "db")
	if code, _, stderr := runCLI(t, "import", "--db", db, in); code != exitOK {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	for _, tc := range []struct {
		query string
		want  int
	}{
		{"opening:B9*", 1}, {"opening:B92", 1}, {"opening:A00", 0}, {"opening_name:najdorf", 1}, {"opening_name:wrong", 0},
		{"opening:C9*", 1}, {"opening_name:屏风马", 1}, {"najdorf", 1},
	} {
		code, out, stderr := runCLI(t, "games", "--db", db, "--json", "--query", tc.query)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", tc.query, code, stderr)
		}
		var got gamesJSON
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		if got.Total != tc.want {
			t.Errorf("--query %s: %d games, want %d", tc.query, got.Total, tc.want)
		}
		if tc.query == "opening:B9*" && len(got.Games) == 1 {
			if g := got.Games[0]; g.Opening != "B92" || g.OpeningName != "Sicilian Defense: Najdorf Variation, Opocensky Variation" {
				t.Errorf("games shows %s %q", g.Opening, g.OpeningName)
			}
			if _, show, _ := runCLI(t, "show", "--db", db, fmt.Sprint(got.Games[0].ID)); !strings.Contains(show, `[ECO "A00"]`) {
				t.Errorf("the record lost its own ECO tag:\n%s", show)
			}
		}
	}
	for _, tc := range []struct{ args, opening string }{
		{"--game chess --moves e4,c5,Nf3,d6,d4,cxd4,Nxd4,Nf6,Nc3,a6", "B90"},
		{"--game chess --moves Nf3,d5,d4", "D02"},
		{"--game xiangqi --moves h2e2,h9g7,h0g2,i9h9,i0h0,b9c7,g3g4,c6c5,b0a2,c9e7,b2b6,g6g5,g4g5,e7g5,g2f4,d9e8,b6i6,h7h2,a0b0,a9b9", "C95"},
		{"--game xiangqi", ""},
	} {
		args := append([]string{"tree", "--db", db, "--json"}, strings.Fields(tc.args)...)
		for i, a := range args {
			args[i] = strings.ReplaceAll(a, ",", " ")
		}
		code, out, stderr := runCLI(t, args...)
		if code != exitOK {
			t.Fatalf("tree %s: exit %d: %s", tc.args, code, stderr)
		}
		var got treeJSON
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		if got.Opening != tc.opening {
			t.Errorf("tree %s: opening %q, want %q", tc.args, got.Opening, tc.opening)
		}
	}
}

func TestClassifyRefusesToOverwriteItsInput(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in.pgn")
	if err := os.WriteFile(in, []byte(classifyInput), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := runCLI(t, "classify", "-o", in, in); code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	if b, _ := os.ReadFile(in); string(b) != classifyInput {
		t.Error("the input changed")
	}
}
