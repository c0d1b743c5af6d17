package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/index"
	"github.com/xqdb/xqdb/index/clickhouse"
	"github.com/xqdb/xqdb/index/clickhouse/chtest"
)

// storeFixtures are the games both backends import in the tests: every
// bundled game, Xiangqi and chess (4,425 games, 0.4 M positions). The
// whole of ../shared/data is compared by bench/scaleout.sh.
var storeFixtures = []string{"ccpd-masters-3001.pgn.gz", "pgnmentor-capablanca-fischer.pgn.gz"}

// storeQueries are the game lists compared between backends: every
// kind of clause of the query language, with and without a position.
var storeQueries = [][]string{
	{},
	{"--sort", "rating"},
	{"--query", `black:"Lu Qin"`},
	{"--query", `black:"lü qin"`, "--sort", "date"},
	{"--query", `"Qin Lu" OR black:"呂欽" OR white:"fischer, robert" OR black:"Robert Fischer"`},
	{"--query", `red:胡荣华 AND result:1-0`},
	{"--query", `player:胡荣华 date:[1990 TO 1995]`},
	{"--query", `(white:fischer OR black:fischer) AND NOT result:1/2-1/2`},
	{"--query", `capablanca date:<1920`, "--sort", "-date"},
	{"--query", `game:chess opening:C6*`},
	{"--query", `opening_name:sicilian`},
	{"--query", `termination:checkmate OR termination:perpetual_chase`},
	{"--query", `elo:>=2600 plies:>80`},
	{"--query", `whiteelo:[2500 TO 2700} -black:fisch*`},
	{"--query", `event:全国 result:draw`},
	{"--query", `site:"New York" year:1963`},
	{"--game", "chess"},
	{"--moves", "h2e2 h9g7"},
	{"--moves", "h2e2 h9g7", "--query", `date:>=2005 red:许银川`},
	{"--moves", "h2e2", "--mirror", "--sort", "-rating"},
	{"--game", "chess", "--moves", "e4 c5", "--query", "white:fischer"},
}

