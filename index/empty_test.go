package index

import (
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// TestHeaderOnlyGames: games without moves are stored with their tags
// and found by metadata; position search skips them; two of them differ
// by their tags (not folded as duplicates of one empty move list), and
// the same one again is a duplicate.
func TestHeaderOnlyGames(t *testing.T) {
	s, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w, err := s.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	round := func(r, white, black string) *Game {
		return newGame(t, engine.SecondWins, []Tag{{"Event", "Rapid"}, {"Round", r}, {"Red", white}, {"Black", black}})
	}
	for i, c := range []struct {
		g   *Game
		dup bool
	}{
		{round("1.1", "Charkhalashvili", "Ju"), false},
		{round("1.2", "Lei", "Toncheva"), false},
		{newGame(t, engine.FirstWins, []Tag{{"Red", "A"}}, "h2e2", "h9g7"), false},
		{round("1.1", "Charkhalashvili", "Ju"), true},
	} {
		res, err := w.Add(c.g)
		if err != nil {
			t.Fatal(err)
		}
		if res.Duplicate != c.dup {
			t.Fatalf("game %d: duplicate %v, want %v", i, res.Duplicate, c.dup)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if s.Games() != 3 {
		t.Fatalf("%d games stored, want 3", s.Games())
	}
	st, err := s.Position(engine.Xiangqi, position(t), true)
	if err != nil || len(st.Games) != 1 {
		t.Fatalf("start position: %+v %v (want only the game with moves)", st, err)
	}
	ids, err := s.Search(nil, "black:toncheva")
	if err != nil || len(ids) != 1 || ids[0] != 2 {
		t.Fatalf("search: %v %v", ids, err)
	}
	r, err := s.Game(2)
	if err != nil || len(r.Moves) != 0 || r.Tag("Round") != "1.2" || r.Result != engine.SecondWins {
		t.Fatalf("game 2: %+v %v", r, err)
	}
}
