package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine/enginetest"
)

// readmeTour returns the commands of the README's query tour: the lines of
// the code block after "### A tour of the query language" that start with
// "xqdb", split into arguments as a shell would (single and double quotes).
func readmeTour(t *testing.T) [][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(enginetest.RepoRoot(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, tour, ok := strings.Cut(string(b), "### A tour of the query language")
	if !ok {
		t.Fatal("README has no query tour")
	}
	_, block, _ := strings.Cut(tour, "```sh\n")
	block, _, _ = strings.Cut(block, "```")
	var cmds [][]string
	for _, line := range strings.Split(block, "\n") {
		if i := strings.Index(line, "  #"); i >= 0 {
			line = line[:i]
		}
		if args := shellWords(strings.TrimSpace(line)); len(args) > 1 && args[0] == "xqdb" {
			cmds = append(cmds, args[1:])
		}
	}
	return cmds
}

// shellWords splits a command line as sh does for plain words and quotes.
func shellWords(s string) []string {
	var out []string
	var cur strings.Builder
	in, quote := false, rune(0)
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// TestReadmeTour runs every example of the README's query tour on the
// bundled games: each must succeed and find something (issue 14).
func TestReadmeTour(t *testing.T) {
	db := filepath.Join(t.TempDir(), "demo")
	// The demo under --json (issue 14): each step's command and its own
	// JSON output.
	code, out, stderr := runCLI(t, "demo", "--db", db, "--json")
	var demo demoJSON
	if err := json.Unmarshal([]byte(out), &demo); err != nil || code != exitOK {
		t.Fatalf("demo --json: exit %d, %v: %s", code, err, stderr)
	}
	if demo.DB != db || len(demo.Steps) != 6 {
		t.Fatalf("demo --json: db %q, %d steps", demo.DB, len(demo.Steps))
	}
	for _, st := range demo.Steps {
		var v map[string]any
		if err := json.Unmarshal(st.Output, &v); err != nil || st.Title == "" || !strings.HasPrefix(st.Command, "xqdb ") {
			t.Errorf("demo step %+v: %v", st, err)
		}
	}
	var sum importSummary
	if err := json.Unmarshal(demo.Steps[0].Output, &sum); err != nil || sum.Added == 0 {
		t.Errorf("demo's import step: %s", demo.Steps[0].Output)
	}
	cmds := readmeTour(t)
	if len(cmds) < 8 {
		t.Fatalf("%d examples in the tour", len(cmds))
	}
	for _, args := range cmds {
		for i := range args {
			if args[i] == "xqdb-demo" {
				args[i] = db
			}
		}
		code, out, stderr := runCLI(t, append(args, "--json")...)
		var got map[string]any // games gives a total, tree its games
		if err := json.Unmarshal([]byte(out), &got); err != nil || code != exitOK {
			t.Errorf("xqdb %s: exit %d, %v: %s", strings.Join(args, " "), code, err, stderr)
			continue
		}
		n, _ := got["total"].(float64)
		if g, ok := got["games"].(float64); ok {
			n = g
		}
		if n == 0 {
			t.Errorf("xqdb %s finds nothing", strings.Join(args, " "))
		}
	}
}