// samplePositions writes n positions of the games in the database dir (a
// folder or a URL; for tree --batch): of game gid, the position after a ply that
// moves with gid, so the sample covers openings, middle games and ends.
func samplePositions(t *testing.T, dir string, n int) string {
	t.Helper()
	s, err := index.OpenDB(dir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	seen := map[string]bool{}
	var lines []string
	for gid := uint32(1); gid <= s.LastGid() && len(lines) < n; gid++ {
		r, err := s.Game(gid)
		if err != nil {
			t.Fatal(err)
		}
		p, err := games.New(r.Game, r.StartFEN)
		if err != nil {
			t.Fatal(err)
		}
		stop := int(gid*7) % (len(r.Moves) + 1)
		if gid%3 == 0 {
			stop = min(stop, 12) // openings, where trees are big
		}
		for _, m := range r.Moves[:stop] {
			p.Make(m)
		}
		line := r.Game.String() + "\t" + p.FEN()
		if !seen[line] {
			seen[line] = true
			lines = append(lines, line)
		}
	}
	if len(lines) < n {
		t.Fatalf("only %d distinct positions sampled", len(lines))
	}
	path := filepath.Join(t.TempDir(), "positions.txt")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// answers runs the comparison commands on one database (args select it)
// and returns their output, timings left out.
func answers(t *testing.T, sample string, db ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	cli := func(name string, args ...string) string {
		code, stdout, stderr := runCLI(t, append(args, db...)...)
		if code != exitOK {
			t.Fatalf("%s %v: exit %d: %s", name, db, code, stderr)
		}
		return stdout
	}
	// tree at every sampled position, in one process.
	var trees []string
	sc := bufio.NewScanner(strings.NewReader(cli("tree", "tree", "--batch", sample)))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var b batchLine
		if err := json.Unmarshal(sc.Bytes(), &b); err != nil {
			t.Fatal(err)
		}
		b.Micros = 0
		j, _ := json.Marshal(b)
		trees = append(trees, string(j))
	}
	out["tree --batch"] = strings.Join(trees, "\n")
	for _, q := range storeQueries {
		args := append([]string{"games", "--json", "--limit", "0"}, q...)
		out[strings.Join(args, " ")] = cli("games", args...)
	}
	var st statsJSON
	if err := json.Unmarshal([]byte(cli("stats", "stats", "--json")), &st); err != nil {
		t.Fatal(err)
	}
	j, _ := json.Marshal([]any{st.Games, st.PerGame, st.Plies, st.Positions})
	out["stats"] = string(j)
	return out
}

func sameAnswers(t *testing.T, what string, want, got map[string]string) {
	t.Helper()
	for k, w := range want {
		if g := got[k]; g != w {
			t.Errorf("%s: %s differs from Badger's:\n got %.600s\nwant %.600s", what, k, g, w)
		}
	}
}

func importFixtures(t *testing.T, args ...string) importSummary {
	t.Helper()
	files := make([]string, len(storeFixtures))
	for i, f := range storeFixtures {
		files[i] = fixture(f)
	}
	code, stdout, stderr := runCLI(t, append(append([]string{"import", "--json", "--run-games", "1500"}, args...), files...)...)
	if code != exitOK {
		t.Fatalf("import %v: exit %d: %s", args, code, stderr)
	}
	var sum importSummary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	return sum
}

// TestClickHouseAnswersAsBadger: the same import into Badger + Bleve, one
// ClickHouse server and a Distributed table over two, and `store copy`
// of the Badger database into ClickHouse, give identical answers: tree at
// 1,000 sampled positions, games with and without --query, stats (issue
// 19). Re-importing adds nothing.
func TestClickHouseAnswersAsBadger(t *testing.T) {
	one := chtest.Start(t, 1, "xqdb")
	two := chtest.Start(t, 2, "xqdb")
	dir := filepath.Join(t.TempDir(), "db")
	badger := importFixtures(t, "--db", dir)
	sample := samplePositions(t, dir, 1000)
	want := answers(t, sample, "--db", dir)
	if !strings.Contains(want["stats"], `"chess":1424`) {
		t.Fatalf("Badger stats: %s", want["stats"])
	}
	for _, tc := range []struct{ name, url string }{{"one server", one}, {"two shards", two}} {
		t.Run(tc.name, func(t *testing.T) {
			sum := importFixtures(t, "--store", tc.url)
			if sum.Added != badger.Added || sum.Positions != badger.Positions || sum.Duplicates != badger.Duplicates {
				t.Errorf("import: %+v, Badger %+v", sum, badger)
			}
			sameAnswers(t, tc.name, want, answers(t, sample, "--store", tc.url))
			if tc.url != one {
				return
			}
			again := importFixtures(t, "--store", tc.url)
			if again.Added != 0 || again.AlreadySaved != badger.Added {
				t.Errorf("re-import added %d, %d already saved; want 0 and %d", again.Added, again.AlreadySaved, badger.Added)
			}
		})
	}
	t.Run("store copy", func(t *testing.T) {
		to := strings.Replace(one, "/xqdb", "/copied", 1)
		code, stdout, stderr := runCLI(t, "store", "copy", "--json", "--from", dir, "--to", to)
		if code != exitOK {
			t.Fatalf("store copy: exit %d: %s", code, stderr)
		}
		var sum storeCopyJSON
		if err := json.Unmarshal([]byte(stdout), &sum); err != nil || sum.Added != badger.Added || sum.Positions != badger.Positions {
			t.Errorf("store copy: %+v (%v); want %d games, %d positions", sum, err, badger.Added, badger.Positions)
		}
		sameAnswers(t, "store copy", want, answers(t, sample, "--store", to))
		code, stdout, _ = runCLI(t, "store", "copy", "--json", "--from", dir, "--to", to)
		if err := json.Unmarshal([]byte(stdout), &sum); code != exitOK || err != nil || sum.Added != 0 {
			t.Errorf("second copy: exit %d, %+v; want 0 added", code, sum)
		}
	})
}

// readmeReplicas returns the statements of the README's replicated schema
// (the sql block of "**Replicas**").
func readmeReplicas(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(enginetest.RepoRoot(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "**Replicas**")
	_, rest, ok2 := strings.Cut(rest, "```sql\n")
	block, _, ok3 := strings.Cut(rest, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("README has no sql block under **Replicas**")
	}
	var out []string
	for _, stmt := range strings.Split(block, ";") {
		var lines []string
		for _, l := range strings.Split(stmt, "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "--") {
				lines = append(lines, l)
			}
		}
		if len(lines) > 0 {
			out = append(out, strings.Join(lines, " "))
		}
	}
	return out
}

// chQuery runs sql on the first server of a clickhouse:// URL.
func chQuery(t *testing.T, u, sql string) string {
	t.Helper()
	hosts, _, _, err := clickhouse.ParseURL(u)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post("http://"+hosts[0]+"/", "text/plain", strings.NewReader(sql))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %s: %s", hosts[0], sql, b)
	}
	return strings.TrimSpace(string(b))
}

