package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/importer"
	"github.com/xqdb/xqdb/index"
	"github.com/xqdb/xqdb/query"
)

// fidelitySampleEvery is the share of each archive the fidelity test
// imports: every record of an archive (a file, or all the members of a
// .tar.gz) whose index in it is a multiple of this, the first one always,
// so that every PGN, XQF and DhtmlXQ source is represented. The whole of
// ../shared/data is too long for every test run: before the archives'
// members were read (200,000 records), importing, exporting and importing
// it again took 11.5 minutes on the project's shared 2-core machine, ten
// times as long as a tenth of it; with the members (260,000) it is more.
// This sample (13,500 records) takes about 30 CPU-seconds, half of them
// to read the whole folder once.
const fidelitySampleEvery = 20

// writeFidelitySample copies a deterministic sample of every record the
// importer reads under root into dir, each record's bytes as they stood
// (its encoding, its format), one output file per source file (an archive
// member gets its own). It returns how many records it kept.
func writeFidelitySample(t *testing.T, root, dir string) int {
	t.Helper()
	files, err := importer.Files([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	kept := 0
	for _, file := range files {
		r, err := importer.Open(file)
		if err != nil {
			continue // an unreadable file: nothing of it is imported either
		}
		r.ReuseRecord, r.MainLineOnly = true, true // the raw bytes are all it keeps
		var out *os.File
		outName := ""
		seen := 0 // records of this file (all its members)
		for {
			rec, err := r.Next()
			if rec == nil {
				if err == nil || !isRecordError(err) {
					break
				}
				continue
			}
			seen++
			if (seen-1)%fidelitySampleEvery != 0 {
				continue
			}
			rel, _ := filepath.Rel(root, rec.Source.File)
			name := filepath.Join(dir, strings.NewReplacer("/", "_", "!", "_").Replace(strings.TrimSuffix(rel, ".gz")))
			if name != outName {
				if out != nil {
					out.Close()
				}
				if out, err = os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
					t.Fatal(err)
				}
				outName = name
			}
			if _, err := out.Write(rec.Raw); err != nil {
				t.Fatal(err)
			}
			if rec.Format == "pgn" {
				out.WriteString("\n\n")
			}
			kept++
		}
		if out != nil {
			out.Close()
		}
		r.Close()
	}
	return kept
}

// isRecordError says whether a reader error concerns one record only, so
// that reading goes on.
func isRecordError(err error) bool {
	var pe *importer.ParseError
	return errors.As(err, &pe)
}

// storedGame is what the fidelity test compares of a stored game: its
// moves, start, result, rulings, the tags export writes and the
// attributes queries use. Ids, the stored source and the tags export
// writes (the second database's) are the same when nothing was lost.
func storedGame(r *index.Record, a index.Attrs) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v|%s|%v|%v|%v|%v\n", r.Game, r.StartFEN, r.Result, r.Termination, r.Moves, r.Rulings)
	renderNotes(&b, r.Game, r.Moves, r.Notes) // comments, NAGs and variations come back too
	// In name order: import keeps the set-up as the start position, and
	// export writes its tags after the others.
	var tags []string
	for _, t := range storedTags(r, false) {
		tags = append(tags, fmt.Sprintf("[%s %q]", t.Name, t.Value))
	}
	slices.Sort(tags)
	b.WriteString(strings.Join(tags, ""))
	fmt.Fprintf(&b, "\n%+v", index.Attrs{Game: a.Game, Result: a.Result, Date: a.Date, Rating: a.Rating, Plies: a.Plies, Hash: a.Hash})
	return b.String()
}

