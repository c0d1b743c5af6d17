package opening

import (
	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// Opening is a classification: a code and its names.
type Opening struct {
	// Code is the ECO code (chess, A00–E99) or the ECCO code (Xiangqi,
	// A00–E48).
	Code string
	// Name is the opening's name: lichess's full name in chess ("Sicilian
	// Defense: Najdorf Variation"), the ECCO opening in Xiangqi
	// ("中炮对屏风马").
	Name string
	// Variation is the ECCO variation ("红进七兵"), "" when the code has
	// none; chess names carry theirs after a colon.
	Variation string
}

// FullName is the name with its variation, as the metadata index stores
// it (opening_name).
func (o Opening) FullName() string {
	if o.Variation == "" {
		return o.Name
	}
	return o.Name + "，" + o.Variation
}

// Classify names the opening of a replayed game of g from startFEN (""
// for the standard start) with its moves and the key of every position
// (len(keys) == len(moves)+1, as replay gives them). ok is false when the
// game reaches no named position (chess only: a Xiangqi game always gets
// a code). It allocates nothing once the tables are loaded.
func Classify(g engine.Game, startFEN string, moves []engine.Move, keys []uint64) (o Opening, ok bool) {
	switch g {
	case engine.Chess:
		return ChessTable().Classify(keys)
	case engine.Xiangqi:
		if startFEN != "" {
			return XiangqiTable().NonStandard(), true
		}
		return XiangqiTable().Classify(moves), true
	}
	return Opening{}, false
}

// ClassifyMoves is Classify for a game whose keys are not at hand: it
// replays the moves (they must be legal from startFEN).
func ClassifyMoves(g engine.Game, startFEN string, moves []engine.Move) (Opening, bool) {
	if g != engine.Chess {
		return Classify(g, startFEN, moves, nil)
	}
	p, err := games.New(g, startFEN)
	if err != nil {
		return Opening{}, false
	}
	keys := make([]uint64, 0, len(moves)+1)
	keys = append(keys, p.Key())
	for _, m := range moves {
		p.Make(m)
		keys = append(keys, p.Key())
	}
	return Classify(g, startFEN, moves, keys)
}
