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

// TestHeaderOnlyIdentity (issue 13's open question): a header-only game
// is a duplicate of another only when all its tags match, as a SCID user
// expects; the same players, date and result are not enough when another
// tag tells the games apart, with or without Event, Site and Round. What
// an export adds or rewrites (XqdbSource, Game, Result, the date's
// spelling, --annotate's Termination) does not make another game, nor do
// the case and order of tag names or empty tags.
func TestHeaderOnlyIdentity(t *testing.T) {
	base := []Tag{{"White", "Carlsen, M."}, {"Black", "Nakamura, H."}, {"Date", "2024.12.28"}, {"Result", "1-0"}}
	with := func(extra ...Tag) []Tag { return append(append([]Tag(nil), base...), extra...) }
	tests := []struct {
		name   string
		a, b   []Tag
		folded bool
	}{
		{"the same tags", with(), with(), true},
		{"another time control, no Event, Site or Round", with(Tag{"TimeControl", "900+10"}), with(Tag{"TimeControl", "180+2"}), false},
		{"a tag only one has", with(), with(Tag{"Board", "3"}), false},
		{"another rating", with(Tag{"WhiteElo", "2830"}), with(Tag{"WhiteElo", "2831"}), false},
		{"another round", with(Tag{"Round", "1"}), with(Tag{"Round", "2"}), false},
		{"its export", with(Tag{"TimeControl", "900+10"}),
			[]Tag{{"white", "Carlsen, M."}, {"TimeControl", "900+10"}, {"Black", "Nakamura, H."}, {"Date", "2024-12-28"}, {"Game", "Chinese Chess"},
				{"Result", "1-0"}, {"Termination", "normal"}, {"XqdbSource", "/a/b.pgn#7"}, {"Annotator", ""}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Open(t.TempDir(), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			w, err := s.NewWriter()
			if err != nil {
				t.Fatal(err)
			}
			for i, tags := range [][]Tag{tt.a, tt.b} {
				res, err := w.Add(newGame(t, engine.FirstWins, tags))
				if err != nil {
					t.Fatal(err)
				}
				if want := i == 1 && tt.folded; res.Duplicate != want {
					t.Errorf("game %d: duplicate %v, want %v", i+1, res.Duplicate, want)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
