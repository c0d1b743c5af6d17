package enginetest

import (
	"math/rand/v2"

	"github.com/xqdb/xqdb/engine"
)

// RandomMoves plays up to plies random legal moves (rng's choice) from p,
// fewer when a position has none, appending each move to moves and the
// key of the position it leads to to keys. Tests and benchmarks of the
// index build their random games with it, as bench/scale.sh's corpus is
// made: nearly every position distinct.
func RandomMoves(rng *rand.Rand, p engine.Position, plies int, moves []engine.Move, keys []uint64) ([]engine.Move, []uint64) {
	var legal []engine.Move
	for ; plies > 0; plies-- {
		legal = p.AppendLegalMoves(legal[:0])
		if len(legal) == 0 {
			break
		}
		m := legal[rng.IntN(len(legal))]
		p.Make(m)
		moves = append(moves, m)
		keys = append(keys, p.Key())
	}
	return moves, keys
}
