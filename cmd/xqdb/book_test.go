package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/query/book"
	"github.com/xqdb/xqdb/query/book/polyglot"
	"github.com/xqdb/xqdb/replay"
)

func probeJSON(t *testing.T, args ...string) bookProbeJSON {
	t.Helper()
	code, out, stderr := runCLI(t, append([]string{"book", "probe", "--json"}, args...)...)
	if code != exitOK {
		t.Fatalf("book probe %v: exit %d: %s", args, code, stderr)
	}
	var p bookProbeJSON
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return p
}

func buildBook(t *testing.T, args ...string) bookBuildJSON {
	t.Helper()
	code, out, stderr := runCLI(t, append([]string{"book", "build", "--json"}, args...)...)
	if code != exitOK {
		t.Fatalf("book build %v: exit %d: %s", args, code, stderr)
	}
	var s bookBuildJSON
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return s
}

// TestBookRoundTrip builds a book of each format from the bundled games
// and probes it: the start position's moves are the games' first moves,
// and an illegal game is skipped and reported, not fatal.
func TestBookRoundTrip(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		fixture, out string
		first        string // a first move the fixture's games play often
		counts       bool
	}{
		{"pgnmentor-capablanca-fischer.pgn.gz", "c.bin", "e2e4", false},
		{"ccpd-masters-3001.pgn.gz", "x.dat", "h2e2", false},
		{"ccpd-masters-3001.pgn.gz", "x.obk", "h2e2", true},
	}
	for _, c := range cases {
		t.Run(c.out, func(t *testing.T) {
			book := filepath.Join(dir, c.out)
			report := filepath.Join(dir, c.out+".report")
			s := buildBook(t, "--report", report, "-o", book, fixture(c.fixture))
			if s.Skipped != 1 || s.Entries == 0 {
				t.Errorf("summary %+v: want 1 skipped game (the fixture's illegal one) and entries", s)
			}
			lines := readReport(t, report)
			if len(lines) != 1 || lines[0].Ply == 0 || lines[0].Move == "" || lines[0].Game == 0 || lines[0].Kind != "illegal" || !strings.HasSuffix(lines[0].File, c.fixture) {
				t.Errorf("report %+v: want the illegal game with its file, game, ply and move", lines)
			}
			p := probeJSON(t, "--book", book)
			if len(p.Moves) == 0 || p.Format == "" {
				t.Fatalf("start: %+v", p)
			}
			found, share := false, 0.0
			for _, m := range p.Moves {
				share += m.Share
				if m.UCI == c.first {
					found = true
				}
				if (m.Wins != nil) != c.counts {
					t.Errorf("%s: counts present = %v, want %v", m.UCI, m.Wins != nil, c.counts)
				}
			}
			if !found || share < 0.999 || share > 1.001 {
				t.Errorf("start moves %+v: want %s among them and shares summing to 1", p.Moves, c.first)
			}
		})
	}
}

// TestBookBuildWorkersCountInFileOrder: the workers ready each game's
// plies from the replay's keys and the builder counts them in file order:
// the .bin is byte for byte the one the library builds on one goroutine,
// playing every move itself, whatever the number of workers.
func TestBookBuildWorkersCountInFileOrder(t *testing.T) {
	src := fixture("pgnmentor-capablanca-fischer.pgn.gz")
	lib := polyglot.NewBuilder(polyglot.Options{MinGame: 3, MaxPly: 1024, Compat: true})
	err := book.ReadGames([]string{src}, engine.Chess, func(g *replay.Game) error {
		return lib.AddGame(g.StartFEN, g.Moves, g.Result)
	}, func(error) {})
	if err != nil {
		t.Fatal(err)
	}
	want := polyglot.Append(nil, lib.Entries())
	dir := t.TempDir()
	for _, jobs := range []string{"1", "4"} {
		out := filepath.Join(dir, "j"+jobs+".bin")
		s := buildBook(t, "--polyglot-compat", "--jobs", jobs, "-o", out, src)
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) || len(want) == 0 {
			t.Errorf("--jobs %s: %d entries, %d bytes; the library wrote %d bytes", jobs, s.Entries, len(got), len(want))
		}
	}
}

