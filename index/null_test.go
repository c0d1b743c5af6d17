package index

import (
	"reflect"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// nullGame plays ICCS moves from the start, "--" being a null move.
func nullGame(t *testing.T, moves ...string) *Game {
	t.Helper()
	p, _ := games.New(engine.Xiangqi, "")
	g := &Game{Record: Record{Game: engine.Xiangqi, Result: engine.Draw, Tags: []Tag{{"Red", "N"}}}}
	g.Keys = append(g.Keys, p.Key())
	for _, s := range moves {
		m := engine.NullMove
		if s != "--" {
			var err error
			if m, err = p.ParseMove(s, engine.ICCS); err != nil {
				t.Fatal(err)
			}
		}
		p.Make(m)
		g.Moves = append(g.Moves, m)
		g.Keys = append(g.Keys, p.Key())
	}
	return g
}

// TestRecordKeepsNullMoves: a null move is stored (as games.NullRank) and
// read back, whether the replay ranked the moves or the encoder does.
func TestRecordKeepsNullMoves(t *testing.T) {
	g := nullGame(t, "h2e2", "--", "e2e6", "--", "h0g2")
	for _, ranked := range []bool{false, true} {
		r := g.Record
		r.Ranks = nil
		if ranked {
			p, _ := games.New(r.Game, "")
			for _, m := range r.Moves {
				r.Ranks = append(r.Ranks, uint8(games.RankLegal(p, m)))
				p.Make(m)
			}
		}
		b, err := encodeRecord(nil, &r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeRecord(1, b)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Moves, g.Moves) {
			t.Fatalf("ranked %v: moves %v, want %v", ranked, got.Moves, g.Moves)
		}
	}
}

// TestDecodeVersion2Record: a record written by version 2 (before null
// moves and annotations) still reads. The bytes are a version 2 record of
// the game h2e2 h9g7, Red "A", 1-0, from a.pgn game 1 at offset 0.
func TestDecodeVersion2Record(t *testing.T) {
	b := []byte{2, 1, 1, 0, 0, 1, 3, 'R', 'e', 'd', 1, 'A', 5, 'a', '.', 'p', 'g', 'n', 1, 0, 0, 2}
	p, _ := games.New(engine.Xiangqi, "")
	want := playICCS(t, "", "h2e2", "h9g7")
	for _, m := range want {
		b = append(b, byte(games.RankLegal(p, m)))
		p.Make(m)
	}
	r, err := decodeRecord(9, b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Moves, want) || r.Tag("Red") != "A" || r.Result != engine.FirstWins || r.Source.File != "a.pgn" {
		t.Fatalf("version 2 record read as %+v", r)
	}
}

// TestPositionSearchStopsAtNullMove: the positions before a null move are
// found (the game ends there for the tree); those after it are not.
func TestPositionSearchStopsAtNullMove(t *testing.T) {
	s, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w, err := s.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Add(nullGame(t, "h2e2", "h9g7", "--", "b9c7")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := s.Position(engine.Xiangqi, position(t, "h2e2"), true)
	if err != nil || len(st.Games) != 1 || st.Moves[0].Code == EndSlot {
		t.Fatalf("before the null move: %+v %v", st, err)
	}
	st, err = s.Position(engine.Xiangqi, position(t, "h2e2", "h9g7"), true)
	if err != nil || len(st.Games) != 1 || len(st.Moves) != 1 || st.Moves[0].Code != EndSlot {
		t.Fatalf("at the null move: %+v %v (want the game, ending there)", st, err)
	}
	after := position(t, "h2e2", "h9g7")
	after.Make(engine.NullMove)
	after2 := after.Clone()
	m, _ := after2.ParseMove("b9c7", engine.ICCS)
	after2.Make(m)
	for i, p := range []engine.Position{after, after2} {
		st, err = s.Position(engine.Xiangqi, p, true)
		if err != nil || len(st.Games) != 0 || len(st.Moves) != 0 {
			t.Fatalf("position %d after the null move: %+v %v (want nothing)", i, st, err)
		}
	}
	r, err := s.Game(1)
	if err != nil || len(r.Moves) != 4 || r.Moves[2] != engine.NullMove {
		t.Fatalf("stored game: %+v %v", r, err)
	}
}
