package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/index"
)

var (
	dateTagLine    = regexp.MustCompile(`^\[(Event)?Date "(.*)"\]$`)
	pgnTermination = regexp.MustCompile(`^\[Termination "(.*)"\]$`)
	// The Termination values the PGN standard defines (§9.8.1).
	standardTerminations = map[string]bool{"abandoned": true, "adjudication": true, "death": true, "emergency": true,
		"normal": true, "rules infraction": true, "time forfeit": true, "unterminated": true}
	standardDate = regexp.MustCompile(`^([0-9]{4}|\?{4})\.([0-9]{2}|\?\?)\.([0-9]{2}|\?\?)$`)
)

// Export writes what was imported and nothing else: no comments or
// Termination values of xqdb's own unless --annotate asks for them, and
// dates in the standard's form, YYYY.MM.DD with ?? for unknown parts
// (issue 13.15). The CCPD records write dates five ways ("4/17/1996",
// "19960417", "1996年4月17日", "1996-04-17", "").
func TestExportIsFaithful(t *testing.T) {
	db := ccpdDB(t)
	dir := t.TempDir()
	plain, annotated := filepath.Join(dir, "plain.pgn"), filepath.Join(dir, "annotated.pgn")
	if code, _, stderr := runCLI(t, "export", "--db", db, "-o", plain); code != exitOK {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "export", "--db", db, "--annotate", "-o", annotated); code != exitOK {
		t.Fatalf("export --annotate: exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	dates, standard := 0, 0
	for i, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, "{xqdb:") {
			t.Fatalf("line %d: a comment of xqdb's own: %s", i+1, line)
		}
		if m := pgnTermination.FindStringSubmatch(line); m != nil && !standardTerminations[m[1]] {
			t.Fatalf("line %d: a Termination the PGN standard does not define: %s", i+1, line)
		}
		if m := dateTagLine.FindStringSubmatch(line); m != nil {
			dates++
			// A date read without a four-digit year ("999.3.2") would
			// need a guess: it is kept as written.
			if !standardDate.MatchString(m[2]) && index.ParseDate(m[2]) != 0 {
				t.Fatalf("line %d: a date not in the form YYYY.MM.DD: %s", i+1, line)
			}
			if standardDate.MatchString(m[2]) {
				standard++
			}
		}
	}
	// 3,000 games: 2,999 with moves and CCPD's header-only game.
	if dates != 3000 || standard < 2900 { // 65 CCPD dates have two-digit years ("97-9-20")
		t.Fatalf("%d dates (%d in the form YYYY.MM.DD) in 3000 games", dates, standard)
	}
	a, err := os.ReadFile(annotated)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(a), "{xqdb: checkmate") || !strings.Contains(string(a), `[Termination "checkmate"]`) {
		t.Fatalf("export --annotate writes no rulings")
	}
	// The first record's date, "4/17/1996".
	code, out, _ := runCLI(t, "show", "--db", db, "1")
	if code != exitOK || !strings.Contains(out, `[Date "1996.04.17"]`) {
		t.Fatalf("show 1: exit %d, want the date 1996.04.17:\n%s", code, out)
	}
}

// Export says what it wrote: "exported N games to F" on stderr, or a JSON
// summary with --json.
func TestExportSummary(t *testing.T) {
	db := ccpdDB(t)
	out := filepath.Join(t.TempDir(), "e.pgn")
	tr := treeOf(t, "--db", db, "--moves", "h2e2 h9g7")
	want := tr.Games
	code, stdout, stderr := runCLI(t, "export", "--db", db, "--moves", "h2e2 h9g7", "-o", out)
	if line := fmt.Sprintf("exported %d games to %s\n", want, out); code != exitOK || stderr != line || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want stderr %q", code, stdout, stderr, line)
	}
	code, stdout, _ = runCLI(t, "export", "--db", db, "--moves", "h2e2 h9g7", "-o", out, "--json")
	var sum exportSummary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil || code != exitOK || sum.Games != want || sum.Out != out {
		t.Fatalf("exit %d, JSON %q (%v); want %d games to %s", code, stdout, err, want, out)
	}
	// To standard output, the summary still goes to stderr.
	code, stdout, stderr = runCLI(t, "export", "--db", db, "--moves", "h2e2 h9g7")
	if code != exitOK || strings.Count(stdout, "[Event ") != want || stderr != fmt.Sprintf("exported %d games to standard output\n", want) {
		t.Fatalf("exit %d, %d games on stdout, stderr %q", code, strings.Count(stdout, "[Event "), stderr)
	}
}

// Import stores the source file's absolute path, so show and export name
// it wherever they run (issue 13.15).
func TestImportStoresAbsoluteSource(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	name := "pgnmentor-capablanca-fischer.pgn.gz"
	want := fmt.Sprintf(`[XqdbSource "%s#1"]`, fixture(name))
	t.Chdir(filepath.Join(enginetest.RepoRoot(), "testdata"))
	if code, _, stderr := runCLI(t, "import", "--db", db, name); code != exitOK {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	t.Chdir(t.TempDir())
	code, out, _ := runCLI(t, "show", "--db", db, "1")
	if code != exitOK || !strings.Contains(out, want) {
		t.Fatalf("show 1: exit %d, want %s:\n%s", code, want, out)
	}
}
