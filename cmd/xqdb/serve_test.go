package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/xqdb/xqdb/index"
	"github.com/xqdb/xqdb/query/api"
)

const xiangqiStart = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

// serveInProcess serves the database in dir as xqdb serve does, announced
// in dir/serve.json, and returns its base URL.
func serveInProcess(t *testing.T, dir string, runGames int) string {
	t.Helper()
	s, err := index.Open(dir, index.Options{RunGames: runGames, Opening: classifyRecord})
	if err != nil {
		t.Fatal(err)
	}
	srv := newAPIServer(s, nil, nil, []string{filepath.Dir(fixture("ccpd-masters-3001.pgn.gz"))})
	hs := httptest.NewServer(srv)
	if err := api.WriteServeFile(dir, hs.Listener.Addr().String()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		hs.Close()
		srv.Close()
		api.RemoveServeFile(dir)
		s.Close()
	})
	return hs.URL
}

func getJSON(base, path string, v any) (int, error) {
	resp, err := http.Get(base + path)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return resp.StatusCode, json.NewDecoder(resp.Body).Decode(v)
}

// TestServeImportWhileReading (issue 17): an import sent to the server by
// xqdb import commits run by run while other clients ask for trees; every
// answer is the tree of a committed state, no request fails, and the
// final trees are those of a database imported without a server.
func TestServeImportWhileReading(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	if code, _, stderr := runCLI(t, "import", "--db", dir, fixture("pgnmentor-capablanca-fischer.pgn.gz")); code != exitOK {
		t.Fatalf("chess import: %d %s", code, stderr)
	}
	const runGames = 400
	base := serveInProcess(t, dir, runGames)
	var chessBefore api.Stats
	getJSON(base, "/api/stats", &chessBefore)
	n0 := chessBefore.Games

	paths := []string{"/api/tree?fen=" + url.QueryEscape(xiangqiStart), "/api/tree?moves=h2e2", "/api/tree?game=chess&moves=e4"}
	type answer struct {
		path  int
		games int
	}
	var (
		mu       sync.Mutex
		answers  []answer
		failures []string
		wg       sync.WaitGroup
	)
	stop := make(chan struct{})
	for c := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				p := (i + c) % len(paths)
				var tr api.Tree
				code, err := getJSON(base, paths[p], &tr)
				sum := tr.EndedHere
				for _, m := range tr.Moves {
					sum += m.Games
				}
				mu.Lock()
				switch {
				case err != nil || code != http.StatusOK:
					failures = append(failures, fmt.Sprintf("%s: %d %v", paths[p], code, err))
				case sum != tr.Games:
					failures = append(failures, fmt.Sprintf("%s: %d games, moves and ends sum to %d", paths[p], tr.Games, sum))
				default:
					answers = append(answers, answer{p, tr.Games})
				}
				mu.Unlock()
			}
		}()
	}
	// The CLI's import goes to the server (it owns the store).
	code, stdout, stderr := runCLI(t, "import", "--db", dir, fixture("ccpd-masters-3001.pgn.gz"))
	close(stop)
	wg.Wait()
	if code != exitOK || !strings.Contains(stderr, "the server runs this import") || !strings.Contains(stdout, "games 3001: 3000 added, 0 duplicates, 1 rejected") {
		t.Fatalf("import through the server: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if len(failures) > 0 {
		t.Fatalf("%d of %d requests failed, first: %s", len(failures), len(failures)+len(answers), failures[0])
	}

	// The committed states: the games below each run's end (runs of
	// runGames added games, the last one shorter).
	final := n0 + 3000
	var bounds []int
	for b := n0; b < final; b += runGames {
		bounds = append(bounds, b)
	}
	bounds = append(bounds, final)
	// Which games reached each position, from the final database.
	gids := func(q string) []int {
		var out []int
		for off := 0; ; off += api.MaxGames {
			var gl api.GameList
			if code, err := getJSON(base, fmt.Sprintf("/api/games?%s&limit=%d&offset=%d", q, api.MaxGames, off), &gl); code != 200 || err != nil {
				t.Fatalf("games %s: %d %v", q, code, err)
			}
			for _, g := range gl.Games {
				out = append(out, int(g.ID))
			}
			if off+len(gl.Games) >= gl.Total {
				return out
			}
		}
	}
	reached := [][]int{gids("game=xiangqi&fen=" + url.QueryEscape(xiangqiStart)), gids("game=xiangqi&moves=h2e2"), gids("game=chess&moves=e4")}
	committed := make([]map[int]bool, len(paths))
	for p := range paths {
		committed[p] = map[int]bool{}
		for _, b := range bounds {
			n := 0
			for _, id := range reached[p] {
				if id <= b {
					n++
				}
			}
			committed[p][n] = true
		}
	}
	seen := map[int]bool{}
	for _, a := range answers {
		if !committed[a.path][a.games] {
			t.Fatalf("%s answered %d games: no committed state has that many (%v)", paths[a.path], a.games, committed[a.path])
		}
		if a.path == 0 {
			seen[a.games] = true
		}
	}
	if len(seen) < 3 {
		t.Errorf("the readers saw %d states of the start position (%v): not reading during the import", len(seen), seen)
	}
	t.Logf("%d answers during the import, %d states of the start position seen", len(answers), len(seen))

	// Final counts are exact: the trees of a database imported directly.
	ref := ccpdDB(t)
	for _, moves := range []string{"", "h2e2", "h2e2 h9g7"} {
		want := treeOf(t, "--db", ref, "--game", "xiangqi", "--moves", moves)
		got := treeOf(t, "--db", dir, "--game", "xiangqi", "--moves", moves) // through the server
		wb, _ := json.Marshal(want)
		gb, _ := json.Marshal(got)
		if string(wb) != string(gb) {
			t.Errorf("tree %q:\n got %s\nwant %s", moves, gb, wb)
		}
	}
	var st api.Stats
	getJSON(base, "/api/stats", &st)
	if st.Games != final || st.PerGame["xiangqi"] != 3000 {
		t.Errorf("stats after the import: %+v", st)
	}
}

