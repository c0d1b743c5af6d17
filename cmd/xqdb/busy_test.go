package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

const busyGame = "[Game \"Chinese Chess\"]\n[Red \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. h2e2 h9g7 2. h0g2 1-0\n"

// TestDatabaseBusy: while a real xqdb import (another process) writes a
// database, the commands that read it, and a second import, say so in
// one sentence naming the import and its pid, and exit 75 (a temporary
// failure: try again) — under --json as {"kind":"busy"} (issue 14). The
// import reads a named pipe, so it holds the database until the test
// writes its game.
func TestDatabaseBusy(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	importJSON(t, "--db", db, writeFile(t, "first.pgn", busyGame))
	fifo := filepath.Join(dir, "slow.pgn")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	cmd := exec.Command(os.Args[0], "import", "--db", db, fifo)
	cmd.Env = append(os.Environ(), "XQDB_TEST_MAIN=1")
	// Files, not buffers: Wait then waits for the process alone.
	stdout, stderr := tempOutput(t, dir, "stdout"), tempOutput(t, dir, "stderr")
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		select {
		case <-exited:
		default:
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	// The import holds the database once Badger's LOCK names it.
	pid := cmd.Process.Pid
	lock := filepath.Join(db, "badger", "LOCK")
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(lock); err == nil && strings.TrimSpace(string(b)) == strconv.Itoa(pid) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the import did not lock %s: %s", db, readAll(stderr))
		}
	}
	want := fmt.Sprintf("xqdb: the database %s is being written by an import (pid %d); try again when it finishes\n", db, pid)
	for _, args := range [][]string{
		{"tree"}, {"games", "--query", "red:A"}, {"show", "1"}, {"stats"}, {"check"},
		{"export", "-o", filepath.Join(dir, "out.pgn")},
		{"import", writeFile(t, "second.pgn", busyGame)},
	} {
		code, out, errOut := runCLI(t, append(args, "--db", db)...)
		if code != exitBusy || out != "" || errOut != want {
			t.Errorf("xqdb %s during an import: exit %d, stdout %q, stderr %q; want %d and %q", strings.Join(args, " "), code, out, errOut, exitBusy, want)
		}
	}
	code, _, errOut := runCLI(t, "games", "--db", db, "--json")
	var e struct{ Error, Kind string }
	if err := json.Unmarshal([]byte(errOut), &e); err != nil || code != exitBusy || e.Kind != "busy" || e.Error+"\n" != strings.TrimPrefix(want, "xqdb: ") {
		t.Errorf("games --json during an import: exit %d, stderr %q (%v)", code, errOut, err)
	}
	// Feed the import its game: it finishes, and the reads work again.
	f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(strings.Replace(busyGame, "[Red \"A\"]", "[Red \"C\"]", 1)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	select {
	case <-exited:
		if waitErr != nil {
			t.Fatalf("the import: %v: %s", waitErr, readAll(stderr))
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the import did not finish")
	}
	var list gamesJSON
	code, out, errOut := runCLI(t, "games", "--db", db, "--json")
	if err := json.Unmarshal([]byte(out), &list); err != nil || code != exitOK || list.Total != 2 {
		t.Errorf("games after the import: exit %d, %s %s", code, out, errOut)
	}
}

func tempOutput(t *testing.T, dir, name string) *os.File {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func readAll(f *os.File) string {
	b, _ := os.ReadFile(f.Name())
	return string(b)
}
