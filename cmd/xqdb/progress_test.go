package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestProgressPhases: the long commands show their progress through one
// meter (issue 14). --progress never prints nothing; always draws a bar
// that goes on past reading ("import: writing indexes"); auto, when
// stderr is not a terminal, prints plain lines (phase, games, rate) —
// every progressEvery, and at once when a phase begins — or, under
// --json, JSON lines; a bad value is a usage error.
func TestProgressPhases(t *testing.T) {
	defer func(d time.Duration) { progressEvery = d }(progressEvery)
	progressEvery = time.Millisecond
	xq := fixture("ccpd-masters-3001.pgn.gz")
	dir := t.TempDir()
	for _, tt := range []struct {
		name    string
		args    []string
		want    []string // in stderr, in this order
		wantNot []string
	}{
		{"import never", []string{"import", "--progress", "never", "--db", filepath.Join(dir, "never"), xq}, nil, []string{"import:"}},
		{"import auto", []string{"import", "--db", filepath.Join(dir, "auto"), "--run-games", "1000", xq},
			[]string{"import: reading ", " MB (", " games/s", "import: writing indexes, 3001 games"}, nil},
		{"import always", []string{"import", "--progress=always", "--db", filepath.Join(dir, "always"), xq}, []string{"import: reading", "import: writing indexes"}, nil},
		{"clean auto", []string{"clean", "--jobs", "2", xq}, []string{"clean: reading ", " games/s"}, nil},
		{"convert auto", []string{"convert", "-o", filepath.Join(dir, "out.pgn"), xq}, []string{"convert: reading "}, nil},
		{"book build auto", []string{"book", "build", "-o", filepath.Join(dir, "b.obk"), xq}, []string{"book build: reading ", "book build: writing the book"}, nil},
		{"reindex auto", []string{"reindex", "--db", filepath.Join(dir, "auto")}, []string{"reindex: rebuilding the position index", "reindex: rebuilding the metadata index"}, nil},
		{"compact auto", []string{"compact", "--db", filepath.Join(dir, "auto")}, []string{"compact: compacting"}, nil},
		{"delete auto", []string{"delete", "--db", filepath.Join(dir, "auto"), "--query", "date:[1990 TO 1995]"},
			// (the first phase, selecting, shows only if it outlasts a tick)
			// (the metadata keeps deleted games: their attributes leave them out)
			[]string{"delete: removing them from the position index", "delete: removing them from the attributes",
				"delete: removing them from the game records"}, nil},
		{"delete never", []string{"delete", "--progress=never", "--db", filepath.Join(dir, "never"), "1", "2"}, nil, []string{"delete:"}},
		{"delete dry-run", []string{"delete", "--dry-run", "--db", filepath.Join(dir, "never"), "3"}, nil, []string{"removing"}},
	} {
		code, _, stderr := runCLI(t, tt.args...)
		if code != exitOK {
			t.Errorf("%s: exit %d: %.500s", tt.name, code, stderr)
			continue
		}
		rest := stderr
		for _, w := range tt.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("%s: stderr lacks %q (in order):\n%.2000s", tt.name, w, stderr)
				break
			}
			rest = rest[i+len(w):]
		}
		for _, w := range tt.wantNot {
			if strings.Contains(stderr, w) {
				t.Errorf("%s: stderr has %q:\n%.2000s", tt.name, w, stderr)
			}
		}
	}
	// Under --json the lines are JSON, and the summary on stdout is too.
	code, out, stderr := runCLI(t, "import", "--json", "--db", filepath.Join(dir, "json"), xq)
	var sum importSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil || code != exitOK || sum.Added == 0 {
		t.Fatalf("import --json: exit %d, %v: %s", code, err, out)
	}
	phases := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		var l progressLine
		if err := json.Unmarshal([]byte(line), &l); err != nil || l.Progress != "import" {
			t.Fatalf("import --json: stderr line %q is not a progress line (%v)", line, err)
		}
		phases[l.Phase] = true
	}
	if !phases["reading"] || !phases["writing indexes"] {
		t.Errorf("import --json: phases %v", phases)
	}
	if code, _, stderr := runCLI(t, "import", "--progress", "sometimes", "--db", filepath.Join(dir, "bad"), xq); code != exitUsage || !strings.Contains(stderr, `--progress "sometimes"`) {
		t.Errorf("--progress sometimes: exit %d, %q", code, stderr)
	}
}
