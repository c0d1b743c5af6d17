package search

import (
	"strconv"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

// play makes moves written in the game's coordinate notation.
func play(t testing.TB, p engine.Position, moves string) {
	t.Helper()
	n := engine.UCI
	if p.Game() == engine.Xiangqi {
		n = engine.ICCS
	}
	for _, tok := range strings.Fields(moves) {
		m, err := p.ParseMove(tok, n)
		if err != nil {
			t.Fatalf("%s: %v", tok, err)
		}
		p.Make(m)
	}
}

func moveScore(t testing.TB, s *Searcher, p engine.Position, depth int, move string) int {
	t.Helper()
	scores, err := s.ScoreMoves(p, depth, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, ms := range scores {
		if coord(p, ms.Move) == move {
			return ms.Score
		}
	}
	t.Fatalf("%s is not a legal move", move)
	return 0
}

func coord(p engine.Position, m engine.Move) string {
	if p.Game() == engine.Xiangqi {
		return p.FormatMove(m, engine.ICCS)
	}
	return p.FormatMove(m, engine.UCI)
}

// TestPerpetualCheckAvoided: Red (chariot and horse against a bare
// general) has checked on every move of one cycle. Checking again repeats
// the cycle, which the referee rules a loss for Red (RULES X13: perpetual
// check loses, under both profiles), so the search scores it as lost,
// plays something else, and wins the game.
func TestPerpetualCheckAvoided(t *testing.T) {
	const fen = "R8/4k4/9/9/9/2N6/9/9/9/3K5 w - - 0 1"
	const cycle = "a9a8 e8e9 a8a9 e9e8"
	for _, rules := range []xiangqi.Rules{{Profile: xiangqi.Asian}, {Profile: xiangqi.VN}} {
		t.Run(rules.Profile.String(), func(t *testing.T) {
			p := parse(t, engine.Xiangqi, fen).(*xiangqi.Position)
			play(t, p, cycle)
			s := New(engine.Xiangqi, 4)
			s.SetRules(rules)
			if v := moveScore(t, s, p, 2, "a9a8"); v > -mateBound {
				t.Errorf("a9a8 (the perpetual check again) scores %d, want a loss", v)
			}
			res, err := s.Search(p, Limits{Depth: 6}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if coord(p, res.Move) == "a9a8" {
				t.Errorf("the search repeats the perpetual check")
			}
			// Played out by the search on both sides, with the referee
			// judging every ply, the game is Red's.
			ref := xiangqi.NewReferee(p, rules)
			for ply := 0; ply < 80 && !ref.Last().Decided(); ply++ {
				res, err := s.Search(p, Limits{Nodes: 20000}, nil)
				if err != nil || res.Move == engine.NoMove {
					t.Fatalf("ply %d: no move (%v)", ply, err)
				}
				ref.Play(res.Move)
			}
			if r := ref.Last(); r.Result != engine.FirstWins || r.Status != engine.Checkmate && r.Status != engine.Stalemate {
				t.Errorf("game ended %v, want Red to mate", r)
			}
		})
	}
}

// TestRepetitionDrawOnlyWhenBehind: after an idle cycle (no check, no
// chase) repeating it is a draw (RULES X14). Red takes it when behind and
// avoids it when ahead.
func TestRepetitionDrawOnlyWhenBehind(t *testing.T) {
	cases := []struct {
		name, fen, repeat string
		game              engine.Game
		cycle             string
		takes             bool
	}{
		{"xiangqi behind", "rn3k3/9/7c1/9/9/9/9/9/9/3K4R w - - 0 1", "i0i1", engine.Xiangqi, "i0i1 a9a8 i1i0 a8a9", true},
		{"xiangqi ahead", "r4k3/9/9/9/9/9/9/7C1/9/1N1K4R w - - 0 1", "i0i1", engine.Xiangqi, "i0i1 a9a8 i1i0 a8a9", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := parse(t, c.game, c.fen)
			play(t, p, c.cycle)
			s := New(c.game, 4)
			if v := moveScore(t, s, p, 1, c.repeat); v != 0 {
				t.Errorf("%s scores %d, want the draw (0)", c.repeat, v)
			}
			res, err := s.Search(p, Limits{Depth: 6}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := coord(p, res.Move) == c.repeat; got != c.takes {
				t.Errorf("plays %s (score %d); taking the draw = %v, want %v", coord(p, res.Move), res.Score, got, c.takes)
			}
		})
	}
}

// TestChessRepetitionAndFiftyMoves: RULES C5 in the search.
func TestChessRepetitionAndFiftyMoves(t *testing.T) {
	cases := []struct {
		name, fen, moves, repeat string
		takes                    bool
	}{
		// Black is a queen down; f6g8 makes the position occur a third
		// time.
		{"threefold behind", "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1", "f6g8", true},
		// White is a queen up and avoids the third occurrence.
		{"threefold ahead", "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8", "g1f3", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := parse(t, engine.Chess, c.fen)
			play(t, p, c.moves)
			s := New(engine.Chess, 4)
			if v := moveScore(t, s, p, 1, c.repeat); v != 0 {
				t.Errorf("%s scores %d, want the draw (0)", c.repeat, v)
			}
			res, err := s.Search(p, Limits{Depth: 5}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := coord(p, res.Move) == c.repeat; got != c.takes {
				t.Errorf("plays %s (score %d); taking the draw = %v, want %v", coord(p, res.Move), res.Score, got, c.takes)
			}
		})
	}
	// The fifty-move rule: a queen up, but every move that neither
	// captures nor moves a pawn draws at once.
	p := parse(t, engine.Chess, "k7/8/8/8/8/8/3QK3/8 w - - 99 80")
	res, err := New(engine.Chess, 4).Search(p, Limits{Depth: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != 0 {
		t.Errorf("score %d at the 100th plies without capture or pawn move, want 0", res.Score)
	}
	p = parse(t, engine.Chess, "k7/8/8/8/8/8/3QK3/8 w - - 0 80")
	if res, _ := New(engine.Chess, 4).Search(p, Limits{Depth: 4}, nil); res.Score < 500 {
		t.Errorf("score %d with a fresh clock, want a queen's worth", res.Score)
	}
}

// xqChecks is the chariot-check sequence of engine/xiangqi's TestMoveLimit:
// from "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 96 60" Red checks on every move
// (each position occurs at most twice); the plain count reaches 120 at ply
// 24, but Red's 11th to 14th checks do not count, and the referee rules the
// move limit at ply 28 only.
const (
	xqChecksFEN = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 96 60"
	xqChecks    = "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8e8 e9f9 e8e9 f9f8 e9e8 f8f9 e8e9 f9f8 e9e8 f8f7 e8e7 f7f8 e7f7 f8e8 f7f8 e8e9 f8f9 e9e8 f9f8 e8e9"
)

// TestMoveLimitChecksBeyondTheTenthDoNotCount: RULES X15, "draw after 120
// plies without a capture …, where each side's checks beyond its 10th do
// not count, and never when the side to move is mated", in the search as
// the referee rules it.
func TestMoveLimitChecksBeyondTheTenthDoNotCount(t *testing.T) {
	asian := xiangqi.Rules{Profile: xiangqi.Asian}
	moves := strings.Fields(xqChecks)
	// The search's count agrees with the referee at every ply, whether
	// the checks were played before the search's root or inside its tree.
	for _, root := range []int{0, 9, 16, 22, 25} {
		t.Run("root after "+strconv.Itoa(root)+" plies", func(t *testing.T) {
			p := parse(t, engine.Xiangqi, xqChecksFEN).(*xiangqi.Position)
			ref := xiangqi.NewReferee(p.Copy(), asian)
			s := New(engine.Xiangqi, 1)
			s.SetRules(asian)
			for i, tok := range moves {
				if i == root {
					if err := s.bind(p); err != nil {
						t.Fatal(err)
					}
					s.rootPly = p.Ply()
					s.b.startSearch()
				}
				m, err := p.ParseMove(tok, engine.ICCS)
				if err != nil {
					t.Fatal(err)
				}
				ref.Play(m)
				if i < root {
					p.Make(m)
					continue
				}
				s.b.doMove(m) // as the search makes a move in its tree
				s.gaveCheck[p.Ply()-s.rootPly] = p.InCheck()
				_, got := s.xq.limitRule(p.Ply()-s.rootPly, s.rootPly)
				if want := ref.Last().Status == engine.MoveLimit; got != want {
					t.Errorf("ply %d (%s): the search rules the move limit = %v, the referee %v (%v)", i+1, tok, got, want, ref.Last())
				}
			}
		})
	}
	// Before the root: after 22 plies the clock is 118 and Red has checked
	// 11 times, so two more plies count 119, not 120: Red, a chariot up,
	// still wins, where counting every ply would see a draw.
	p := parse(t, engine.Xiangqi, xqChecksFEN)
	play(t, p, strings.Join(moves[:22], " "))
	s := New(engine.Xiangqi, 4)
	s.SetRules(asian)
	if res, _ := s.Search(p, Limits{Depth: 2}, nil); res.Score < 300 {
		t.Errorf("after 11 checks, clock 118: Red scores %d, want the chariot's worth (no move-limit draw yet)", res.Score)
	}
	// The 120th ply mates: the mate stands.
	p = parse(t, engine.Xiangqi, "3k5/1R7/9/9/9/9/9/9/R8/4K4 w - - 119 80")
	if v := moveScore(t, New(engine.Xiangqi, 4), p, 1, "a1a9"); v != Mate-1 {
		t.Errorf("a1a9 mates on the 120th ply: scores %d, want %d (mate, not the move-limit draw)", v, Mate-1)
	}
}