// TestBookMirrorProbesAlike: a Xiangqi book built from the shared
// archives answers a position and its mirror image with the same moves,
// mirrored, in both Xiangqi formats.
func TestBookMirrorProbesAlike(t *testing.T) {
	src := filepath.Join(enginetest.SharedData(t, "xiangqi/ccpd"), "ccpd_unique.utf8.pgn.gz")
	if _, err := os.Stat(src); err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	for _, name := range []string{"m.dat", "m.obk"} {
		book := filepath.Join(dir, name)
		buildBook(t, "--max-ply", "12", "-o", book, src)
		for _, line := range []string{"h2e2 h9g7 h0g2", "c3c4 g6g5", "h0g2 g6g5", "g3g4"} {
			a := probeJSON(t, "--book", book, "--moves", line)
			b := probeJSON(t, "--book", book, "--moves", strings.Join(mirrorICCS(strings.Fields(line)), " "))
			if len(a.Moves) == 0 {
				t.Errorf("%s %q: no book moves", name, line)
			}
			if len(a.Moves) != len(b.Moves) {
				t.Fatalf("%s %q: %d moves, mirror %d", name, line, len(a.Moves), len(b.Moves))
			}
			want := map[string]int{}
			for _, m := range a.Moves {
				want[mirrorICCS([]string{m.UCI})[0]] = m.Weight
			}
			for _, m := range b.Moves {
				if w, ok := want[m.UCI]; !ok || w != m.Weight {
					t.Errorf("%s %q: mirror move %s weight %d, want the mirror of the position's moves %v", name, line, m.UCI, m.Weight, want)
				}
			}
		}
	}
}

// mirrorICCS mirrors ICCS moves left to right (file a ↔ i).
func mirrorICCS(ms []string) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		b := []byte(m)
		b[0], b[2] = 'a'+'i'-b[0], 'a'+'i'-b[2]
		out[i] = string(b)
	}
	return out
}

// TestBookProbeShippedVectors: the shipped eleeye BOOK.DAT through the CLI.
func TestBookProbeShippedVectors(t *testing.T) {
	book := filepath.Join(enginetest.SharedData(t, "xiangqi/books"), "eleeye-BOOK.DAT")
	p := probeJSON(t, "--book", book, "--moves", "h2e2 h9g7")
	var got []string
	for _, m := range p.Moves {
		got = append(got, m.UCI+" "+strconv.Itoa(m.Weight))
		if m.Wins != nil {
			t.Error("BOOK.DAT keeps no counts: wins must be left out")
		}
	}
	if strings.Join(got, ", ") != "h0g2 955, g3g4 61, c3c4 3" || p.Format != "eleeye" {
		t.Errorf("got %v (%s)", got, p.Format)
	}
	if p.Moves[0].Move != "马二进三" { // --notation auto writes Chinese, as show does
		t.Errorf("display move %q, want 马二进三", p.Moves[0].Move)
	}
}

// TestBookFENStartHonoured: a game starting from a [FEN] is counted from
// that position.
func TestBookFENStartHonoured(t *testing.T) {
	dir := t.TempDir()
	pgn := filepath.Join(dir, "fen.pgn")
	fen := "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
	game := "[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n[Result \"1-0\"]\n\n3. Bb5 a6 1-0\n\n"
	if err := os.WriteFile(pgn, []byte(game), 0o644); err != nil {
		t.Fatal(err)
	}
	book := filepath.Join(dir, "f.bin")
	buildBook(t, "--min-games", "1", "-o", book, pgn)
	p := probeJSON(t, "--book", book, "--fen", fen)
	if len(p.Moves) != 1 || p.Moves[0].UCI != "f1b5" || p.Moves[0].Weight != 2 {
		t.Errorf("FEN position: %+v, want Bb5 weight 2", p.Moves)
	}
}

