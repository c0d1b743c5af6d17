package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

var update = flag.Bool("update", false, "rewrite testdata/help/*.txt from the current help texts")

// eachCommand calls fn with every command and subcommand and its path
// ("book build").
func eachCommand(fn func(path string, c *cli.Command)) {
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range cmds {
			if c.Name == "help" { // urfave/cli's own, added as it runs
				continue
			}
			path := strings.TrimSpace(prefix + " " + c.Name)
			fn(path, c)
			walk(path, c.Subcommands)
		}
	}
	walk("", commands())
}

// TestHelpGolden pins the --help of xqdb and of every command in
// testdata/help (go test -run TestHelpGolden -update rewrites them): a
// change of a help text shows in review, next to the code it describes.
func TestHelpGolden(t *testing.T) {
	paths := []string{""}
	eachCommand(func(path string, _ *cli.Command) { paths = append(paths, path) })
	seen := map[string]bool{}
	for _, path := range paths {
		args := append(strings.Fields(path), "--help")
		code, out, stderr := runCLI(t, args...)
		if code != exitOK || stderr != "" || out == "" {
			t.Errorf("xqdb %s --help: exit %d, stderr %q", path, code, stderr)
			continue
		}
		// The version is the build's: the golden file says VERSION.
		out = strings.Replace(out, "\n   "+version()+"\n", "\n   VERSION\n", 1)
		name := strings.ReplaceAll(path, " ", "-")
		if name == "" {
			name = "xqdb"
		}
		name += ".txt"
		seen[name] = true
		file := filepath.Join("testdata", "help", name)
		if *update {
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Errorf("xqdb %s --help: %v (run go test -run TestHelpGolden -update)", path, err)
			continue
		}
		if out != string(want) {
			t.Errorf("xqdb %s --help differs from %s (go test -run TestHelpGolden -update rewrites it):\n%s", path, file, out)
		}
	}
	// No golden file is left for a command that is gone.
	files, _ := filepath.Glob(filepath.Join("testdata", "help", "*.txt"))
	for _, f := range files {
		if !seen[filepath.Base(f)] {
			t.Errorf("%s: no such command any more", f)
		}
	}
}

// TestHelpAgreesWithFlags: help texts say one thing per flag (issue 14):
// no flag states its default twice, a flag name (or alias) means one thing
// in every command (the same usage text, or a flag of the same name),
// machine-dependent defaults are described rather than printed, and the
// query language is xqdb's own.
func TestHelpAgreesWithFlags(t *testing.T) {
	owner := map[string]string{} // a flag name or alias -> the flag it names
	eachCommand(func(path string, c *cli.Command) {
		for _, f := range c.Flags {
			names := f.Names()
			flag := strings.Replace(names[0], "output", "out", 1) // book's --output is --out
			for _, n := range names {
				if prev, ok := owner[n]; ok && prev != flag {
					t.Errorf("xqdb %s: -%s names --%s here and --%s elsewhere", path, n, flag, prev)
				}
				owner[n] = flag
			}
		}
		_, out, _ := runCLI(t, append(strings.Fields(path), "--help")...)
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "--") && strings.Count(line, "(default") > 1 {
				t.Errorf("xqdb %s --help states a default twice: %s", path, strings.TrimSpace(line))
			}
		}
	})
	_, out, _ := runCLI(t, "games", "--help")
	if strings.Contains(out, "Bleve") || !strings.Contains(out, "xqdb's query language") {
		t.Errorf("games --help describes another query language:\n%s", out)
	}
	for _, path := range []string{"clean", "import", "convert", "classify", "book build", "selfplay"} {
		_, out, _ := runCLI(t, append(strings.Fields(path), "--help")...)
		if !strings.Contains(out, "(default: the number of cores)") {
			t.Errorf("xqdb %s --help: --jobs default is not described", path)
		}
	}
}

// TestEveryCommandHasJSON: every command that prints results takes --json
// (issue 14); uci speaks the UCI protocol on standard output, and a command
// with subcommands only groups them.
func TestEveryCommandHasJSON(t *testing.T) {
	eachCommand(func(path string, c *cli.Command) {
		if c.Action == nil || path == "uci" {
			return
		}
		for _, f := range c.Flags {
			if f.Names()[0] == "json" {
				return
			}
		}
		t.Errorf("xqdb %s has no --json", path)
	})
}
