package replay

import (
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// TestReplayNullMoves: a null move ("--" as SCID and ChessBase write it,
// "Z0", "0000") passes the turn, as SCID and pgn-extract
// --allownullmoves read it; in check it is illegal (a king could be
// taken). Xiangqi records follow the same rules.
func TestReplayNullMoves(t *testing.T) {
	tests := []struct {
		name  string
		pgn   string
		nulls []int // 0-based plies holding a null move
		plies int
		kind  string // "" when valid
		ply   int
		// fen is the position after the last move, when checked.
		fen string
	}{
		{name: "odds: white passes at once", pgn: "[White \"A\"]\n\n1. -- e5 2. e4 *\n", nulls: []int{0}, plies: 3,
			fen: "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"},
		{name: "black passes (pgn-extract's test-allownullmoves)", pgn: "[White \"A\"]\n\n1. e4 -- 2. d4 *\n", nulls: []int{1}, plies: 3},
		{name: "Z0, ChessBase's older spelling", pgn: "[White \"A\"]\n\n1. e4 Z0 2. d4 *\n", nulls: []int{1}, plies: 3},
		{name: "0000, UCI's", pgn: "[White \"A\"]\n\n1. e2e4 0000 2. d2d4 *\n", nulls: []int{1}, plies: 3},
		{name: "two null moves", pgn: "[White \"A\"]\n\n1. e4 -- 2. -- e5 *\n", nulls: []int{1, 2}, plies: 4},
		{name: "in check", pgn: "[White \"A\"]\n\n1. d4 e5 2. e3 Bb4+ 3. -- *\n", kind: "illegal", ply: 5, plies: 4},
		{name: "an illegal move after a null move", pgn: "[White \"A\"]\n\n1. e4 -- 2. e5 e5 *\n", kind: "illegal", ply: 4, plies: 3},
		{name: "xiangqi", pgn: "[Game \"Chinese Chess\"]\n\n1. 炮二平五 -- 2. 炮五进四 *\n", nulls: []int{1}, plies: 3},
		{name: "xiangqi in check", pgn: "[Game \"Chinese Chess\"]\n[FEN \"3k5/9/9/9/9/9/9/9/4r4/4K4 w - - 0 1\"]\n\n1. -- *\n",
			kind: "illegal", ply: 1, plies: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := replayText(t, tt.pgn, Replayer{Ranks: true})
			if tt.kind != "" {
				if err == nil || Kind(err) != tt.kind || err.(*GameError).Ply != tt.ply {
					t.Fatalf("err = %v, want %s at ply %d", err, tt.kind, tt.ply)
				}
				if len(g.Moves) != tt.plies {
					t.Fatalf("%d moves before the error, want %d", len(g.Moves), tt.plies)
				}
				return
			}
			if err != nil {
				t.Fatalf("replay: %v", err)
			}
			if len(g.Moves) != tt.plies || len(g.Keys) != tt.plies+1 || len(g.Ranks) != tt.plies {
				t.Fatalf("%d moves %d keys %d ranks, want %d moves", len(g.Moves), len(g.Keys), len(g.Ranks), tt.plies)
			}
			null := map[int]bool{}
			for _, i := range tt.nulls {
				null[i] = true
			}
			pos, _ := games.New(g.Game, g.StartFEN)
			for i, m := range g.Moves {
				if (m == engine.NullMove) != null[i] || null[i] && g.Ranks[i] != games.NullRank {
					t.Fatalf("ply %d: move %v rank %d, null %v", i+1, m, g.Ranks[i], null[i])
				}
				if pos.Key() != g.Keys[i] {
					t.Fatalf("key before ply %d differs from a replay", i+1)
				}
				pos.Make(m)
			}
			if pos.Key() != g.Keys[len(g.Moves)] {
				t.Fatal("last key differs from a replay")
			}
			if tt.fen != "" && pos.FEN() != tt.fen {
				t.Errorf("final FEN %s, want %s", pos.FEN(), tt.fen)
			}
		})
	}
}

// TestNullMoveStopsRulings: the referee rules up to a null move and no
// further (the positions after it were not played).
func TestNullMoveStopsRulings(t *testing.T) {
	// Scholar's mate after a null move: the mate is on the board, so it
	// still ends the game.
	g, err := replayText(t, "[White \"A\"]\n\n1. e4 e5 2. Qh5 -- 3. Bc4 Nc6 4. Qxf7# 1-0\n", Replayer{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != engine.Checkmate {
		t.Errorf("status %v, want checkmate", g.Status)
	}
	if g.Termination.Decided() {
		t.Errorf("termination %v after a null move, want none", g.Termination)
	}
}
