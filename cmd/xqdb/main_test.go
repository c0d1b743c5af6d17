package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(append([]string{"xqdb"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func TestHelpListsCommands(t *testing.T) {
	code, out, _ := runCLI(t, "--help")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(out, "xqdb") || !strings.Contains(out, "USAGE") {
		t.Errorf("help output lacks usage:\n%s", out)
	}
}

func TestBadFlagIsUsageError(t *testing.T) {
	code, _, _ := runCLI(t, "--no-such-flag")
	if code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
}

func TestUnknownCommandIsUsageError(t *testing.T) {
	code, _, stderr := runCLI(t, "no-such-command")
	if code != exitUsage || !strings.Contains(stderr, "no-such-command") {
		t.Errorf("exit %d, stderr %q; want %d naming the command", code, stderr, exitUsage)
	}
}

// TestFlagsAfterArguments: flags may follow the positional arguments, as
// in `xqdb show 42 --notation wxf` (issue 14).
func TestFlagsAfterArguments(t *testing.T) {
	before, after := []string{"clean", "--json", "--jobs", "1", fixture("ccpd-masters-3001.pgn.gz")},
		[]string{"clean", fixture("ccpd-masters-3001.pgn.gz"), "--jobs", "1", "--json"}
	c1, o1, e1 := runCLI(t, before...)
	c2, o2, e2 := runCLI(t, after...)
	if c1 != exitOK || c2 != exitOK || !strings.HasPrefix(o2, "{") || len(o1) == 0 {
		t.Fatalf("exit %d %d\n%s\n%s\n%s%s", c1, c2, o1, o2, e1, e2)
	}
	// A flag value that looks like an argument stays with its flag, and
	// everything after "--" is an argument.
	got := flagsFirst(newApp(nil, nil), []string{"xqdb", "show", "42", "--notation", "wxf", "--", "--json"})
	if want := "xqdb show --notation wxf 42 -- --json"; strings.Join(got, " ") != want {
		t.Errorf("flagsFirst: %q, want %q", strings.Join(got, " "), want)
	}
}

// TestUsageErrorsAreOneLine: a bad flag, a bad value or an absurd count
// exits 2 with one line on stderr that names the help to read, and
// nothing on stdout — never the whole help (issue 14).
func TestUsageErrorsAreOneLine(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"games", "--bogus"}, "games: flag provided but not defined: -bogus; see xqdb games --help"},
		{[]string{"games", "--limit", "abc"}, "see xqdb games --help"},
		{[]string{"games", "--limit", "-1"}, "--limit -1 is out of range"},
		{[]string{"games", "--limit", "9223372036854775807"}, "out of range"},
		{[]string{"games", "--offset", "-5"}, "--offset -5 is out of range"},
		{[]string{"clean", "--jobs", "0", "x.pgn"}, "--jobs 0 is out of range"},
		{[]string{"clean", "--jobs", "-3", "x.pgn"}, "--jobs -3 is out of range"},
		{[]string{"nosuch"}, `no command "nosuch"; see xqdb --help`},
		{[]string{"--bogus"}, "see xqdb --help"},
	} {
		code, out, stderr := runCLI(t, tt.args...)
		if code != exitUsage || out != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and one line with %q", tt.args, code, out, stderr, tt.want)
		}
	}
}

// TestJSONErrors: under --json an error is one JSON object on stderr.
func TestJSONErrors(t *testing.T) {
	code, out, stderr := runCLI(t, "games", "--json", "--limit", "-1")
	var e struct{ Error, Kind, Hint string }
	if err := json.Unmarshal([]byte(stderr), &e); err != nil || code != exitUsage || out != "" || e.Kind != "usage" || !strings.Contains(e.Error, "--limit") {
		t.Fatalf("exit %d, stdout %q, stderr %q (%v)", code, out, stderr, err)
	}
	code, _, stderr = runCLI(t, "games", "--json", "--db", t.TempDir()+"/none")
	if err := json.Unmarshal([]byte(stderr), &e); err != nil || code != exitFailure || e.Kind != "failure" {
		t.Fatalf("exit %d, stderr %q (%v)", code, stderr, err)
	}
}

// TestVersion: xqdb version and xqdb --version both answer.
func TestVersion(t *testing.T) {
	code, out, _ := runCLI(t, "version", "--json")
	var v struct{ Version, Go string }
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != exitOK || v.Version == "" || v.Go == "" {
		t.Fatalf("version --json: exit %d, %q (%v)", code, out, err)
	}
	if code, out, _ := runCLI(t, "--version"); code != exitOK || !strings.Contains(out, v.Version) {
		t.Fatalf("--version: exit %d, %q", code, out)
	}
}
