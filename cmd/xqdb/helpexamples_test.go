package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestHelpExamples runs the examples of the help texts that read the
// database or nothing, on a database of the bundled CCPD games (issue 14):
// each must succeed. Examples that need files of the user's (an archive,
// a book, a server) are named here with what they need.
func TestHelpExamples(t *testing.T) {
	db := ccpdDB(t)
	needs := map[string]string{
		"games.pgn": "a PGN file", "archive/": "a folder of archives", "games/": "a folder of archives",
		".bin": "a book", "BOOK.DAT": "a book", "clickhouse://": "a ClickHouse server", "delete": "a database to change",
		"compact": "a database to change", "reindex": "a database to change", "demo": "minutes of import", "selfplay": "minutes of play",
		"book build --db": "a database of chess games",
	}
	out := t.TempDir()
	ran := 0
	eachCommand(func(path string, c *cli.Command) {
		_, ex, ok := strings.Cut(c.Description, "Example:\n")
		if !ok {
			return
		}
	lines:
		for _, line := range strings.Split(ex, "\n") {
			args := shellWords(strings.TrimSpace(line))
			if len(args) < 2 || args[0] != "xqdb" {
				continue
			}
			for k := range needs {
				if strings.Contains(line, k) {
					continue lines
				}
			}
			args = args[1:]
			for i, a := range args {
				if i > 0 && args[i-1] == "-o" {
					args[i] = filepath.Join(out, a) // outputs go to a folder of the test's
				}
				switch a {
				case "42", "4711":
					args[i] = "1"
				case "games.xqdb", "./xqdb-data":
					args[i] = db
				}
			}
			if !strings.Contains(line, "--db") && findCommand(commands(), args[0]) != nil && hasDBFlag(args[0]) {
				args = append(args, "--db", db)
			}
			code, _, stderr := runCLI(t, args...)
			ran++
			if code != exitOK {
				t.Errorf("xqdb %s --help example %q: exit %d: %s", path, strings.TrimSpace(line), code, stderr)
			}
		}
	})
	t.Logf("%d help examples ran", ran)
	if ran < 10 {
		t.Errorf("%d help examples ran", ran)
	}
}

func hasDBFlag(name string) bool {
	c := findCommand(commands(), name)
	for _, f := range c.Flags {
		if f.Names()[0] == "db" {
			return true
		}
	}
	return false
}
