package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/randgames"
)

// xqdbProc runs xqdb as a subprocess (the test binary standing in, see
// TestMain): a crash there fails the test instead of ending it.
func xqdbProc(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "XQDB_TEST_MAIN=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errb.String()
}

func ccpdImportArgs(db string) []string {
	// No progress lines: stderr holds the import's messages alone.
	return []string{"import", "--db", db, "--run-games", "300", "--progress", "never", "--json", fixture("ccpd-masters-3001.pgn.gz")}
}

// readableGames checks that reads work on db after an import stopped
// early (stats, a tree, a metadata query, each in its own process) and
// returns how many games it holds.
func readableGames(t *testing.T, db string) int {
	t.Helper()
	code, out, stderr := xqdbProc(t, "stats", "--db", db, "--json")
	var st statsJSON
	if code != exitOK || json.Unmarshal([]byte(out), &st) != nil {
		t.Fatalf("stats after the stop: exit %d: %s", code, firstLines(stderr))
	}
	// Every game but a header-only one reaches its game's start.
	atStart := 0
	for _, game := range []string{"xiangqi", "chess"} {
		code, out, stderr = xqdbProc(t, "tree", "--db", db, "--game", game, "--json")
		var tr treeJSON
		if code != exitOK || json.Unmarshal([]byte(out), &tr) != nil {
			t.Fatalf("%s tree after the stop: exit %d: %s", game, code, firstLines(stderr))
		}
		atStart += tr.Games
	}
	if atStart > st.Games || (atStart == 0) != (st.Games == 0) {
		t.Fatalf("trees after the stop: %d games at the start of %d", atStart, st.Games)
	}
	if code, _, stderr = xqdbProc(t, "games", "--db", db, "--query", `black:"胡榮華"`, "--limit", "1"); code != exitOK {
		t.Fatalf("games --query after the stop: exit %d: %s", code, firstLines(stderr))
	}
	return st.Games
}

// ccpdStored is what an import of the CCPD fixture stores: its 2,999 valid
// games and the one record with tags and no moves, kept as a header-only
// game (issue 13.5).
const ccpdStored = 3000

func firstLines(s string) string {
	lines := strings.SplitN(s, "\n", 6)
	return strings.Join(lines[:min(len(lines), 5)], "\n")
}

// finishImport reruns the import on db, which holds saved games from
// stopped imports: they must be reported as already in the database (not
// as duplicates), and the result must equal an uninterrupted import.
func finishImport(t *testing.T, db string, saved int) {
	t.Helper()
	code, out, stderr := xqdbProc(t, ccpdImportArgs(db)...)
	var sum importSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil || code != exitOK {
		t.Fatalf("final import: exit %d: %s", code, firstLines(stderr))
	}
	if sum.AlreadySaved != saved || sum.Duplicates != 0 || sum.Added+saved != ccpdStored {
		t.Fatalf("final import: %+v; want %d already saved, 0 duplicates, %d added", sum, saved, ccpdStored-saved)
	}
	sameAsUninterrupted(t, db)
}

func sameAsUninterrupted(t *testing.T, db string) {
	t.Helper()
	want := ccpdDB(t)
	stats := func(db string) statsJSON {
		code, out, _ := runCLI(t, "stats", "--db", db, "--json")
		var s statsJSON
		if err := json.Unmarshal([]byte(out), &s); err != nil || code != exitOK {
			t.Fatalf("stats: %v", err)
		}
		return s
	}
	if got, exp := stats(db), stats(want); got.Games != exp.Games || got.Plies != exp.Plies || got.Positions != exp.Positions {
		t.Fatalf("after the stops: %d games, %d plies, %d positions; uninterrupted: %d, %d, %d", got.Games, got.Plies, got.Positions, exp.Games, exp.Plies, exp.Positions)
	}
	for _, moves := range []string{"", "h2e2", "h2e2 h9g7 h0g2", "c3c4", "b2e2 h9g7"} {
		a, b := treeOf(t, "--db", db, "--moves", moves), treeOf(t, "--db", want, "--moves", moves)
		a.FEN, b.FEN = "", ""
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Fatalf("tree after %q differs:\n got %s\nwant %s", moves, ja, jb)
		}
	}
	for _, q := range []string{`black:"胡榮華"`, "date:>=1990", "result:1-0"} {
		if got, exp := countQuery(t, db, q), countQuery(t, want, q); got != exp || exp == 0 {
			t.Fatalf("metadata index differs after the stops: %s finds %d games, %d uninterrupted", q, got, exp)
		}
	}
}

