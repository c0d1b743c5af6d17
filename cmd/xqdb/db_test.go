package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/xqdb/xqdb/importer"
	"github.com/xqdb/xqdb/index"
	"github.com/xqdb/xqdb/replay"
)

// TestMain lets the test binary stand in for xqdb in subprocess tests.
func TestMain(m *testing.M) {
	if os.Getenv("XQDB_TEST_MAIN") == "1" {
		main()
		return
	}
	code := m.Run()
	runAtExit() // the folders tests shared
	os.Exit(code)
}

var (
	ccpdDBOnce sync.Once
	ccpdDBDir  string
)

// ccpdDB imports the bundled CCPD games once for the tests that query it.
func ccpdDB(t *testing.T) string {
	t.Helper()
	ccpdDBOnce.Do(func() {
		dir, err := os.MkdirTemp("", "xqdb-ccpd-")
		if err != nil {
			t.Fatal(err)
		}
		onExit(func() { os.RemoveAll(dir) })
		ccpdDBDir = filepath.Join(dir, "db")
		if code, _, stderr := runCLI(t, "import", "--db", ccpdDBDir, "--run-games", "700", fixture("ccpd-masters-3001.pgn.gz")); code != exitOK {
			t.Fatalf("import: exit %d: %s", code, stderr)
		}
	})
	return ccpdDBDir
}

// fixtureGames replays the bundled CCPD games directly, for counts to
// compare the database with.
func fixtureGames(t *testing.T) []*importer.Record {
	t.Helper()
	r, err := importer.Open(fixture("ccpd-masters-3001.pgn.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []*importer.Record
	var rp replay.Replayer
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return out
		}
		var g replay.Game
		if rec != nil && rp.Replay(rec, &g) == nil {
			out = append(out, rec)
		}
	}
}

