// Package selfplay plays games between two instances of xqdb's search
// (engine/search) and yields their records: the moves with the score and
// depth each was played at, and how the game ended by the rules (the
// game's referee: RULES X12–X16 for Xiangqi, C4–C5 for chess) or by
// adjudication on the scores, as match tools such as cutechess-cli
// adjudicate. It knows nothing of files or storage: cmd/xqdb selfplay
// writes the records as PGN, training data or database games.
package selfplay

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/chess"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/engine/search"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

// Config says how games are played.
type Config struct {
	Game engine.Game
	// StartFEN is the start position ("" for the standard start).
	StartFEN string
	// Limits bound each move's search.
	Limits search.Limits
	// RandomPlies are played uniformly at random after the opening moves.
	RandomPlies int
	// Temperature, when positive, picks the next TemperaturePlies moves at
	// random with probability proportional to exp(score/(100*T)), T in
	// pawns, scores from a shallow search of every move.
	Temperature      float64
	TemperaturePlies int
	// Rules are the Xiangqi rules the referee and the search apply.
	Rules xiangqi.Rules
	// MaxPlies ends a game as a draw by adjudication (0: 1000).
	MaxPlies int
	// Resign: a side whose score stayed at or below -ResignScore for
	// ResignMoves moves in a row, while its opponent's stayed at or above
	// ResignScore, loses (0: never).
	ResignScore, ResignMoves int
	// Draw: from ply DrawPly on, DrawMoves plies in a row scored within
	// ±DrawScore draw (DrawMoves 0: never).
	DrawScore, DrawMoves, DrawPly int
}

// Ply is one move of a game. Score is for the side that moved, in
// centipawns (search.IsMate tells mates); Depth is 0 for a move not chosen
// by a full search (opening, random or temperature move).
type Ply struct {
	Move  engine.Move
	Score int
	Depth int
	// Kind is "book" (an opening move given), "random", "temperature" or
	// "" (searched).
	Kind string
}

// Game is a finished game.
type Game struct {
	StartFEN string
	Plies    []Ply
	Result   engine.Result
	// Termination is the referee's status name ("checkmate",
	// "perpetual_check", "threefold", …) or "adjudication".
	Termination string
	// Detail says why in words.
	Detail string
}

// referee is what the games' referees share.
type referee interface {
	Play(m engine.Move) engine.Ruling
	Last() engine.Ruling
}

// Play plays one game with searcher s (cleared first, so that a game
// depends only on cfg, opening and rng: the same seed gives the same game
// whatever else runs). opening moves are played first, in the game's
// coordinate notation (ICCS or UCI).
func Play(s *search.Searcher, cfg Config, opening []engine.Move, rng *rand.Rand) (*Game, error) {
	return PlayContext(context.Background(), s, cfg, opening, rng)
}