// TestImportSurvivesKill stops a real import subprocess in each way an
// import can end early, then reruns it: reads work on what the stopped
// import committed (issue 13 points 8 and 9), the rerun reports those games
// as already in the database, and the database ends as an uninterrupted
// import leaves it.
func TestImportSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess kill test")
	}
	t.Run("kill -9", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "db")
		rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
		saved := 0
		for i := 0; i < 5; i++ {
			cmd := exec.Command(os.Args[0], ccpdImportArgs(db)...)
			cmd.Env = append(os.Environ(), "XQDB_TEST_MAIN=1")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Duration(50+rng.IntN(600)) * time.Millisecond)
			_ = cmd.Process.Signal(syscall.SIGKILL)
			_ = cmd.Wait()
			if _, err := os.Stat(filepath.Join(db, "badger", "MANIFEST")); err != nil {
				continue // killed before it created the store
			}
			n := readableGames(t, db)
			if n < saved {
				t.Fatalf("kill %d: %d games, %d before", i, n, saved)
			}
			saved = n
		}
		finishImport(t, db, saved)
	})
	t.Run("interrupt", func(t *testing.T) {
		// The signal must come after the import has set up its handler and
		// before it ends: adjust the delay until it does.
		delay := 800 * time.Millisecond
		for attempt := 0; ; attempt++ {
			db := filepath.Join(t.TempDir(), "db")
			args := slices.DeleteFunc(ccpdImportArgs(db), func(a string) bool { return a == "--json" }) // the message as users see it
			cmd := exec.Command(os.Args[0], args...)
			cmd.Env = append(os.Environ(), "XQDB_TEST_MAIN=1")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(delay)
			_ = cmd.Process.Signal(syscall.SIGINT)
			_ = cmd.Wait()
			code := cmd.ProcessState.ExitCode()
			if attempt < 6 && code == -1 { // killed before the handler was set
				delay *= 2
				continue
			}
			if attempt < 6 && code == exitOK { // finished before the signal
				delay /= 2
				continue
			}
			m := regexp.MustCompile(`(?m)^xqdb: interrupted: (\d+) games saved; rerun the same command to finish$`).FindStringSubmatch(stderr.String())
			if code != exitInterrupted || m == nil {
				t.Fatalf("after SIGINT: exit %d, stderr:\n%s", code, firstLines(stderr.String()))
			}
			saved, _ := strconv.Atoi(m[1])
			if n := readableGames(t, db); n != saved {
				t.Fatalf("interrupted import says %d games saved; the database holds %d", saved, n)
			}
			finishImport(t, db, saved)
			return
		}
	})
	t.Run("disk full", func(t *testing.T) {
		mnt := t.TempDir()
		if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=8m"); err != nil {
			t.Skipf("the disk-full case mounts a small tmpfs, which needs root: %v", err)
		}
		t.Cleanup(func() { _ = syscall.Unmount(mnt, syscall.MNT_DETACH) })
		db := filepath.Join(mnt, "db")
		code, _, stderr := xqdbProc(t, ccpdImportArgs(db)...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != exitFailure || len(lines) != 1 || !strings.Contains(lines[0], "disk full") {
			t.Fatalf("import on a full disk: exit %d, %d lines on stderr:\n%s", code, len(lines), firstLines(stderr))
		}
		saved := readableGames(t, db)
		if saved == 0 || saved == ccpdStored {
			t.Fatalf("the 8 MiB disk held %d games: adjust the test's disk size to fill it mid-import", saved)
		}
		if !strings.Contains(lines[0], strconv.Itoa(saved)+" games saved") {
			t.Errorf("disk full message does not say the %d games saved: %s", saved, lines[0])
		}
		if err := syscall.Mount("tmpfs", mnt, "tmpfs", syscall.MS_REMOUNT, "size=200m"); err != nil {
			t.Fatal(err)
		}
		finishImport(t, db, saved)
	})
}

// TestImportRefusesForeignFolder: --db naming a folder of other files
// (a typo, or the archive folder itself) is refused before anything is
// written there (issue 13 point 12).
func TestImportRefusesForeignFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "thesis.tex"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, "import", "--db", dir, fixture("pgnmentor-capablanca-fischer.pgn.gz"))
	if code != exitUsage || !strings.Contains(stderr, dir) || !strings.Contains(stderr, "not an xqdb database") {
		t.Fatalf("import into a folder of other files: exit %d: %s", code, stderr)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("the refused import wrote into %s: %v", dir, entries)
	}
	// An empty folder, or a new one, becomes a database.
	empty := t.TempDir()
	if code, _, stderr := runCLI(t, "import", "--db", empty, fixture("pgnmentor-capablanca-fischer.pgn.gz")); code != exitOK {
		t.Fatalf("import into an empty folder: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "import", "--db", empty, fixture("pgnmentor-capablanca-fischer.pgn.gz")); code != exitOK {
		t.Fatalf("import into an existing database: exit %d: %s", code, stderr)
	}
}

