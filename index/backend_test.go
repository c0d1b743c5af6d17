package index

import (
	"errors"
	"strings"
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
