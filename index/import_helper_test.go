package index

import (
	"cmp"
	"slices"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// importGames adds gs to s through one writer, as one import does, and
// returns the closed writer and how many of gs it found already stored.
func importGames(t testing.TB, s *Store, gs []*Game) (w *Writer, dups int) {
	t.Helper()
	w, err := s.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		res, err := w.Add(g)
		if err != nil {
			t.Fatal(err)
		}
		if res.Duplicate {
			dups++
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w, dups
}

// setSmallMergeGames sets smallMergeGames to n for the test: merges of
// more games are then left by small writes, and written in parts.
func setSmallMergeGames(t testing.TB, n int) {
	old := smallMergeGames
	smallMergeGames = n
	t.Cleanup(func() { smallMergeGames = old })
}

// gameAt is a game of an answer and the move it played there.
type gameAt struct {
	gid  uint32
	code uint16
}

// sortedAnswer returns an answer's moves and games in a fixed order, for
// comparing answers whose runs list them in different orders.
func sortedAnswer(st *PositionStats) ([]MoveStats, []gameAt) {
	moves := slices.Clone(st.Moves)
	slices.SortFunc(moves, func(a, b MoveStats) int { return cmp.Compare(a.Code, b.Code) })
	var hits []gameAt
	for _, h := range st.Games {
		hits = append(hits, gameAt{h.Gid, h.Code})
	}
	slices.SortFunc(hits, func(a, b gameAt) int { return cmp.Or(cmp.Compare(a.gid, b.gid), cmp.Compare(a.code, b.code)) })
	return moves, hits
}

// checkSameAnswers checks that stores a and b give the same tree and the same
// game list (sortedAnswer) at every position of every every-th game of
// gs, and returns how many positions it checked.
func checkSameAnswers(t *testing.T, a, b *Store, gs []*Game, every int) int {
	t.Helper()
	checked := 0
	for i, g := range gs {
		if i%every != 0 {
			continue
		}
		p, _ := games.New(engine.Xiangqi, "")
		for ply := 0; ; ply++ {
			for _, withGames := range []bool{true, false} {
				got, err := a.Position(engine.Xiangqi, p, withGames)
				if err != nil {
					t.Fatal(err)
				}
				want, err := b.Position(engine.Xiangqi, p, withGames)
				if err != nil {
					t.Fatal(err)
				}
				gotMoves, gotGames := sortedAnswer(got)
				wantMoves, wantGames := sortedAnswer(want)
				if !slices.Equal(gotMoves, wantMoves) || !slices.Equal(gotGames, wantGames) {
					t.Fatalf("%s (game list %v): %s says %+v %v, %s %+v %v", p.FEN(), withGames, a.dir, gotMoves, gotGames, b.dir, wantMoves, wantGames)
				}
			}
			checked++
			if ply == len(g.Moves) {
				break
			}
			p.Make(g.Moves[ply])
		}
	}
	return checked
}