// TestReadCommandsGoThroughServer: while a server owns the store, tree,
// games, show and stats answer through it as they answer without it.
func TestReadCommandsGoThroughServer(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	if code, _, stderr := runCLI(t, "import", "--db", dir, fixture("pgnmentor-capablanca-fischer.pgn.gz")); code != exitOK {
		t.Fatalf("import: %d %s", code, stderr)
	}
	commands := [][]string{
		{"tree", "--db", dir, "--moves", "e4 e5"},
		{"tree", "--db", dir, "--moves", "e4", "--json", "--query", "white:fischer", "--notation", "uci"},
		{"games", "--db", dir, "--moves", "e4 c5", "--limit", "3"},
		{"games", "--db", dir, "--query", "black:capablanca", "--limit", "0", "--json"}, // more than a page
		{"games", "--db", dir, "--game", "chess", "--sort", "rating", "--offset", "5", "--limit", "4", "--json"},
		{"show", "--db", dir, "7"},
		{"show", "--db", dir, "--notation", "uci", "--annotate", "8"},
		{"stats", "--db", dir, "--json"},
	}
	type result struct {
		code        int
		out, stderr string
	}
	var want []result
	for _, args := range commands {
		code, out, stderr := runCLI(t, args...)
		want = append(want, result{code, out, stderr})
	}
	serveInProcess(t, dir, 0)
	// The server's Badger is open for writing: its files' sizes differ.
	sizes := regexp.MustCompile(`"(badger_bytes|bleve_bytes|bytes)":\d+`)
	for i, args := range commands {
		code, out, stderr := runCLI(t, args...)
		if args[0] == "stats" {
			var a, b api.Stats
			json.Unmarshal([]byte(out), &a)
			json.Unmarshal([]byte(want[i].out), &b)
			if a.Games != b.Games || a.Plies != b.Plies || a.Positions != b.Positions || !slices.Equal(sortedKeys(a.PerGame), sortedKeys(b.PerGame)) {
				t.Errorf("stats through the server: %s\nwant %s", out, want[i].out)
			}
			out, want[i].out = sizes.ReplaceAllString(out, ""), sizes.ReplaceAllString(want[i].out, "")
			continue
		}
		if code != want[i].code || out != want[i].out || stderr != want[i].stderr {
			t.Errorf("%v through the server: exit %d\n%s\n%s\nwant exit %d\n%s\n%s", args, code, out, stderr, want[i].code, want[i].out, want[i].stderr)
		}
	}
	// A bad parameter is still a usage error, named.
	if code, _, stderr := runCLI(t, "games", "--db", dir, "--query", "whte:x"); code != exitUsage || !strings.Contains(stderr, "whte") {
		t.Errorf("bad query through the server: exit %d %s", code, stderr)
	}
}

func sortedKeys(m map[string]int) []string {
	var k []string
	for name := range m {
		k = append(k, name)
	}
	slices.Sort(k)
	return k
}

// TestServeCommand: xqdb serve binds loopback, prints the URL, announces
// itself in the database folder and, on SIGTERM, stops cleanly and
// withdraws the announcement; a serve.json left by a dead server is
// ignored.
func TestServeCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	if code, _, stderr := runCLI(t, "import", "--db", dir, fixture("pgnmentor-capablanca-fischer.pgn.gz")); code != exitOK {
		t.Fatalf("import: %d %s", code, stderr)
	}
	// A stale file from a killed server (its pid is gone): ignored.
	dead := exec.Command("true")
	dead.Run()
	os.WriteFile(filepath.Join(dir, api.ServeFile), fmt.Appendf(nil, `{"pid":%d,"addr":"127.0.0.1:1","url":"http://127.0.0.1:1/"}`, dead.Process.Pid), 0o644)
	if code, _, stderr := runCLI(t, "stats", "--db", dir); code != exitOK {
		t.Fatalf("stats with a stale serve.json: %d %s", code, stderr)
	}
	cmd := exec.Command(os.Args[0], "serve", "--db", dir, "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "XQDB_TEST_MAIN=1")
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("no URL printed: %v %s", err, stderr.String())
	}
	m := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)/`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("no loopback URL in %q", line)
	}
	var info api.ServeInfo
	b, _ := os.ReadFile(filepath.Join(dir, api.ServeFile))
	if json.Unmarshal(b, &info) != nil || info.Addr != m[1] || info.PID != cmd.Process.Pid {
		t.Fatalf("serve.json %s, want %s and pid %d", b, m[1], cmd.Process.Pid)
	}
	var st api.Stats
	if code, err := getJSON("http://"+m[1], "/api/stats", &st); code != 200 || err != nil || st.Games != 1424 {
		t.Fatalf("stats: %d %v %+v", code, err, st)
	}
	// A second server of the same folder is refused.
	if code, _, stderr := runCLI(t, "serve", "--db", dir, "--addr", "127.0.0.1:0"); code != exitFailure || !strings.Contains(stderr, "already served") {
		t.Errorf("second server: %d %s", code, stderr)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve after SIGTERM: %v %s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop on SIGTERM")
	}
	if _, err := os.Stat(filepath.Join(dir, api.ServeFile)); !os.IsNotExist(err) {
		t.Errorf("serve.json left behind: %v", err)
	}
	if code, _, stderr := runCLI(t, "stats", "--db", dir); code != exitOK {
		t.Errorf("stats after the server stopped: %d %s", code, stderr)
	}
}
