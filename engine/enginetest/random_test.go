package enginetest

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// TestRandomMovesReplay checks that the moves RandomMoves plays are legal
// from the start and that each key is the position after its move, in
// both games, and that it stops early only where no move is legal.
func TestRandomMovesReplay(t *testing.T) {
	for _, game := range []engine.Game{engine.Xiangqi, engine.Chess} {
		rng := rand.New(rand.NewPCG(1, 2))
		for range 50 {
			p, _ := games.New(game, "")
			moves, keys := RandomMoves(rng, p, 200, nil, []uint64{p.Key()})
			if len(keys) != len(moves)+1 {
				t.Fatalf("%v: %d moves, %d keys", game, len(moves), len(keys))
			}
			if len(moves) < 200 && len(p.AppendLegalMoves(nil)) > 0 {
				t.Fatalf("%v: stopped after %d moves with legal moves left", game, len(moves))
			}
			q, _ := games.New(game, "")
			for i, m := range moves {
				if !slices.Contains(q.AppendLegalMoves(nil), m) {
					t.Fatalf("%v: move %d (%v) is not legal", game, i+1, m)
				}
				q.Make(m)
				if q.Key() != keys[i+1] {
					t.Fatalf("%v: key after move %d differs", game, i+1)
				}
			}
		}
	}
}
