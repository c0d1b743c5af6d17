package index

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// TestOpenDBThroughTheInterface writes and reads a folder database only
// through DB and GameWriter, as the commands do.
func TestOpenDBThroughTheInterface(t *testing.T) {
	dir := t.TempDir()
	db, err := OpenDB(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := db.NewGameWriter()
	if err != nil {
		t.Fatal(err)
	}
	games := []*Game{
		newGame(t, engine.FirstWins, []Tag{{"Red", "Hu Ronghua"}, {"Black", "Lü Qin"}}, "h2e2", "h9g7"),
		newGame(t, engine.Draw, []Tag{{"Red", "Xu Yinchuan"}}, "h2e2", "b9c7", "b0c2"),
	}
	for _, g := range append(games, games[0]) {
		p, err := Prepare(g)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.AddPrepared(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = OpenDB(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, ok := db.(*Store); !ok {
		t.Errorf("OpenDB(folder) = %T, want *Store", db)
	}
	sum, err := db.Summary()
	if err != nil {
		t.Fatal(err)
	}
	// Every game counts each position it reached once: 3 + 4 (the
	// repeated first game adds nothing).
	if got, want := [3]int64{int64(sum.Games), sum.Plies, sum.Positions}, [3]int64{2, 5, 7}; got != want {
		t.Errorf("games, plies, positions = %v, want %v", got, want)
	}
	if sum.PerGame["xiangqi"] != 2 || sum.Bytes["badger"] == 0 {
		t.Errorf("summary = %+v", sum)
	}
	st, err := db.Position(engine.Xiangqi, position(t, "h2e2"), true)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Games) != 2 || len(st.Moves) != 2 {
		t.Errorf("after h2e2: %d games, %d moves; want 2 and 2", len(st.Games), len(st.Moves))
	}
	ids, err := db.Search(nil, `red:"hu ronghua"`)
	if err != nil || len(ids) != 1 || ids[0] != 1 {
		t.Errorf("Search = %v, %v; want [1]", ids, err)
	}
}

func TestOpenDBBackends(t *testing.T) {
	if _, err := OpenDB("nosuch://host/db", Options{}); err == nil || !strings.Contains(err.Error(), "no backend for nosuch://") {
		t.Errorf("unknown scheme: err = %v", err)
	}
	errFake := errors.New("fake opened")
	var gotURL string
	RegisterBackend("fake", func(url string, opts Options) (DB, error) { gotURL = url; return nil, errFake })
	if _, err := OpenDB("fake://h:1/x", Options{}); !errors.Is(err, errFake) || gotURL != "fake://h:1/x" {
		t.Errorf("registered scheme: err = %v, url %q", err, gotURL)
	}
	for _, tc := range []struct {
		in   string
		want bool
	}{{"clickhouse://127.0.0.1:8123/xqdb", true}, {"./xqdb-data", false}, {"/tmp/a://b", false}, {"C:\\x", false}} {
		if got := IsURL(tc.in); got != tc.want {
			t.Errorf("IsURL(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// countingSource is a Store that counts its RawRecords calls and fails
// the test when one comes after stopped is set.
type countingSource struct {
	*Store
	t       *testing.T
	calls   atomic.Int32
	stopped atomic.Bool
}

func (c *countingSource) RawRecords(gids []uint32) ([][]byte, error) {
	if c.stopped.Load() {
		c.t.Error("RawRecords called after CopyGames returned")
	}
	c.calls.Add(1)
	return c.Store.RawRecords(gids)
}

// recordingWriter keeps the records added, and fails at the failAt-th
// (from 1; 0: never).
type recordingWriter struct {
	records [][]byte
	failAt  int
}

var errWriter = errors.New("writer failed")

func (w *recordingWriter) SetDedupe(Dedupe) {}
func (w *recordingWriter) Close() error     { return nil }
func (w *recordingWriter) AddPrepared(p *Prepared) (AddResult, error) {
	if len(w.records)+1 == w.failAt {
		return AddResult{}, errWriter
	}
	w.records = append(w.records, p.Encoded())
	return AddResult{Gid: uint32(len(w.records))}, nil
}

// TestCopyGamesPipelined: CopyGames prepares the next chunk of games while
// the writer adds the one before, yet adds every game once, in id order,
// with its stored bytes; when the writer fails it returns that error and
// has stopped reading the source.
func TestCopyGamesPipelined(t *testing.T) {
	defer func(n int) { copyChunk = n }(copyChunk)
	copyChunk = 4
	s, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w, _ := s.NewWriter()
	openings := [][]string{{"h2e2", "h9g7"}, {"b2e2", "b9c7", "b0c2"}, {"c3c4"}, {"h0g2", "c6c5", "i0h0"}, {"g3g4"}}
	for i := range 23 {
		g := newGame(t, engine.Result(i%3), []Tag{{"Round", fmt.Sprint(i)}, {"Date", fmt.Sprintf("1990.01.%02d", i+1)}}, openings[i%len(openings)]...)
		if _, err := w.Add(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	gids := make([]uint32, 23)
	for i := range gids {
		gids[i] = uint32(i + 1)
	}
	want, err := s.RawRecords(gids)
	if err != nil {
		t.Fatal(err)
	}
	src := &countingSource{Store: s, t: t}
	all := &recordingWriter{}
	if err := CopyGames(src, all, nil, nil); err != nil {
		t.Fatal(err)
	}
	if len(all.records) != len(want) {
		t.Fatalf("copied %d games, want %d", len(all.records), len(want))
	}
	for i := range want {
		if !bytes.Equal(all.records[i], want[i]) {
			t.Errorf("game %d: copied %x, stored %x", i+1, all.records[i], want[i])
		}
	}
	src = &countingSource{Store: s, t: t}
	failing := &recordingWriter{failAt: 6}
	if err := CopyGames(src, failing, nil, nil); !errors.Is(err, errWriter) {
		t.Errorf("CopyGames into a failing writer: %v, want %v", err, errWriter)
	}
	src.stopped.Store(true)
	// It failed in the second chunk: the third may wait ready and the
	// fourth be read ahead, no more.
	if n := src.calls.Load(); n > 4 {
		t.Errorf("%d chunks read for a copy that failed in the second", n)
	}
}

// termsWriter is a GameWriter that stores terms itself (a TermRower): it
// keeps the terms each game came with.
type termsWriter struct {
	recordingWriter
	terms    [][]string // per game: "field term pos", sorted
	fields   int        // field values handed over
	rowsMade atomic.Int64
}

func (w *termsWriter) TermRows(ft *FieldTerms) []byte {
	w.rowsMade.Add(1)
	return []byte(ft.Field)
}

func (w *termsWriter) AddPrepared(p *Prepared) (AddResult, error) {
	var got []string
	w.fields += len(p.Terms())
	for _, ft := range p.Terms() {
		if string(ft.Rows) != ft.Field {
			return AddResult{}, fmt.Errorf("field %s came with rows %q, not TermRows'", ft.Field, ft.Rows)
		}
		for i, term := range ft.Terms {
			got = append(got, fmt.Sprintf("%s %s %d", ft.Field, term, ft.Pos[i]))
		}
	}
	slices.Sort(got)
	w.terms = append(w.terms, got)
	return w.recordingWriter.AddPrepared(p)
}

// TestCopyGamesListsTermsWhilePreparing: into a writer that stores the
// metadata terms itself, CopyGames hands each game over with its terms
// already listed (on the preparing goroutines, not the one that adds the
// games), the same terms EachTerm lists, with the rows the writer makes
// of each field value made once per value and goroutine.
func TestCopyGamesListsTermsWhilePreparing(t *testing.T) {
	defer func(n int) { copyChunk = n }(copyChunk)
	copyChunk = 4
	s, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w, _ := s.NewWriter()
	const n = 23
	for i := range n {
		g := newGame(t, engine.Result(i%3), []Tag{{"White", fmt.Sprint("Player ", i%4)}, {"Black", "Lü Qin"}, {"Event", "Cup"},
			{"Date", fmt.Sprintf("1990.01.%02d", i+1)}}, "h2e2", "h9g7")
		if _, err := w.Add(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tw := &termsWriter{}
	if err := CopyGames(s, tw, nil, nil); err != nil {
		t.Fatal(err)
	}
	if len(tw.terms) != n {
		t.Fatalf("copied %d games, want %d", len(tw.terms), n)
	}
	for gid := uint32(1); gid <= n; gid++ {
		r, err := s.Game(gid)
		if err != nil {
			t.Fatal(err)
		}
		a := s.Attrs(gid)
		var want []string
		RecordTerms(r, a, func(field, term string, pos uint32) {
			want = append(want, fmt.Sprintf("%s %s %d", field, term, pos))
		})
		slices.Sort(want)
		if got := tw.terms[gid-1]; !slices.Equal(got, want) {
			t.Errorf("game %d came with terms\n%v\nEachTerm lists\n%v", gid, got, want)
		}
	}
	// Fields shared by games (Black, Event, plies, game, …) are made once
	// per preparing goroutine, not once per game.
	if made := tw.rowsMade.Load(); made*2 >= int64(tw.fields) {
		t.Errorf("TermRows called %d times for %d field values", made, tw.fields)
	}
}