// TestGrowthImportsSurviveKill feeds one database as an archivist does, a
// file at a time, and kills every import but the first at random moments
// before rerunning it: after each rerun `check` finds nothing wrong, and the
// database ends as one uninterrupted import of the same files leaves it
// (issue 18: the kill-and-resume test with the new layout). The small
// imports (300 CCPD games, runs of 100) merge runs whole and delete the runs
// merges replaced a part at a time; the larger ones (2,000 random chess
// games, more than 1 MiB, into 9,000) write a tier merge of four runs a
// part at a time, the next imports going on with it (index/merge.go). A kill
// falls anywhere among these.
func TestGrowthImportsSurviveKill(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess kill test")
	}
	t.Run("small imports", func(t *testing.T) {
		dir := t.TempDir()
		db := filepath.Join(dir, "db")
		_ = importKilled(t, db, fixtureSlices(t, dir, 600, 300), "--run-games", "100")
		sameAsUninterrupted(t, db)
	})
	t.Run("larger imports", func(t *testing.T) {
		dir := t.TempDir()
		var files []string
		for i, n := range []int{9000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000} {
			name := filepath.Join(dir, fmt.Sprintf("random%d.pgn", i))
			f, err := os.Create(name)
			if err != nil {
				t.Fatal(err)
			}
			err = randgames.Write(f, engine.Chess, n, uint64(100+i))
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, name)
		}
		db := filepath.Join(dir, "db")
		if n := importKilled(t, db, files); n == 0 {
			t.Fatal("no import left a merge under way: the test no longer kills merges written in parts")
		}
		want := filepath.Join(dir, "uninterrupted")
		if code, _, stderr := runCLI(t, append([]string{"import", "--db", want, "--progress", "never"}, files...)...); code != exitOK {
			t.Fatalf("uninterrupted import: exit %d: %s", code, firstLines(stderr))
		}
		sample := samplePositions(t, want, 300)
		sameAnswers(t, "after the kills", answers(t, sample, "--db", want), answers(t, sample, "--db", db))
	})
}

// importKilled imports each file into db with args, killing each import but
// the first twice at random moments before it runs to its end; reads work
// after each kill, the rerun finds no duplicates (the games a killed
// import saved are "already saved"), and `check` passes after it. It
// returns how many imports left a merge under way.
func importKilled(t *testing.T, db string, files []string, args ...string) (merging int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 2))
	saved, killed, window := 0, 0, 300
	for i, file := range files {
		importArgs := append([]string{"import", "--db", db, "--progress", "never", "--json", file}, args...)
		for kill := 0; i > 0 && kill < 2; kill++ {
			cmd := exec.Command(os.Args[0], importArgs...)
			cmd.Env = append(os.Environ(), "XQDB_TEST_MAIN=1")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Duration(10+rng.IntN(window)) * time.Millisecond)
			_ = cmd.Process.Signal(syscall.SIGKILL)
			_ = cmd.Wait()
			// The window follows the imports' length: most kills must
			// fall while they run.
			if cmd.ProcessState.ExitCode() == -1 {
				killed++
				window += window / 8
			} else {
				window = max(50, window*2/3)
			}
			n := readableGames(t, db)
			if n < saved {
				t.Fatalf("%s, kill %d: %d games, %d before", filepath.Base(file), kill, n, saved)
			}
			saved = n
		}
		code, out, stderr := xqdbProc(t, importArgs...)
		var sum importSummary
		if err := json.Unmarshal([]byte(out), &sum); err != nil || code != exitOK {
			t.Fatalf("%s: exit %d: %s", filepath.Base(file), code, firstLines(stderr))
		}
		if sum.Duplicates != 0 {
			t.Fatalf("%s rerun: %+v", filepath.Base(file), sum)
		}
		if code, out, stderr := xqdbProc(t, "check", "--db", db); code != exitOK {
			t.Fatalf("check after %s: exit %d:\n%s%s", filepath.Base(file), code, firstLines(out), firstLines(stderr))
		}
		saved = readableGames(t, db)
		if mergeUnderWay(t, db) {
			merging++
		}
	}
	t.Logf("%d imports killed while they ran; %d left a merge under way", killed, merging)
	return merging
}

// mergeUnderWay reports whether xqdb stats says a merge of runs is under
// way in db.
func mergeUnderWay(t *testing.T, db string) bool {
	t.Helper()
	code, out, stderr := xqdbProc(t, "stats", "--db", db, "--json")
	var st struct {
		Entries struct {
			Runs struct {
				Merging *struct{ Runs int } `json:"merging"`
			} `json:"runs"`
		} `json:"entries"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &st) != nil {
		t.Fatalf("stats: exit %d: %s", code, firstLines(stderr))
	}
	return st.Entries.Runs.Merging != nil
}

// fixtureSlices writes the CCPD fixture's records to files in dir, the
// first records in the first file, then per in each of the others, in
// order.
func fixtureSlices(t *testing.T, dir string, first, per int) []string {
	t.Helper()
	records := splitFixture(t, "ccpd-masters-3001.pgn.gz", "[Game ")
	var files []string
	for i := 0; i < len(records); {
		n := per
		if i == 0 {
			n = first
		}
		end := min(i+n, len(records))
		name := filepath.Join(dir, fmt.Sprintf("slice%02d.pgn", len(files)))
		if err := os.WriteFile(name, []byte(strings.Join(records[i:end], "")), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
		i = end
	}
	return files
}