// PlayContext is Play, abandoned when ctx is done: the search under way
// stops at once, and ctx's error is returned with no game.
func PlayContext(ctx context.Context, s *search.Searcher, cfg Config, opening []engine.Move, rng *rand.Rand) (*Game, error) {
	stop := context.AfterFunc(ctx, s.Stop)
	defer stop()
	if s.Game() != cfg.Game {
		return nil, fmt.Errorf("selfplay: a %s searcher for a %s game", s.Game(), cfg.Game)
	}
	s.Clear()
	s.SetRules(cfg.Rules)
	pos, err := games.New(cfg.Game, cfg.StartFEN)
	if err != nil {
		return nil, err
	}
	refPos := pos.Clone()
	var ref referee
	switch p := refPos.(type) {
	case *xiangqi.Position:
		ref = xiangqi.NewReferee(p, cfg.Rules)
	case *chess.Position:
		ref = chess.NewReferee(p)
	}
	g := &Game{StartFEN: cfg.StartFEN}
	maxPlies := cfg.MaxPlies
	if maxPlies <= 0 {
		maxPlies = 1000
	}
	var buf []engine.Move
	var scored []search.MoveScore
	last := ref.Last()
	var losing, winning [2]int
	drawRun := 0
	for ply := 0; !last.Decided(); ply++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if ply >= maxPlies {
			g.Result, g.Termination, g.Detail = engine.Draw, "adjudication", fmt.Sprintf("no result after %d plies", maxPlies)
			return g, nil
		}
		var pl Ply
		buf = pos.AppendLegalMoves(buf[:0])
		if len(buf) == 0 {
			return nil, fmt.Errorf("selfplay: no legal move at ply %d but the referee rules nothing", ply)
		}
		switch n := ply - len(opening); {
		case n < 0:
			pl = Ply{Move: opening[ply], Kind: "book"}
			if !pos.IsLegal(pl.Move) {
				return nil, fmt.Errorf("selfplay: opening move %d is illegal", ply+1)
			}
		case n < cfg.RandomPlies:
			pl = Ply{Move: buf[rng.IntN(len(buf))], Kind: "random"}
		case cfg.Temperature > 0 && n < cfg.RandomPlies+cfg.TemperaturePlies:
			scored, err = s.ScoreMoves(pos, 2, scored[:0])
			if err != nil {
				return nil, err
			}
			pl = pickByTemperature(scored, cfg.Temperature, rng)
		default:
			res, err := s.Search(pos, cfg.Limits, nil)
			if err != nil {
				return nil, err
			}
			if err := ctx.Err(); err != nil {
				return nil, err // the search was cut short: not a move to keep
			}
			pl = Ply{Move: res.Move, Score: res.Score, Depth: res.Depth}
		}
		mover := pos.SideToMove()
		pos.Make(pl.Move)
		last = ref.Play(pl.Move)
		g.Plies = append(g.Plies, pl)
		if last.Decided() {
			break
		}
		if pl.Kind != "" {
			losing, winning, drawRun = [2]int{}, [2]int{}, 0
			continue
		}
		// Adjudication on the scores, as cutechess-cli does it: a side
		// resigns once it has seen itself lost, and its opponent has seen
		// itself won, for ResignMoves moves each.
		if cfg.ResignMoves > 0 {
			losing[mover], winning[mover] = losing[mover]+1, winning[mover]+1
			if pl.Score > -cfg.ResignScore {
				losing[mover] = 0
			}
			if pl.Score < cfg.ResignScore {
				winning[mover] = 0
			}
			for _, c := range [2]engine.Color{mover, mover.Other()} {
				if losing[c] >= cfg.ResignMoves && winning[c.Other()] >= cfg.ResignMoves {
					g.Result, g.Termination = engine.WinFor(c.Other()), "adjudication"
					g.Detail = fmt.Sprintf("%s resigns: scores at most -%d for %d moves", c.Name(cfg.Game), cfg.ResignScore, cfg.ResignMoves)
					return g, nil
				}
			}
		}
		if cfg.DrawMoves > 0 && ply+1 >= cfg.DrawPly {
			if abs(pl.Score) <= cfg.DrawScore {
				drawRun++
			} else {
				drawRun = 0
			}
			if drawRun >= cfg.DrawMoves {
				g.Result, g.Termination = engine.Draw, "adjudication"
				g.Detail = fmt.Sprintf("draw: score within ±%d for %d plies", cfg.DrawScore, cfg.DrawMoves)
				return g, nil
			}
		}
	}
	g.Result, g.Termination, g.Detail = last.Result, last.StatusName(), last.Detail
	return g, nil
}

// pickByTemperature draws a move with probability proportional to
// exp(score/(100*t)).
func pickByTemperature(scored []search.MoveScore, t float64, rng *rand.Rand) Ply {
	best := scored[0].Score
	for _, ms := range scored {
		best = max(best, ms.Score)
	}
	var w [512]float64
	sum := 0.0
	for i, ms := range scored {
		w[i] = math.Exp(float64(ms.Score-best) / (100 * t))
		sum += w[i]
	}
	x := rng.Float64() * sum
	for i, ms := range scored {
		if x -= w[i]; x < 0 {
			return Ply{Move: ms.Move, Score: ms.Score, Kind: "temperature"}
		}
	}
	ms := scored[len(scored)-1]
	return Ply{Move: ms.Move, Score: ms.Score, Kind: "temperature"}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