func treeOf(t *testing.T, args ...string) treeJSON {
	t.Helper()
	code, out, stderr := runCLI(t, append([]string{"tree", "--json"}, args...)...)
	if code != exitOK {
		t.Fatalf("tree %v: exit %d: %s", args, code, stderr)
	}
	var tr treeJSON
	if err := json.Unmarshal([]byte(out), &tr); err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestTreeOnCCPD(t *testing.T) {
	db := ccpdDB(t)
	recs := fixtureGames(t)
	first := map[string]int{}
	for _, r := range recs {
		first[string(r.MoveText(0))]++
	}
	start := treeOf(t, "--db", db, "--fen", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
	sum, white, draws, black := 0, 0, 0, 0
	for _, m := range start.Moves {
		sum += m.Games
		white += m.White
		draws += m.Draws
		black += m.Black
		if m.Games != m.White+m.Draws+m.Black+m.Unknown {
			t.Errorf("%s: %d games but %d results and %d unknown", m.UCI, m.Games, m.White+m.Draws+m.Black, m.Unknown)
		}
	}
	// Every CCPD master game starts from the standard start.
	if start.Games != len(recs) || sum != start.Games-start.EndedHere || white != start.White || draws != start.Draws || black != start.Black {
		t.Fatalf("start: %d games (moves sum %d), want %d", start.Games, sum, len(recs))
	}
	// A tree's total is its parent row's count (issue 14): the games that
	// stopped right after h2e2 reached it too, and are counted apart.
	h2e2 := treeOf(t, "--db", db, "--moves", "h2e2")
	var row treeMoveJSON
	for _, m := range start.Moves {
		if m.UCI == "h2e2" {
			row = m
		}
	}
	if h2e2.Games != first["炮二平五"] || h2e2.Games != row.Games || h2e2.White != row.White || h2e2.Unknown != row.Unknown || h2e2.EndedHere == 0 {
		t.Fatalf("after h2e2: %d games (%d ended), parent row %d, %d records open with 炮二平五", h2e2.Games, h2e2.EndedHere, row.Games, first["炮二平五"])
	}
	if h2e2.Games != h2e2.White+h2e2.Draws+h2e2.Black+h2e2.Unknown {
		t.Errorf("after h2e2: %d games but %d results and %d unknown", h2e2.Games, h2e2.White+h2e2.Draws+h2e2.Black, h2e2.Unknown)
	}
	mirrored := treeOf(t, "--db", db, "--moves", "h2e2", "--mirror")
	if mirrored.Games != first["炮二平五"]+first["炮八平五"] {
		t.Fatalf("after h2e2 with --mirror: %d games, want %d + %d", mirrored.Games, first["炮二平五"], first["炮八平五"])
	}
	// The tree of a position and the games list agree.
	code, out, _ := runCLI(t, "games", "--db", db, "--moves", "h2e2", "--limit", "1", "--json")
	var gl gamesJSON
	_ = json.Unmarshal([]byte(out), &gl)
	if code != exitOK || gl.Total != h2e2.Games || gl.Games[0].Ply != 1 {
		t.Fatalf("games after h2e2: %+v, tree says %d", gl, h2e2.Games)
	}
}

func TestPlayerQueryMatchesTags(t *testing.T) {
	db := ccpdDB(t)
	count := func(keep func(black, red string, date uint32, result string) bool) int {
		n := 0
		for _, r := range fixtureGames(t) {
			if keep(r.Tag("Black"), r.Tag("Red"), index.ParseDate(r.Tag("Date")), r.Tag("Result")) {
				n++
			}
		}
		return n
	}
	hu := func(name string) bool { return strings.Contains(name, "胡榮華") }
	byHu := count(func(b, _ string, _ uint32, _ string) bool { return hu(b) })
	huSince1990 := count(func(b, _ string, d uint32, _ string) bool { return hu(b) && d >= 19900000 })
	huWinsEither := count(func(b, r string, _ uint32, res string) bool { return hu(b) && res == "0-1" || hu(r) && res == "1-0" })
	tests := []struct {
		q    string
		want int
	}{
		// CCPD writes names in traditional characters; users type either.
		{`black:"胡榮華"`, byHu},
		{`black:"胡荣华"`, byHu},
		{`black:胡荣华`, byHu},
		// Every clause must match (the example form).
		{`black:"胡荣华" date:>="1990"`, huSince1990},
		{`black:胡荣华 result:0-1 OR red:胡荣华 result:1-0`, huWinsEither},
		{`(black:胡荣华 AND result:0-1) OR (red:胡荣华 AND result:1-0)`, huWinsEither},
		{`black:胡荣华 AND NOT date:[1990 TO *]`, byHu - huSince1990},
	}
	for _, tt := range tests {
		code, out, stderr := runCLI(t, "games", "--db", db, "--query", tt.q, "--json", "--limit", "1")
		var gl gamesJSON
		if err := json.Unmarshal([]byte(out), &gl); err != nil || code != exitOK {
			t.Fatalf("exit %d: %s %v", code, stderr, err)
		}
		if gl.Total != tt.want || tt.want == 0 || tt.want == len(fixtureGames(t)) {
			t.Errorf(`%s finds %d games, the tags say %d`, tt.q, gl.Total, tt.want)
		}
	}
	if huSince1990 == byHu {
		t.Errorf("the fixture has no game of 胡榮華's before 1990: the date clause is not tested")
	}
}

func TestReimportAddsNothing(t *testing.T) {
	db := ccpdDB(t)
	// The same file again: its games are the very records stored, already
	// in the database (issue 13 point 9: not duplicates).
	code, out, stderr := runCLI(t, "import", "--db", db, "--json", fixture("ccpd-masters-3001.pgn.gz"))
	var sum importSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil || code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if sum.Added != 0 || sum.AlreadySaved != 3000 || sum.Duplicates != 0 || sum.Rejected != 1 {
		t.Fatalf("re-import: %+v, want 0 added, 3000 already saved (2,999 games and CCPD's header-only game), 1 rejected", sum)
	}
	// A copy under another name holds the same games from other records:
	// duplicates.
	data, err := os.ReadFile(fixture("ccpd-masters-3001.pgn.gz"))
	if err != nil {
		t.Fatal(err)
	}
	cp := filepath.Join(t.TempDir(), "copy.pgn.gz")
	if err := os.WriteFile(cp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = runCLI(t, "import", "--db", db, "--json", cp)
	sum = importSummary{}
	if err := json.Unmarshal([]byte(out), &sum); err != nil || code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if sum.Added != 0 || sum.AlreadySaved != 0 || sum.Duplicates != 3000 || sum.Rejected != 1 {
		t.Fatalf("import of a copy: %+v, want 0 added, 3000 duplicates", sum)
	}
}

func TestShowAndExport(t *testing.T) {
	db := ccpdDB(t)
	code, out, _ := runCLI(t, "show", "--db", db, "--notation", "wxf", "1")
	if code != exitOK || !strings.Contains(out, `[Game "Chinese Chess"]`) || !strings.Contains(out, "1. ") {
		t.Fatalf("show 1: exit %d\n%s", code, out)
	}
	if code, _, _ := runCLI(t, "show", "--db", db, "999999"); code != exitFailure {
		t.Errorf("show of a missing game: exit %d", code)
	}
	exp := filepath.Join(t.TempDir(), "e.pgn")
	if code, _, stderr := runCLI(t, "export", "--db", db, "--moves", "h2e2 h9g7", "-o", exp); code != exitOK {
		t.Fatalf("export: %s", stderr)
	}
	code, out, _ = runCLI(t, "clean", "--json", exp)
	var sum cleanSummary
	_ = json.Unmarshal([]byte(out), &sum)
	tr := treeOf(t, "--db", db, "--moves", "h2e2 h9g7")
	if code != exitOK || sum.Valid != tr.Games || sum.Rejected != 0 {
		t.Fatalf("exported %+v, tree has %d games", sum, tr.Games)
	}
}

// TestQueryMistakesAreUsageErrors: a query that cannot be read, or asks a
// field the database does not have, exits 2 with one line that says what
// and a hint, instead of listing 0 games (issue 14).
func TestQueryMistakesAreUsageErrors(t *testing.T) {
	db := ccpdDB(t)
	for _, tt := range []struct{ q, want string }{
		{`whte:胡荣华`, "no field whte (at character 1); did you mean white?"},
		{`black:"胡荣华`, "unbalanced quote"},
		{`(black:胡荣华 OR red:胡荣华`, "unbalanced parenthesis"},
	} {
		for _, cmd := range []string{"games", "tree"} {
			code, out, stderr := runCLI(t, cmd, "--db", db, "--query", tt.q)
			if code != exitUsage || out != "" || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("%s --query %s: exit %d, stdout %q, stderr %q; want 2 and %q", cmd, tt.q, code, out, stderr, tt.want)
			}
		}
	}
}

func countQuery(t *testing.T, db, q string) int {
	t.Helper()
	_, out, _ := runCLI(t, "games", "--db", db, "--query", q, "--json", "--limit", "1")
	var gl gamesJSON
	_ = json.Unmarshal([]byte(out), &gl)
	return gl.Total
}

func TestTerminationIsStoredAndQueryable(t *testing.T) {
	db := ccpdDB(t)
	n := countQuery(t, db, "termination:checkmate")
	chases := countQuery(t, db, "ruling:perpetual_chase")
	if n == 0 || chases == 0 {
		t.Fatalf("termination:checkmate finds %d games, ruling:perpetual_chase %d", n, chases)
	}
	code, out, _ := runCLI(t, "games", "--db", db, "--query", "termination:checkmate", "--limit", "1", "--json")
	var gl gamesJSON
	_ = json.Unmarshal([]byte(out), &gl)
	if code != exitOK || gl.Games[0].Termination != "checkmate" {
		t.Fatalf("games JSON: %+v", gl)
	}
	code, out, _ = runCLI(t, "show", "--db", db, "--annotate", fmt.Sprint(gl.Games[0].ID))
	if code != exitOK || !strings.Contains(out, `[Termination "checkmate"]`) || !strings.Contains(out, "{xqdb: checkmate") {
		t.Fatalf("show of a mated game lacks its termination:\n%s", out)
	}
}

func TestStatsCountsWhatImportIndexed(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	code, out, _ := runCLI(t, "import", "--db", db, "--json", fixture("pgnmentor-capablanca-fischer.pgn.gz"))
	var sum importSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil || code != exitOK {
		t.Fatal(err)
	}
	code, out, _ = runCLI(t, "stats", "--db", db, "--json")
	var st statsJSON
	if err := json.Unmarshal([]byte(out), &st); err != nil || code != exitOK {
		t.Fatal(err)
	}
	if st.Games != sum.Added || st.Positions != int64(sum.Positions) || st.PerGame["chess"] != sum.Added || st.Bytes <= 0 {
		t.Fatalf("stats %+v after import %+v", st, sum)
	}
}

// Import does not replay a record whose start and moves repeat an earlier
// record's; it must still settle it exactly as a replay would: a repeat of
// a stored game is a duplicate of that game, a repeat of a rejected record
// is rejected for the same reason at its own place.
func TestImportSettlesRepeatedRecords(t *testing.T) {
	dir := t.TempDir()
	good := "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
	bad := "[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n1. d4 d5 2. Ke3 *\n\n"
	other := "[White \"E\"]\n[Black \"F\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n" // good's moves, other players: another game
	a, b := filepath.Join(dir, "a.pgn"), filepath.Join(dir, "b.pgn")
	if err := os.WriteFile(a, []byte(good+bad+good+bad+other), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(dir, "report.jsonl")
	code, out, stderr := runCLI(t, "import", "--db", filepath.Join(dir, "db"), "--report", report, "--json", a, b)
	var sum importSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil || code != exitOK {
		t.Fatalf("exit %d: %s %v", code, stderr, err)
	}
	if sum.Games != 6 || sum.Added != 2 || sum.Duplicates != 2 || sum.Rejected != 2 {
		t.Fatalf("summary %+v, want 6 games: 2 added, 2 duplicates, 2 rejected", sum)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r reportLine
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		s := fmt.Sprintf("%s#%d %s", filepath.Base(r.File), r.Game, r.Kind)
		if r.Kind == "duplicate" {
			s += fmt.Sprintf(" of %d", r.DuplicateOf.ID)
		} else {
			s += fmt.Sprintf(" ply %d %s", r.Ply, r.Move)
		}
		got = append(got, s)
	}
	want := []string{"a.pgn#2 illegal ply 3 Ke3", "a.pgn#3 duplicate of 1", "a.pgn#4 illegal ply 3 Ke3", "b.pgn#1 duplicate of 1"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("report:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// The same moves under a Result the mate contradicts: --strict-results
	// rejects that copy, as its own replay would.
	c := filepath.Join(dir, "c.pgn")
	if err := os.WriteFile(c, []byte(good+strings.Replace(good, `[Result "1-0"]`, `[Result "0-1"]`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = runCLI(t, "import", "--db", filepath.Join(dir, "db2"), "--strict-results", "--json", c)
	sum = importSummary{}
	if err := json.Unmarshal([]byte(out), &sum); err != nil || code != exitOK {
		t.Fatalf("exit %d: %s %v", code, stderr, err)
	}
	if sum.Added != 1 || sum.Duplicates != 0 || sum.Rejected != 1 {
		t.Fatalf("strict results: %+v, want 1 added, 1 rejected", sum)
	}
}

// Without --game, the position asked says the game: chess moves or a chess
// FEN mean chess, Xiangqi ones Xiangqi, as a user of either expects.
func TestPositionImpliesGame(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	if code, _, stderr := runCLI(t, "import", "--db", db, fixture("pgnmentor-capablanca-fischer.pgn.gz")); code != exitOK {
		t.Fatalf("import: %s", stderr)
	}
	implied := treeOf(t, "--db", db, "--moves", "e4 c5")
	explicit := treeOf(t, "--db", db, "--game", "chess", "--moves", "e4 c5")
	if implied.Games == 0 || implied.Games != explicit.Games || implied.Key != explicit.Key {
		t.Fatalf("tree --moves \"e4 c5\": %d games (key %s); with --game chess %d (key %s)", implied.Games, implied.Key, explicit.Games, explicit.Key)
	}
	const sicilian = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
	if byFEN := treeOf(t, "--db", db, "--fen", sicilian); byFEN.Games != explicit.Games {
		t.Fatalf("tree --fen (chess): %d games, want %d", byFEN.Games, explicit.Games)
	}
	if code, out, _ := runCLI(t, "position", "--fen", sicilian); code != exitOK || !strings.Contains(out, "side      white") {
		t.Fatalf("position --fen (chess): exit %d\n%s", code, out)
	}
	// Xiangqi stays the default, and ICCS moves are Xiangqi's.
	if xq := treeOf(t, "--db", ccpdDB(t), "--moves", "h2e2"); xq.Games == 0 {
		t.Fatal("tree --moves h2e2 on CCPD finds no games")
	}
}