// TestBookFromDatabaseQuery builds from the database, filtered by a
// metadata query: every matching game is counted once at the start.
func TestBookFromDatabaseQuery(t *testing.T) {
	db := ccpdDB(t)
	dir := t.TempDir()
	q := `date:>="1990-01-01"`
	want := countQuery(t, db, q)
	book := filepath.Join(dir, "q.obk")
	s := buildBook(t, "--db", db, "--query", q, "--max-ply", "1", "-o", book)
	if s.Games != want || want == 0 {
		t.Fatalf("built from %d games, the query matches %d", s.Games, want)
	}
	all := buildBook(t, "--db", db, "--max-ply", "1", "-o", filepath.Join(dir, "all.obk"))
	if all.Games <= s.Games {
		t.Errorf("without --query %d games, with %d", all.Games, s.Games)
	}
	// The start is symmetric: a game is stored under its first move and
	// that move's mirror; counting the moves from files a–e counts each
	// game once.
	p := probeJSON(t, "--book", book)
	n := 0
	for _, m := range p.Moves {
		if m.UCI[0] <= 'e' {
			n += *m.Wins + *m.Draws + *m.Losses
		}
	}
	if n != want {
		t.Errorf("start position counts %d games, want %d", n, want)
	}
}

// TestBookMergeDumpInfo: merging a book with itself doubles every weight;
// dump and info describe it.
func TestBookMergeDumpInfo(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.bin")
	buildBook(t, "--max-ply", "6", "-o", a, fixture("pgnmentor-capablanca-fischer.pgn.gz"))
	m := filepath.Join(dir, "m.bin")
	if code, _, stderr := runCLI(t, "book", "merge", "-o", m, a, a); code != exitOK {
		t.Fatalf("merge: %d %s", code, stderr)
	}
	pa, pm := probeJSON(t, "--book", a), probeJSON(t, "--book", m)
	if len(pa.Moves) != len(pm.Moves) {
		t.Fatalf("merged %d moves, single %d", len(pm.Moves), len(pa.Moves))
	}
	for i := range pa.Moves {
		if pm.Moves[i].Weight != 2*pa.Moves[i].Weight {
			t.Errorf("%s: merged weight %d, want %d", pa.Moves[i].UCI, pm.Moves[i].Weight, 2*pa.Moves[i].Weight)
		}
	}
	code, out, _ := runCLI(t, "book", "dump", "--json", a)
	if code != exitOK {
		t.Fatal(code)
	}
	dumped := strings.Count(out, "\n")
	code, out, _ = runCLI(t, "book", "info", "--json", a)
	var info map[string]any
	if code != exitOK || json.Unmarshal([]byte(out), &info) != nil {
		t.Fatalf("info: %d %s", code, out)
	}
	if int(info["entries"].(float64)) != dumped || info["game"] != "chess" {
		t.Errorf("info %v, dump printed %d entries", info, dumped)
	}
}

// TestBookUsageErrors: flags that cannot work are usage errors (exit 2).
func TestBookUsageErrors(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"book", "build", "-o", filepath.Join(dir, "x.txt"), fixture("ccpd-masters-3001.pgn.gz")},                     // unknown extension
		{"book", "build", "--game", "chess", "-o", filepath.Join(dir, "x.dat"), fixture("ccpd-masters-3001.pgn.gz")},  // wrong game
		{"book", "build", "--min-games", "3", "-o", filepath.Join(dir, "x.dat"), fixture("ccpd-masters-3001.pgn.gz")}, // BOOK.DAT keeps no counts
		{"book", "build", "--only-white", "--only-black", "-o", filepath.Join(dir, "x.bin"), fixture("ccpd-masters-3001.pgn.gz")},
		{"book", "build", "-o", filepath.Join(dir, "x.bin")}, // no input
	} {
		if code, _, _ := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
