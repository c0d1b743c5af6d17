package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/engine/search"
	"github.com/xqdb/xqdb/engine/search/selfplay"
	"github.com/xqdb/xqdb/engine/xiangqi"
	"github.com/xqdb/xqdb/importer"
	"github.com/xqdb/xqdb/index"
	"github.com/xqdb/xqdb/query/book"
	"github.com/xqdb/xqdb/replay"
)

// TestSelfplayGamesPassClean: every generated game is valid to xqdb clean
// (0 rejects, 0 result mismatches), and its Termination tag is what the
// referee finds at its last ply, with that result ("adjudication": the
// rules had decided nothing).
func TestSelfplayGamesPassClean(t *testing.T) {
	for _, c := range []struct{ game, rules string }{{"xiangqi", "vn"}, {"xiangqi", "asian"}, {"chess", "vn"}} {
		t.Run(c.game+"/"+c.rules, func(t *testing.T) {
			dir := t.TempDir()
			out, data := filepath.Join(dir, "games.pgn"), filepath.Join(dir, "games.plain")
			code, _, stderr := runCLI(t, "selfplay", "--game", c.game, "--games", "4", "--nodes", "600", "--random-plies", "8",
				"--max-plies", "240", "--jobs", "2", "--seed", "11", "--rules", c.rules, "--out", out, "--data", data)
			if code != exitOK {
				t.Fatalf("selfplay exit %d: %s", code, stderr)
			}
			code, stdout, stderr := runCLI(t, "clean", "--json", "--rules", c.rules, out)
			if code != exitOK {
				t.Fatalf("clean exit %d: %s", code, stderr)
			}
			var sum struct{ Games, Valid, Rejected, Result_mismatches int }
			if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
				t.Fatal(err)
			}
			if sum.Games != 4 || sum.Valid != 4 || sum.Rejected != 0 || sum.Result_mismatches != 0 {
				t.Errorf("clean: %s", stdout)
			}
			checkTerminations(t, out, c.rules)
			checkPlain(t, data, out)
		})
	}
}

