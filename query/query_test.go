package query

import (
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/engine/xiangqi"
	"github.com/xqdb/xqdb/index"
)

func play(t *testing.T, moves ...string) (engine.Position, []engine.Move, []uint64) {
	t.Helper()
	p, _ := games.New(engine.Xiangqi, "")
	keys := []uint64{p.Key()}
	var ms []engine.Move
	for _, s := range moves {
		m, err := p.ParseMove(s, engine.ICCS)
		if err != nil {
			t.Fatal(err)
		}
		p.Make(m)
		ms = append(ms, m)
		keys = append(keys, p.Key())
	}
	return p, ms, keys
}

func testStore(t *testing.T) *index.Store {
	t.Helper()
	s, err := index.Open(t.TempDir(), index.Options{RunGames: 2, PromoteAt: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	w, err := s.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range []struct {
		red    string
		date   string
		result engine.Result
		moves  []string
	}{
		{"Hu", "1990.01.01", engine.FirstWins, []string{"h2e2", "h9g7", "h0g2"}},
		{"Lu", "1991.01.01", engine.Draw, []string{"h2e2", "b9c7"}},
		{"Hu", "1992.01.01", engine.SecondWins, []string{"b2e2", "b9c7"}}, // mirror of h2e2 h9g7
		{"Xu", "1993.01.01", engine.FirstWins, []string{"c3c4"}},
	} {
		_, ms, keys := play(t, g.moves...)
		rec := index.Record{Game: engine.Xiangqi, Moves: ms, Result: g.result,
			Tags: []index.Tag{{Name: "Red", Value: g.red}, {Name: "Date", Value: g.date}, {Name: "Round", Value: string(rune('1' + i))}}}
		if _, err := w.Add(&index.Game{Record: rec, Keys: keys}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return s
}

func moveCount(tr *Tree, iccs string) int {
	for _, m := range tr.Moves {
		if xiangqi.ICCS(m.Move) == iccs {
			return m.Games
		}
	}
	return 0
}

func TestTreeTotalsAndMoves(t *testing.T) {
	s := testStore(t)
	start, _, _ := play(t)
	tr, err := BuildTree(s, start, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, m := range tr.Moves {
		sum += m.Games
	}
	if tr.Games != 4 || sum != tr.Games || moveCount(tr, "h2e2") != 2 || tr.FirstWins != 2 || tr.Draws != 1 || tr.SecondWins != 1 {
		t.Fatalf("start tree %+v", tr)
	}
	if tr.Moves[0].Move == 0 || xiangqi.ICCS(tr.Moves[0].Move) != "h2e2" {
		t.Errorf("most played move first, got %v", tr.Moves)
	}
}

func TestTreeMirrorMergesMirrorImages(t *testing.T) {
	s := testStore(t)
	start, _, _ := play(t)
	tr, _ := BuildTree(s, start, Options{Mirror: true})
	// The start is symmetric: mirroring must not double count it.
	if tr.Games != 4 {
		t.Fatalf("mirror start total %d, want 4", tr.Games)
	}
	after, _, _ := play(t, "h2e2")
	plain, _ := BuildTree(s, after, Options{})
	mirrored, _ := BuildTree(s, after, Options{Mirror: true})
	if plain.Games != 2 || mirrored.Games != 3 {
		t.Fatalf("after h2e2: %d games plain, %d with mirror; want 2 and 3", plain.Games, mirrored.Games)
	}
	// b2e2 b9c7 mirrors to h2e2 h9g7: merged with the real h9g7 game.
	if got := moveCount(mirrored, "h9g7"); got != 2 {
		t.Fatalf("h9g7 with mirror: %d games, want 2 (%+v)", got, mirrored.Moves)
	}
}

func TestTreeWithQueryAndGames(t *testing.T) {
	s := testStore(t)
	start, _, _ := play(t)
	tr, err := BuildTree(s, start, Options{Query: `white:hu`})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Games != 2 || moveCount(tr, "h2e2") != 1 || moveCount(tr, "b2e2") != 1 {
		t.Fatalf("filtered tree %+v", tr)
	}
	after, _, _ := play(t, "h2e2")
	gl, err := Games(s, ListRequest{Position: after, Sort: ByDate, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if gl.Total != 2 || len(gl.Games) != 2 || gl.Games[0].Ply != 1 || gl.Games[0].Record.Tag("Red") != "Hu" {
		t.Fatalf("games after h2e2: %+v", gl)
	}
	gl, _ = Games(s, ListRequest{Options: Options{Query: `date:>="1991"`}, Sort: ByDateDesc, Limit: 1, Offset: 1})
	if gl.Total != 3 || len(gl.Games) != 1 || gl.Games[0].Record.Tag("Red") != "Hu" {
		t.Fatalf("metadata query page: %+v", gl)
	}
	// With the mirror, the b2e2 game reached the mirror image at ply 1.
	gl, _ = Games(s, ListRequest{Position: after, Options: Options{Mirror: true, Query: "white:hu"}, Sort: ByDateDesc, Limit: 10})
	if gl.Total != 2 || gl.Games[0].Record.Tag("Date") != "1992.01.01" || gl.Games[0].Ply != 1 || gl.Games[1].Ply != 1 {
		t.Fatalf("mirrored games after h2e2 by Hu: %+v", gl)
	}
	// Query and Filter must both match, each with its own OR.
	gl, _ = Games(s, ListRequest{Options: Options{Query: "white:lu OR white:xu", Filter: "date:>=1993"}, Limit: 10})
	if gl.Total != 1 || gl.Games[0].Record.Tag("Red") != "Xu" {
		t.Fatalf("query and filter: %+v", gl)
	}
}

func TestParseSort(t *testing.T) {
	for in, want := range map[string]Sort{"date": ByDate, "-date": ByDateDesc, "": ByDateDesc, "rating": ByRating, "-rating": ByRatingDesc} {
		if got, err := ParseSort(in); err != nil || got != want {
			t.Errorf("ParseSort(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseSort("elo"); err == nil {
		t.Error("ParseSort took elo")
	}
}

// TestSortPutsUnknownLast: games sort by date or by the average of the
// players' known ratings, either way, and games without a date or a
// rating come last whichever way (issue 14).
func TestSortPutsUnknownLast(t *testing.T) {
	s, err := index.Open(t.TempDir(), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w, _ := s.NewWriter()
	for _, g := range []struct {
		red, date, redElo, blackElo string
		moves                       []string
	}{
		{"A", "1990.01.01", "2500", "2500", []string{"h2e2"}},
		{"B", "", "2700", "2600", []string{"b2e2"}},
		{"C", "1995.??.??", "", "", []string{"c3c4"}},
		{"D", "1980.05.01", "2400", "", []string{"g3g4"}},
	} {
		_, ms, keys := play(t, g.moves...)
		tags := []index.Tag{{Name: "Red", Value: g.red}, {Name: "Date", Value: g.date}, {Name: "RedElo", Value: g.redElo}, {Name: "BlackElo", Value: g.blackElo}}
		if _, err := w.Add(&index.Game{Record: index.Record{Game: engine.Xiangqi, Moves: ms, Result: engine.Draw, Tags: tags}, Keys: keys}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for sort, want := range map[Sort]string{ByDate: "DACB", ByDateDesc: "CADB", ByRating: "DABC", ByRatingDesc: "BADC"} {
		gl, err := Games(s, ListRequest{Sort: sort})
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, row := range gl.Games {
			got += row.Record.Tag("Red")
		}
		if got != want {
			t.Errorf("--sort %s: %s, want %s", sort, got, want)
		}
	}
}

// TestMirrorMergesSymmetricMoves: at a left-right symmetric position,
// --mirror folds each move with its mirror image (h2e2 with b2e2), so a
// row's count is its child's total (issue 14).
func TestMirrorMergesSymmetricMoves(t *testing.T) {
	s := testStore(t)
	start, _, _ := play(t)
	plain, _ := BuildTree(s, start, Options{})
	mirrored, _ := BuildTree(s, start, Options{Mirror: true})
	if moveCount(plain, "h2e2") != 2 || moveCount(plain, "b2e2") != 1 {
		t.Fatalf("plain start tree %+v", plain.Moves)
	}
	if moveCount(mirrored, "h2e2") != 3 || moveCount(mirrored, "b2e2") != 0 || mirrored.Games != plain.Games {
		t.Fatalf("mirrored start tree %+v", mirrored.Moves)
	}
	after, _, _ := play(t, "h2e2")
	child, _ := BuildTree(s, after, Options{Mirror: true})
	if child.Games != moveCount(mirrored, "h2e2") {
		t.Fatalf("child total %d, row %d", child.Games, moveCount(mirrored, "h2e2"))
	}
}