// TestExportFidelity imports a sample of every archive of ../shared/data,
// exports the database, imports the export into a second database, and
// asks both the same: every game and its metadata, the trees and game
// lists of 1,000 positions drawn from the games, and metadata queries
// (issue 13, Proof).
func TestExportFidelity(t *testing.T) {
	root := enginetest.SharedData(t, ".")
	dir := t.TempDir()
	sample, db1, db2, exported := filepath.Join(dir, "sample"), filepath.Join(dir, "db1"), filepath.Join(dir, "db2"), filepath.Join(dir, "export.pgn")
	if err := os.Mkdir(sample, 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	n := writeFidelitySample(t, root, sample)
	t.Logf("sample: %d records in %v", n, time.Since(start).Round(time.Millisecond))
	for _, step := range [][]string{
		{"import", "--db", db1, sample},
		{"export", "--db", db1, "-o", exported},
		{"import", "--db", db2, exported},
	} {
		start := time.Now()
		code, _, stderr := runCLI(t, step...)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", step[0], code, stderr)
		}
		t.Logf("%s: %v", step[0], time.Since(start).Round(time.Millisecond))
	}
	start = time.Now()
	s1, err := index.Open(db1, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s1.Close()
	s2, err := index.Open(db2, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if s1.Games() < n/2 || s1.Games() != s2.Games() {
		t.Fatalf("%d games in the first database (of %d records), %d in the second", s1.Games(), n, s2.Games())
	}

	// Every game, with its metadata.
	all := func(s *index.Store) []string {
		out := make([]string, s.Games())
		for i := range out {
			r, err := s.Game(uint32(i + 1))
			if err != nil {
				t.Fatal(err)
			}
			out[i] = storedGame(r, s.Attrs(uint32(i+1)))
		}
		return out
	}
	g1, g2 := all(s1), all(s2)
	sameGames(t, "the databases", g1, g2)
	t.Logf("games compared: %v", time.Since(start).Round(time.Millisecond))

	// The trees and game lists of positions the games reached.
	listed := func(s *index.Store, g []string, pos engine.Position) ([]string, int) {
		list, err := query.Games(s, query.ListRequest{Position: pos, Sort: query.ByDate})
		if err != nil {
			t.Fatal(err)
		}
		out := make([]string, len(list.Games))
		for i, row := range list.Games {
			out[i] = fmt.Sprintf("ply %d: %s", row.Ply, g[row.Record.ID-1])
		}
		return out, list.Total
	}
	rng := rand.New(rand.NewPCG(13, 15))
	for i := range 1000 {
		r, err := s1.Game(uint32(1 + rng.IntN(s1.Games())))
		if err != nil {
			t.Fatal(err)
		}
		pos, err := games.New(r.Game, r.StartFEN)
		if err != nil {
			t.Fatal(err)
		}
		ply := rng.IntN(len(r.Moves) + 1)
		for _, m := range r.Moves[:ply] {
			pos.Make(m)
		}
		t1, err := query.BuildTree(s1, pos, query.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t2, err := query.BuildTree(s2, pos, query.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(t1, t2) {
			t.Fatalf("position %d (%s, game %d ply %d): trees differ:\n%+v\n%+v", i, pos.FEN(), r.ID, ply, t1, t2)
		}
		if t1.Games > 200 {
			continue // the opening positions: their trees say enough
		}
		l1, n1 := listed(s1, g1, pos)
		l2, n2 := listed(s2, g2, pos)
		if n1 == 0 {
			t.Fatalf("position %d (%s): no game listed, though game %d reached it", i, pos.FEN(), r.ID)
		}
		if n1 != n2 {
			t.Fatalf("position %d (%s): %d games listed, %d after the round trip", i, pos.FEN(), n1, n2)
		}
		sameGames(t, fmt.Sprintf("the game lists of position %d (%s)", i, pos.FEN()), l1, l2)
	}

	// Metadata queries.
	found := 0
	for _, q := range []string{
		"game:xiangqi", "game:chess", `date:>="1990"`, `date:<"1950-06-01"`, "result:1-0", "result:0-1",
		"carlsen", `white:"Kasparov"`, "吕钦", `black:"胡榮華"`, "termination:checkmate", "ruling:perpetual_chase",
		`plies:>=120`, `whiteelo:>=2700`, "event:olympiad", "eco:B90", "site:moscow",
	} {
		ids1, err := s1.Search(nil, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		ids2, err := s2.Search(nil, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		pick := func(ids []uint32, g []string) []string {
			out := make([]string, len(ids))
			for i, id := range ids {
				out[i] = g[id-1]
			}
			return out
		}
		sameGames(t, "the games of "+q, pick(ids1, g1), pick(ids2, g2))
		if len(ids1) > 0 {
			found++
		}
	}
	if found < 12 {
		t.Fatalf("only %d metadata queries found games", found)
	}
	t.Logf("compared in %v", time.Since(start).Round(time.Millisecond))
}

// sameGames fails when two lists do not hold the same games (in any
// order), showing the first that differs.
func sameGames(t *testing.T, what string, a, b []string) {
	t.Helper()
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	if slices.Equal(a, b) {
		return
	}
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			t.Fatalf("%s differ (%d and %d games); first difference:\n%s\n%s", what, len(a), len(b), a[i], b[i])
		}
	}
	t.Fatalf("%s differ: %d and %d games", what, len(a), len(b))
}