func checkTerminations(t *testing.T, path, rules string) {
	t.Helper()
	prof, _ := xiangqi.ParseProfile(rules)
	rp := &replay.Replayer{Rules: xiangqi.Rules{Profile: prof}}
	var g replay.Game
	n := 0
	err := importer.Walk([]string{path}, func(rec *importer.Record, err error) error {
		if err != nil {
			return err
		}
		n++
		if err := rp.Replay(rec, &g); err != nil {
			return err
		}
		term, res := rec.Tag("Termination"), rec.Tag("Result")
		if rec.Tag("PlyCount") != itoa(len(g.Moves)) {
			t.Errorf("round %s: PlyCount %s, %d moves", rec.Tag("Round"), rec.Tag("PlyCount"), len(g.Moves))
		}
		switch {
		case term == "adjudication":
			if g.Termination.Decided() {
				t.Errorf("round %s: adjudicated, but the rules say %v", rec.Tag("Round"), g.Termination)
			}
		case term != g.Termination.StatusName() || res != g.Termination.Result.String():
			t.Errorf("round %s: Termination %s, Result %s; the referee: %s %s", rec.Tag("Round"), term, res, g.Termination.StatusName(), g.Termination.Result)
		}
		return nil
	})
	if err != nil || n == 0 {
		t.Fatalf("reading %s: %v (%d games)", path, err, n)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// checkPlain: one .plain entry per searched move (those with a
// {score/depth} comment), each with the five fields.
func checkPlain(t *testing.T, plain, pgnPath string) {
	t.Helper()
	b, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	entries := strings.Split(strings.TrimSuffix(string(b), "e\n"), "e\n")
	p, _ := os.ReadFile(pgnPath)
	searched := len(regexp.MustCompile(`\{[+-](\d+\.\d\d|M\d+)/\d+\}`).FindAll(p, -1))
	if len(entries) != searched {
		t.Errorf("%d .plain entries, %d searched moves", len(entries), searched)
	}
	re := regexp.MustCompile(`^fen [^\n]+\nmove [a-i1-9][0-9]*[a-i][0-9]+[qrbn]?\nscore -?\d+\nply \d+\nresult (-1|0|1)\n$`)
	for _, e := range entries[:min(len(entries), 50)] {
		if !re.MatchString(e) {
			t.Errorf("bad .plain entry %q", e)
		}
	}
}

// TestSelfplaySameSeed: the same seed gives the same games, whatever
// --jobs is.
func TestSelfplaySameSeed(t *testing.T) {
	games := func(jobs string) []string {
		code, stdout, stderr := runCLI(t, "selfplay", "--game", "chess", "--games", "3", "--nodes", "400", "--random-plies", "4",
			"--max-plies", "60", "--seed", "3", "--jobs", jobs)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		recs := strings.Split(strings.TrimSpace(stdout), "\n\n[Event")
		date := regexp.MustCompile(`\[Date "[^"]*"\]`)
		for i := range recs {
			recs[i] = date.ReplaceAllString(strings.TrimPrefix(recs[i], "[Event"), "")
		}
		sort.Strings(recs) // by finish order; Round tells them apart
		return recs
	}
	a, b := games("1"), games("2")
	if len(a) != 3 || strings.Join(a, "") != strings.Join(b, "") {
		t.Errorf("--jobs 1 and --jobs 2 differ:\n%s\n---\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
}

// TestSelfplayImportAndTreeOpenings: --import-into stores the games
// through import; --db then draws openings from that tree, shown as book
// moves.
func TestSelfplayImportAndTreeOpenings(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	code, _, stderr := runCLI(t, "selfplay", "--game", "xiangqi", "--games", "3", "--nodes", "300", "--random-plies", "2",
		"--max-plies", "40", "--seed", "4", "--import-into", db, "--out", filepath.Join(dir, "a.pgn"))
	if code != exitOK {
		t.Fatalf("selfplay exit %d: %s", code, stderr)
	}
	code, stdout, stderr := runCLI(t, "tree", "--db", db, "--game", "xiangqi", "--json")
	if code != exitOK {
		t.Fatalf("tree exit %d: %s", code, stderr)
	}
	var tree struct{ Games int }
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil || tree.Games != 3 {
		t.Fatalf("tree after import: %s (%v)", stdout, err)
	}
	code, stdout, stderr = runCLI(t, "selfplay", "--game", "xiangqi", "--games", "2", "--nodes", "300", "--max-plies", "10",
		"--seed", "4", "--db", db, "--db-plies", "2")
	if code != exitOK {
		t.Fatalf("selfplay --db exit %d: %s", code, stderr)
	}
	if n := strings.Count(stdout, "{book}"); n != 4 {
		t.Errorf("%d book moves, want 2 per game:\n%s", n, stdout)
	}
}

func TestSelfplayUsage(t *testing.T) {
	for _, args := range [][]string{
		{"selfplay", "--nodes", "10", "--depth", "2"},
		{"selfplay", "--games", "0"},
		{"selfplay", "--game", "shogi"},
		{"selfplay", "--depth", "0"},
		{"selfplay", "extra"},
		{"selfplay", "--rules", "fide"},
	} {
		if code, _, _ := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
	if code, _, _ := runCLI(t, "selfplay", "--games", "1", "--db", filepath.Join(t.TempDir(), "none")); code != exitFailure {
		t.Errorf("a missing --db: exit %d, want 1", code)
	}
}

func TestPlyComment(t *testing.T) {
	for _, c := range []struct {
		p    selfplay.Ply
		want string
	}{
		{selfplay.Ply{Score: 35, Depth: 12}, "+0.35/12"},
		{selfplay.Ply{Score: -120, Depth: 7}, "-1.20/7"},
		{selfplay.Ply{Score: search.Mate - 3, Depth: 9}, "+M3"},
		{selfplay.Ply{Score: -search.Mate + 4, Depth: 9}, "-M4"},
		{selfplay.Ply{Kind: "book"}, "book"},
	} {
		if got := plyComment(c.p); !strings.HasPrefix(got, c.want) {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}

// TestSelfplayBookOpenings: --book draws each game's first plies from an
// opening book of either game (Polyglot .bin for chess, BOOK.DAT and .obk
// for Xiangqi): every {book} move is one the book holds in its position,
// the games open differently, and a book of the other game is a usage
// error.
func TestSelfplayBookOpenings(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ game, fixture, out string }{
		{"chess", "pgnmentor-capablanca-fischer.pgn.gz", "c.bin"},
		{"xiangqi", "ccpd-masters-3001.pgn.gz", "x.dat"},
		{"xiangqi", "ccpd-masters-3001.pgn.gz", "x.obk"},
	} {
		t.Run(c.out, func(t *testing.T) {
			path := filepath.Join(dir, c.out)
			buildBook(t, "--max-ply", "12", "-o", path, fixture(c.fixture))
			out := filepath.Join(dir, c.out+".pgn")
			code, _, stderr := runCLI(t, "selfplay", "--game", c.game, "--games", "4", "--nodes", "200", "--max-plies", "12",
				"--seed", "5", "--book", path, "--book-plies", "6", "--out", out)
			if code != exitOK {
				t.Fatalf("selfplay --book exit %d: %s", code, stderr)
			}
			b, err := book.Open(path, "")
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			var rp replay.Replayer
			var g replay.Game
			openings := map[string]bool{}
			err = importer.Walk([]string{out}, func(rec *importer.Record, err error) error {
				if err != nil {
					return err
				}
				if err := rp.Replay(rec, &g); err != nil {
					return err
				}
				pos, err := games.New(g.Game, "")
				if err != nil {
					return err
				}
				var line []string
				nBook := strings.Count(string(rec.Text), "{book}")
				for i, m := range g.Moves[:min(nBook, len(g.Moves))] {
					hits, err := b.Probe(pos)
					if err != nil {
						return err
					}
					in := false
					for _, h := range hits {
						in = in || h.Move == m && h.Weight > 0
					}
					text := pos.FormatMove(m, engine.UCI)
					if !in {
						t.Errorf("round %s ply %d: %s is not a book move of %s", rec.Tag("Round"), i+1, text, pos.FEN())
					}
					line = append(line, text)
					pos.Make(m)
				}
				if len(line) != 6 {
					t.Errorf("round %s: %d book plies, want 6: %v", rec.Tag("Round"), len(line), line)
				}
				openings[strings.Join(line, " ")] = true
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(openings) < 2 {
				t.Errorf("4 games, %d distinct openings: %v", len(openings), openings)
			}
		})
	}
	other := map[string]string{"chess": "x.dat", "xiangqi": "c.bin"}
	for game, b := range other {
		if code, _, stderr := runCLI(t, "selfplay", "--game", game, "--games", "1", "--book", filepath.Join(dir, b)); code != exitUsage {
			t.Errorf("a %s game from %s: exit %d (%s), want %d", game, b, code, stderr, exitUsage)
		}
	}
}

// TestSelfplayImportsEachGameAsItFinishes: --import-into stores a game
// as soon as it finishes (the first import run holds the first game
// alone, and the database holds it when the run ends), not in batches at
// the end; a run interrupted by SIGINT exits with 130 and its database
// holds every finished game, the games of its PGN.
func TestSelfplayImportsEachGameAsItFinishes(t *testing.T) {
	dbGames := func(dir string) int {
		s, err := index.Open(dir, index.Options{ReadOnly: true})
		if err != nil {
			t.Errorf("open %s: %v", dir, err)
			return -1
		}
		defer s.Close()
		return s.Games()
	}
	defer func() { selfplayImportHook = nil }()
	var counts []int
	selfplayImportHook = func(dir string, runs int) { counts = append(counts, dbGames(dir)) }
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	code, stdout, stderr := runCLI(t, "selfplay", "--game", "xiangqi", "--games", "4", "--nodes", "300", "--random-plies", "4",
		"--max-plies", "30", "--seed", "8", "--jobs", "1", "--import-into", db, "--json", "--out", filepath.Join(dir, "a.pgn"))
	if code != exitOK {
		t.Fatalf("selfplay exit %d: %s", code, stderr)
	}
	var sum selfplaySummary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatal(err)
	}
	if len(counts) < 2 || counts[0] != 1 || counts[len(counts)-1] != 4 || sum.ImportRuns != len(counts) || !sum.Imported {
		t.Errorf("games in the database after each import run: %v (summary %+v); want the first game alone first, all 4 at the end", counts, sum)
	}
	for i := 1; i < len(counts); i++ {
		if counts[i] <= counts[i-1] {
			t.Errorf("import runs %v: a run added nothing", counts)
		}
	}

	// Interrupted once the first game is in the database.
	counts = nil
	selfplayImportHook = func(dir string, runs int) {
		if runs == 1 {
			if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
				t.Error(err)
			}
		}
	}
	db = filepath.Join(dir, "db2")
	out := filepath.Join(dir, "b.pgn")
	code, _, stderr = runCLI(t, "selfplay", "--game", "xiangqi", "--games", "1000", "--nodes", "300", "--random-plies", "4",
		"--max-plies", "30", "--seed", "8", "--jobs", "1", "--import-into", db, "--out", out)
	if code != exitInterrupted || !strings.Contains(stderr, "interrupted") {
		t.Fatalf("interrupted selfplay: exit %d, %q; want %d", code, stderr, exitInterrupted)
	}
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	written := strings.Count(string(text), "[Event ")
	if got := dbGames(db); written == 0 || written >= 1000 || got != written {
		t.Errorf("interrupted: %d games written, %d in the database; want every written game stored, and fewer than 1000", written, got)
	}
}
