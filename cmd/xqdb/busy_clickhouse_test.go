package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/xqdb/xqdb/index/clickhouse/chtest"
)

// lockHolder returns the pid written in the writer's lock of the
// ClickHouse database at u (clickhouse://host:port/db), 0 when none.
func lockHolder(t *testing.T, u string) int {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	q := "SELECT pid FROM " + strings.TrimPrefix(p.Path, "/") + ".import_lock"
	resp, err := http.Get("http://" + p.Host + "/?query=" + url.QueryEscape(q))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return 0 // no lock table: nobody writes
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}

// startFIFOImport starts xqdb import --store u of a named pipe in another
// process, and returns it once it holds the database's writer's lock, with
// the pipe to feed it.
func startFIFOImport(t *testing.T, u, dir, name string) (*exec.Cmd, string, chan error) {
	t.Helper()
	fifo := filepath.Join(dir, name)
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	cmd := exec.Command(os.Args[0], "import", "--progress=never", "--store", u, fifo)
	cmd.Env = append(os.Environ(), "XQDB_TEST_MAIN=1")
	stderr := tempOutput(t, dir, name+".stderr")
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
		}
	})
	for deadline := time.Now().Add(time.Minute); lockHolder(t, u) != cmd.Process.Pid; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the import did not lock %s: %s", u, readAll(stderr))
		}
	}
	return cmd, fifo, exited
}

// TestClickHouseBusy: imports into one ClickHouse database take turns
// (issue 14), as imports into one Badger folder do. Without that, two
// imports give the same game ids, and each one's cleaning of an
// interrupted import's rows deletes the other's batch in flight. While
// an import (another process) writes, a second import and a store copy
// into the database say so in one sentence naming the import and its pid
// and exit 75 ({"kind":"busy"} under --json); reads go on, on the last
// commit. Two imports started at once, each retried on 75, end exact:
// every game once, ids dense, the same answers as one import of both
// files. An import killed with -9 leaves its lock, which the next import
// on this machine takes over.
func TestClickHouseBusy(t *testing.T) {
	u := chtest.Start(t, 1, "busy")
	dir := t.TempDir()
	importJSON(t, "--store", u, writeFile(t, "first.pgn", busyGame))
	cmd, fifo, exited := startFIFOImport(t, u, dir, "slow.pgn")
	pid := cmd.Process.Pid
	want := fmt.Sprintf("xqdb: the database %s is being written by an import (pid %d); try again when it finishes\n", u, pid)
	second := writeFile(t, "second.pgn", strings.Replace(busyGame, `[Red "A"]`, `[Red "D"]`, 1))
	for _, args := range [][]string{
		{"import", second, "--store", u},
		{"store", "copy", "--from", ccpdDB(t), "--to", u},
	} {
		code, out, errOut := runCLI(t, args...)
		if code != exitBusy || out != "" || errOut != want {
			t.Errorf("xqdb %s during an import: exit %d, stdout %q, stderr %q; want %d and %q", strings.Join(args, " "), code, out, errOut, exitBusy, want)
		}
	}
	code, _, errOut := runCLI(t, "import", "--json", "--store", u, second)
	var e struct{ Error, Kind string }
	if err := json.Unmarshal([]byte(errOut), &e); err != nil || code != exitBusy || e.Kind != "busy" {
		t.Errorf("import --json during an import: exit %d, stderr %q (%v)", code, errOut, err)
	}
	if n := storeGames(t, u); n != 1 {
		t.Errorf("games during the import: %d; want the committed 1", n)
	}
	// Fed its game, the import finishes; the second import then runs.
	if err := os.WriteFile(fifo, []byte(strings.Replace(busyGame, `[Red "A"]`, `[Red "C"]`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("the import: %v", err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the import did not finish")
	}
	if sum := importJSON(t, "--store", u, second); sum.Added != 1 {
		t.Errorf("the second import after the first: %+v", sum)
	}
	if n := storeGames(t, u); n != 3 {
		t.Errorf("%d games; want 3", n)
	}

	// Two imports at once, in two processes, each retried while busy.
	xq, err := gunzip(fixture("ccpd-masters-3001.pgn.gz"))
	if err != nil {
		t.Fatal(err)
	}
	recs := splitRecords(xq, "[Game ")
	a, b := writeFile(t, "a.pgn", string(joinRecords(recs[:150]))), writeFile(t, "b.pgn", string(joinRecords(recs[100:250])))
	both := chtest.Start(t, 1, "both")
	var wg sync.WaitGroup
	busy := make([]int, 2)
	for i, f := range []string{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(100 * time.Millisecond) {
				code, _, stderr := xqdbProc(t, "import", "--progress=never", "--run-games", "40", "--store", both, f)
				if code == exitOK {
					return
				}
				if code != exitBusy || time.Now().After(deadline) {
					t.Errorf("import %s: exit %d: %s", filepath.Base(f), code, stderr)
					return
				}
				busy[i]++
			}
		}()
	}
	wg.Wait()
	t.Logf("busy answers while the other import ran: %v", busy)
	one := filepath.Join(t.TempDir(), "one")
	importJSON(t, "--db", one, a, b)
	sample := samplePositions(t, one, 200)
	wantAnswers, gotAnswers := answers(t, sample, "--db", one), answers(t, sample, "--store", both)
	for _, k := range []string{"stats", "tree --batch"} { // game ids depend on which import ran first
		if gotAnswers[k] != wantAnswers[k] {
			t.Errorf("two imports at once: %s differs from one import of both files:\n got %.600s\nwant %.600s", k, gotAnswers[k], wantAnswers[k])
		}
	}
	if n := storeGames(t, both); n != 250 {
		t.Errorf("two imports at once: %d games; want 250", n)
	}

	// kill -9 while holding the lock: the next import takes it over.
	cmd, _, exited = startFIFOImport(t, u, dir, "killed.pgn")
	_ = cmd.Process.Signal(syscall.SIGKILL)
	<-exited
	if sum := importJSON(t, "--store", u, writeFile(t, "after.pgn", strings.Replace(busyGame, `[Red "A"]`, `[Red "E"]`, 1))); sum.Added != 1 {
		t.Errorf("the import after a killed one: %+v", sum)
	}
	if n := storeGames(t, u); n != 4 {
		t.Errorf("%d games after the killed import and the next; want 4", n)
	}
}

func joinRecords(recs [][]byte) []byte {
	var out []byte
	for _, r := range recs {
		out = append(out, r...)
	}
	return out
}

// storeGames counts the games of the ClickHouse database at u.
func storeGames(t *testing.T, u string) int {
	t.Helper()
	code, out, stderr := runCLI(t, "games", "--json", "--limit", "1", "--store", u)
	var gl gamesJSON
	if err := json.Unmarshal([]byte(out), &gl); err != nil || code != exitOK {
		t.Fatalf("games --store %s: exit %d: %s", u, code, stderr)
	}
	return gl.Total
}
