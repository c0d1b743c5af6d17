package main

import (
	"bytes"
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