// TestClickHouseReplicas: the README's replicated schema, run as written
// on two replicas of ClickHouse that replicate through ZooKeeper (started
// by the test on loopback, configs written by it, stopped by PID): an
// import through the first replica reaches the second, which holds the
// same rows in the same replicated tables and gives the same answers
// (issue 19).
func TestClickHouseReplicas(t *testing.T) {
	zk := chtest.ZooKeeper(t)
	urls := chtest.StartReplicas(t, zk, 2, "xqdb", "xqdb")
	ddl := readmeReplicas(t)
	if len(ddl) < 9 {
		t.Fatalf("README's replicated schema: %d statements", len(ddl))
	}
	for _, u := range urls {
		for _, stmt := range ddl {
			chQuery(t, u, stmt)
		}
	}
	sum := importFixtures(t, "--store", urls[0])
	if sum.Added < 4000 {
		t.Fatalf("import through replica 1: %+v", sum)
	}
	local := []string{"games_local", "positions_local", "terms_local", "dict", "manifest"}
	for _, tb := range local {
		chQuery(t, urls[1], "SYSTEM SYNC REPLICA xqdb."+tb)
	}
	for _, tb := range local {
		n1 := chQuery(t, urls[0], "SELECT count() FROM xqdb."+tb)
		n2 := chQuery(t, urls[1], "SELECT count() FROM xqdb."+tb)
		engine := chQuery(t, urls[1], "SELECT engine FROM system.tables WHERE database = 'xqdb' AND name = '"+tb+"'")
		if n1 != n2 || n1 == "0" || !strings.HasPrefix(engine, "Replicated") {
			t.Errorf("%s: %s rows on replica 1, %s on replica 2 (%s)", tb, n1, n2, engine)
		}
	}
	sample := samplePositions(t, urls[0], 300)
	want := answers(t, sample, "--store", urls[0])
	if !strings.Contains(want["stats"], `"chess":1424`) {
		t.Fatalf("replica 1 stats: %s", want["stats"])
	}
	sameAnswers(t, "replica 2", want, answers(t, sample, "--store", urls[1]))
}

func TestStoreFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"stats", "--store", "nosuch://x/y"}, "no backend for nosuch://"},
		{[]string{"stats", "--store", "clickhouse://127.0.0.1:1,127.0.0.1:2/db"}, "?cluster=NAME"},
		{[]string{"store", "copy", "--from", "a", "--to", "a"}, "same database"},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code == exitOK || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want a failure saying %q", tc.args, code, stderr, tc.want)
		}
	}
	if !reflect.DeepEqual(storeFlag.EnvVars, []string{"XQDB_STORE"}) {
		t.Errorf("--store reads %v, want XQDB_STORE", storeFlag.EnvVars)
	}
}
