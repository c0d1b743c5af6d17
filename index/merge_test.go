package index

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// randomGames plays n seeded random Xiangqi games that share a few
// openings, so some positions are popular (stats entries) and most are
// not (tail postings).
func randomGames(t *testing.T, n int) []*Game {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 6))
	openings := [][]string{{"h2e2", "h9g7"}, {"h2e2", "b9c7"}, {"b2e2", "h9g7"}, {"c3c4"}}
	var out []*Game
	for i := 0; i < n; i++ {
		g := newGame(t, engine.Result(1+rng.IntN(3)), []Tag{{"Date", "1990.01.01"}}, openings[rng.IntN(len(openings))]...)
		p, _ := games.New(engine.Xiangqi, "")
		for _, m := range g.Moves {
			p.Make(m)
		}
		for ply := rng.IntN(30); ply > 0; ply-- {
			legal := p.AppendLegalMoves(nil)
			if len(legal) == 0 {
				break
			}
			m := legal[rng.IntN(len(legal))]
			p.Make(m)
			g.Moves = append(g.Moves, m)
			g.Keys = append(g.Keys, p.Key())
		}
		out = append(out, g)
	}
	return out
}

// TestMergedRunsAnswerAsOneRun imports the same games in many small runs
// over three imports, so the end of an import merges runs (MaxRuns 2), and
// in one run: every position of every game must have the same move
// statistics and the same games.
func TestMergedRunsAnswerAsOneRun(t *testing.T) {
	gs := randomGames(t, 90)
	build := func(opts Options, imports int) *Store {
		s, err := Open(t.TempDir(), opts)
		if err != nil {
			t.Fatal(err)
		}
		per := (len(gs) + imports - 1) / imports
		for from := 0; from < len(gs); from += per {
			w, err := s.NewWriter()
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range gs[from:min(from+per, len(gs))] {
				if _, err := w.Add(g); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
		}
		return s
	}
	merged := build(Options{RunGames: 7, PromoteAt: 3, MaxRuns: 2}, 3)
	defer merged.Close()
	if n := len(merged.man.LiveRuns); n > 2 {
		t.Fatalf("%d live runs after the imports: no merge happened", n)
	}
	one := build(Options{RunGames: 1000, PromoteAt: 3}, 1)
	defer one.Close()
	if len(one.man.LiveRuns) != 1 {
		t.Fatalf("reference store has %d runs", len(one.man.LiveRuns))
	}

	type gameAt struct {
		gid  uint32
		code uint16
	}
	answer := func(s *Store, p engine.Position) ([]MoveStats, []gameAt) {
		st, err := s.Position(engine.Xiangqi, p, true)
		if err != nil {
			t.Fatal(err)
		}
		moves := slices.Clone(st.Moves)
		slices.SortFunc(moves, func(a, b MoveStats) int { return cmp.Compare(a.Code, b.Code) })
		var hits []gameAt
		for _, h := range st.Games {
			hits = append(hits, gameAt{h.Gid, h.Code})
		}
		slices.SortFunc(hits, func(a, b gameAt) int { return cmp.Or(cmp.Compare(a.gid, b.gid), cmp.Compare(a.code, b.code)) })
		return moves, hits
	}
	checked, popular := 0, 0
	for _, g := range gs {
		p, _ := games.New(engine.Xiangqi, "")
		for i := 0; ; i++ {
			wantMoves, wantGames := answer(one, p)
			gotMoves, gotGames := answer(merged, p)
			if !slices.Equal(gotMoves, wantMoves) || !slices.Equal(gotGames, wantGames) {
				t.Fatalf("%s: merged runs say %+v %v, one run %+v %v", p.FEN(), gotMoves, gotGames, wantMoves, wantGames)
			}
			// A tree reads no game list: it must count the same games.
			for _, s := range []*Store{one, merged} {
				st, err := s.Position(engine.Xiangqi, p, false)
				if err != nil {
					t.Fatal(err)
				}
				moves := slices.Clone(st.Moves)
				slices.SortFunc(moves, func(a, b MoveStats) int { return cmp.Compare(a.Code, b.Code) })
				if !slices.Equal(moves, wantMoves) {
					t.Fatalf("%s: the tree says %+v, the game list %+v", p.FEN(), moves, wantMoves)
				}
			}
			if len(wantGames) >= 3 {
				popular++
			}
			checked++
			if i == len(g.Moves) {
				break
			}
			p.Make(g.Moves[i])
		}
	}
	if popular == 0 || checked < 500 {
		t.Fatalf("%d positions checked, %d popular: the test does not exercise stats entries", checked, popular)
	}
}
