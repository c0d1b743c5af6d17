package selfplay

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/chess"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/engine/search"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

// judge replays g with the game's referee and returns the ruling at its
// last ply.
func judge(t *testing.T, cfg Config, g *Game) engine.Ruling {
	t.Helper()
	pos, err := games.New(cfg.Game, g.StartFEN)
	if err != nil {
		t.Fatal(err)
	}
	var ref interface {
		Play(engine.Move) engine.Ruling
		Last() engine.Ruling
	}
	switch p := pos.(type) {
	case *xiangqi.Position:
		ref = xiangqi.NewReferee(p, cfg.Rules)
	case *chess.Position:
		ref = chess.NewReferee(p)
	}
	for i, pl := range g.Plies {
		if !pos.IsLegal(pl.Move) {
			t.Fatalf("ply %d: illegal move", i+1)
		}
		if r := ref.Last(); r.Decided() {
			t.Fatalf("ply %d played after the game was decided (%v)", i+1, r)
		}
		ref.Play(pl.Move)
	}
	return ref.Last()
}

// TestGamesEndByTheRules: a game ends at the first ruling of the referee,
// with its result, or by adjudication before any.
func TestGamesEndByTheRules(t *testing.T) {
	for _, c := range []struct {
		game  engine.Game
		rules xiangqi.Rules
	}{{engine.Xiangqi, xiangqi.Rules{}}, {engine.Xiangqi, xiangqi.Rules{Profile: xiangqi.Asian}}, {engine.Chess, xiangqi.Rules{}}} {
		cfg := Config{Game: c.game, Rules: c.rules, Limits: search.Limits{Nodes: 800}, RandomPlies: 8, MaxPlies: 300}
		s := search.New(c.game, 1)
		for round := range 3 {
			g, err := Play(s, cfg, nil, rand.New(rand.NewPCG(7, uint64(round))))
			if err != nil {
				t.Fatal(err)
			}
			r := judge(t, cfg, g)
			switch {
			case g.Termination == "adjudication":
				if r.Decided() {
					t.Errorf("%s round %d: adjudicated although the rules decided (%v)", c.game, round, r)
				}
			case g.Termination != r.StatusName() || g.Result != r.Result:
				t.Errorf("%s round %d: ends %s %s, the referee says %s %s", c.game, round, g.Termination, g.Result, r.StatusName(), r.Result)
			}
			for i, pl := range g.Plies {
				if (i < 8) != (pl.Kind == "random") {
					t.Errorf("ply %d kind %q", i+1, pl.Kind)
				}
			}
		}
	}
}

func TestSameSeedSameGame(t *testing.T) {
	cfg := Config{Game: engine.Xiangqi, Limits: search.Limits{Nodes: 500}, RandomPlies: 2, Temperature: 1, TemperaturePlies: 4, MaxPlies: 60}
	a, _ := Play(search.New(engine.Xiangqi, 1), cfg, nil, rand.New(rand.NewPCG(1, 1)))
	s := search.New(engine.Xiangqi, 1)
	Play(s, cfg, nil, rand.New(rand.NewPCG(9, 9))) // another game first: Play clears what it learnt
	b, _ := Play(s, cfg, nil, rand.New(rand.NewPCG(1, 1)))
	if !slices.Equal(a.Plies, b.Plies) {
		t.Error("the same seed gave different games")
	}
	c, _ := Play(s, cfg, nil, rand.New(rand.NewPCG(2, 1)))
	if slices.Equal(a.Plies, c.Plies) {
		t.Error("another seed gave the same game")
	}
	for i, pl := range a.Plies[2:6] {
		if pl.Kind != "temperature" {
			t.Errorf("ply %d kind %q, want temperature", i+3, pl.Kind)
		}
	}
}

func TestOpeningAndAdjudication(t *testing.T) {
	p := chess.NewStart()
	e4, _ := p.ParseMove("e4", engine.SAN)
	// A queen up from the start: Black resigns by the scores.
	cfg := Config{Game: engine.Chess, StartFEN: "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		Limits: search.Limits{Nodes: 2000}, ResignScore: 500, ResignMoves: 3}
	g, err := Play(search.New(engine.Chess, 1), cfg, nil, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if g.Termination != "adjudication" || g.Result != engine.FirstWins || len(g.Plies) != 6 {
		t.Errorf("ended %s %s after %d plies (%s), want White winning by adjudication after 6", g.Termination, g.Result, len(g.Plies), g.Detail)
	}
	// Even material and a draw window: a draw by adjudication.
	cfg = Config{Game: engine.Chess, Limits: search.Limits{Nodes: 1000}, DrawScore: 300, DrawMoves: 4, DrawPly: 1}
	g, _ = Play(search.New(engine.Chess, 1), cfg, []engine.Move{e4}, rand.New(rand.NewPCG(1, 1)))
	if g.Termination != "adjudication" || g.Result != engine.Draw || g.Plies[0].Kind != "book" {
		t.Errorf("ended %s %s (%s), first ply %q", g.Termination, g.Result, g.Detail, g.Plies[0].Kind)
	}
	if _, err := Play(search.New(engine.Chess, 1), Config{Game: engine.Xiangqi}, nil, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("a chess searcher played Xiangqi")
	}
}
