package main

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/index"
	"github.com/xqdb/xqdb/query"
)

// splitFixture returns the records of a bundled gzip'd PGN as texts, cut
// before each line starting with first.
func splitFixture(t *testing.T, name, first string) []string {
	t.Helper()
	f, err := os.Open(fixture(name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	var out []string
	for {
		i := strings.Index(text[1:], "\n"+first)
		if i < 0 {
			return append(out, text)
		}
		out = append(out, text[:i+2])
		text = text[i+2:]
	}
}

func deleteJSON(t *testing.T, args ...string) deleteSummary {
	t.Helper()
	code, out, stderr := runCLI(t, append([]string{"delete", "--json"}, args...)...)
	var sum deleteSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil || code != exitOK {
		t.Fatalf("delete %v: exit %d: %s %s %v", args, code, out, stderr, err)
	}
	return sum
}

func statsOf(t *testing.T, db string) statsJSON {
	t.Helper()
	code, out, stderr := runCLI(t, "stats", "--json", "--db", db)
	var st statsJSON
	if err := json.Unmarshal([]byte(out), &st); err != nil || code != exitOK {
		t.Fatalf("stats: exit %d: %s %v", code, stderr, err)
	}
	return st
}

// After xqdb delete, the database answers trees, game lists, metadata
// searches and stats exactly as one that never imported the deleted games
// (issue 13, point 16): A and B are imported, B deleted, and every sampled
// position compared with a database of A alone, before and after compact.
func TestDeleteAnswersAsIfNeverImported(t *testing.T) {
	xq := splitFixture(t, "ccpd-masters-3001.pgn.gz", "[Game ")
	ch := splitFixture(t, "pgnmentor-capablanca-fischer.pgn.gz", "[Event ")
	if len(xq) != 3001 || len(ch) != 1425 {
		t.Fatalf("fixtures split into %d and %d records", len(xq), len(ch))
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.pgn"), filepath.Join(dir, "b.pgn")
	// B shares A's openings (so deleting it must take games out of
	// popular positions' aggregates and of tail blocks A's games share)
	// and repeats a few of A's games (which stay: A's copies were stored).
	aText := strings.Join(xq[:2000], "") + strings.Join(ch[:900], "")
	bText := strings.Join(xq[2000:], "") + strings.Join(ch[900:], "") + xq[7] + ch[3]
	if err := os.WriteFile(a, []byte(aText), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte(bText), 0o644); err != nil {
		t.Fatal(err)
	}
	onlyA, ab := filepath.Join(dir, "a"), filepath.Join(dir, "ab")
	sumA := importJSON(t, "--db", onlyA, "--run-games", "400", a)
	importJSON(t, "--db", ab, "--run-games", "400", a)
	sumB := importJSON(t, "--db", ab, "--run-games", "300", b)
	if sumB.Added == 0 || sumB.Duplicates < 2 {
		t.Fatalf("importing B: %+v", sumB)
	}

	// Positions to compare: every ply up to 24 of a sample of both files'
	// games, read from the database that holds them all.
	var samples []*index.Record
	s, err := index.Open(ab, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for gid := uint32(1); gid <= uint32(s.Games()); gid += 53 {
		r, err := s.Game(gid)
		if err != nil {
			t.Fatal(err)
		}
		samples = append(samples, r)
	}
	s.Close()

	// --dry-run counts and changes nothing.
	dry := deleteJSON(t, "--db", ab, "--source", b, "--dry-run")
	if dry.Deleted != sumB.Added || !dry.DryRun {
		t.Fatalf("dry run: %+v, want %d games", dry, sumB.Added)
	}
	if st := statsOf(t, ab); st.Games != sumA.Added+sumB.Added {
		t.Fatalf("after a dry run the database holds %d games, want %d", st.Games, sumA.Added+sumB.Added)
	}
	if del := deleteJSON(t, "--db", ab, "--source", b); del.Deleted != sumB.Added {
		t.Fatalf("deleted %d games, want %d", del.Deleted, sumB.Added)
	}
	compareDatabases(t, onlyA, ab, samples)
	code, out, stderr := runCLI(t, "compact", "--db", ab)
	if code != exitOK || !strings.Contains(out, "compacted") {
		t.Fatalf("compact: exit %d: %s %s", code, out, stderr)
	}
	compareDatabases(t, onlyA, ab, samples)

	// The de-duplication hashes went with the games: B imports again.
	if again := importJSON(t, "--db", ab, b); again.Added != sumB.Added {
		t.Fatalf("importing B after deleting it added %d, want %d", again.Added, sumB.Added)
	}
}

// compareDatabases checks that two databases answer alike.
func compareDatabases(t *testing.T, wantDB, gotDB string, samples []*index.Record) {
	t.Helper()
	stWant, stGot := statsOf(t, wantDB), statsOf(t, gotDB)
	if stWant.Games != stGot.Games || stWant.Plies != stGot.Plies || stWant.Positions != stGot.Positions ||
		fmt.Sprint(stWant.PerGame) != fmt.Sprint(stGot.PerGame) {
		t.Fatalf("stats: got %d games %v, %d plies, %d positions; want %d games %v, %d plies, %d positions",
			stGot.Games, stGot.PerGame, stGot.Plies, stGot.Positions, stWant.Games, stWant.PerGame, stWant.Plies, stWant.Positions)
	}
	want, err := index.Open(wantDB, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer want.Close()
	got, err := index.Open(gotDB, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()
	for _, q := range []string{"", "game:chess", "date:>=1990", "black:胡榮華", "white:fischer", "result:1-0"} {
		w, err1 := want.Search(nil, q)
		g, err2 := got.Search(nil, q)
		slices.Sort(w)
		slices.Sort(g)
		if err1 != nil || err2 != nil || !slices.Equal(w, g) {
			t.Fatalf("query %q: %d games, want %d (%v %v)", q, len(g), len(w), err1, err2)
		}
	}
	positions := 0
	for _, r := range samples {
		p, err := games.New(r.Game, r.StartFEN)
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply <= min(len(r.Moves), 24); ply++ {
			if ply > 0 {
				p.Make(r.Moves[ply-1])
			}
			positions++
			opts := []query.Options{{}}
			if ply%10 == 4 {
				opts = append(opts, query.Options{Query: "date:>=1995"})
			}
			if r.Game == engine.Xiangqi && ply%10 == 7 {
				opts = append(opts, query.Options{Mirror: true})
			}
			for _, opt := range opts {
				tw, err1 := query.BuildTree(want, p, opt)
				tg, err2 := query.BuildTree(got, p, opt)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if jw, jg := fmt.Sprintf("%+v", tw), fmt.Sprintf("%+v", tg); jw != jg {
					t.Fatalf("game %d ply %d %+v: tree\n%s\nwant\n%s", r.ID, ply, opt, jg, jw)
				}
				req := query.ListRequest{Position: p, Options: opt, Sort: query.ByDateDesc, Limit: 10}
				lw, err1 := query.Games(want, req)
				lg, err2 := query.Games(got, req)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if gw, gg := listIDs(lw), listIDs(lg); gw != gg {
					t.Fatalf("game %d ply %d %+v: games\n%s\nwant\n%s", r.ID, ply, opt, gg, gw)
				}
			}
			hw, err1 := want.Position(r.Game, p, true)
			hg, err2 := got.Position(r.Game, p, true)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if gw, gg := hitIDs(hw), hitIDs(hg); !slices.Equal(gw, gg) {
				t.Fatalf("game %d ply %d: %d games reached it, want %d", r.ID, ply, len(gg), len(gw))
			}
		}
	}
	if positions < 1000 {
		t.Fatalf("only %d positions compared", positions)
	}
}

func listIDs(l *query.GameList) string {
	var b strings.Builder
	fmt.Fprintf(&b, "total %d:", l.Total)
	for _, g := range l.Games {
		fmt.Fprintf(&b, " %d@%d", g.Record.ID, g.Ply)
	}
	return b.String()
}

func hitIDs(st *index.PositionStats) []uint32 {
	var out []uint32
	for _, g := range st.Games {
		out = append(out, g.Gid)
	}
	slices.Sort(out)
	return out
}

// delete selects games by id, by query and by source file, and refuses to
// run without a selection.
func TestDeleteSelects(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.pgn"), filepath.Join(dir, "b.pgn")
	if err := os.WriteFile(a, []byte(pgnGame("Tal, Mikhail", "Petrosian, Tigran", "1960.01.01", "1-0", "1. e4 c6 2. d4 d5")+
		pgnGame("Tal, Mikhail", "Smyslov, Vasily", "1959.01.01", "0-1", "1. e4 e5 2. Nf3 Nc6")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte(pgnGame("Botvinnik, Mikhail", "Petrosian, Tigran", "1963.01.01", "1/2-1/2", "1. d4 d5 2. c4 e6")+
		pgnGame("Botvinnik, Mikhail", "Smyslov, Vasily", "1954.01.01", "1-0", "1. d4 Nf6 2. c4 g6")), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "db")
	importJSON(t, "--db", db, a, b)
	// A member of an archive goes with --source of the archive.
	tgz := filepath.Join(dir, "c.tar.gz")
	writeTarGz(t, tgz, "c.pgn", pgnGame("Fischer, Robert", "Spassky, Boris", "1972.07.11", "0-1", "1. c4 e6 2. Nf3 d5"))
	importJSON(t, "--db", db, tgz)
	if sum := deleteJSON(t, "--db", db, "--source", tgz); sum.Deleted != 1 || sum.IDs[0] != 5 {
		t.Fatalf("delete --source of an archive: %+v", sum)
	}
	if code, _, stderr := runCLI(t, "delete", "--db", db); code != exitUsage {
		t.Fatalf("delete with no selection: exit %d (%s), want %d", code, stderr, exitUsage)
	}
	if code, _, stderr := runCLI(t, "delete", "--db", db, "7"); code != exitFailure || !strings.Contains(stderr, "7") {
		t.Fatalf("delete of a game that is not there: exit %d (%s), want %d", code, stderr, exitFailure)
	}
	tests := []struct {
		args []string
		want []uint32
	}{
		{[]string{"--query", "smyslov", "--dry-run"}, []uint32{2, 4}},
		{[]string{"2"}, []uint32{2}},
		{[]string{"--query", "white:botvinnik", "--source", a}, []uint32{1, 3, 4}}, // either selection
		{[]string{"--source", a}, nil},
	}
	for _, tc := range tests {
		sum := deleteJSON(t, append([]string{"--db", db}, tc.args...)...)
		if !slices.Equal(sum.IDs, tc.want) || sum.Deleted != len(tc.want) {
			t.Fatalf("delete %v: %+v, want ids %v", tc.args, sum, tc.want)
		}
	}
	code, out, _ := runCLI(t, "delete", "--db", db, "--query", "tal")
	if code != exitOK || !strings.Contains(out, "deleted 0 games") {
		t.Fatalf("delete of nothing: exit %d: %s", code, out)
	}
	if st := statsOf(t, db); st.Games != 0 {
		t.Fatalf("%d games left", st.Games)
	}
}

func writeTarGz(t *testing.T, path, name, content string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := gzip.NewWriter(f)
	tw := tar.NewWriter(zw)
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(content))}); err != nil {
		t.Fatal(err)
	}
	if _, err := tw.Write([]byte(content)); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
}
