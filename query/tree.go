package query

import (
	"slices"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/xiangqi"
	"github.com/xqdb/xqdb/index"
)

// TreeMove is one next move of a position with how it scored. "First"
// means Red in Xiangqi and White in chess (the lichess explorer's
// white/draws/black convention).
type TreeMove struct {
	Move       engine.Move
	Games      int // FirstWins + Draws + SecondWins + Unknown
	FirstWins  int
	Draws      int
	SecondWins int
	Unknown    int    // games without a known result ("*")
	AvgRating  int    // 0 when no game had ratings
	LastDate   uint32 // yyyymmdd, 0 unknown
}

// Tree is the opening tree at one position.
type Tree struct {
	Key uint64
	// Games counts every game that reached the position: those that went
	// on (the sum over Moves) and those that ended here, so that a tree's
	// total is its parent row's count (as long as no other move order
	// reaches it too).
	Games      int
	FirstWins  int
	Draws      int
	SecondWins int
	Unknown    int        // games without a known result ("*")
	Moves      []TreeMove // most played first
	EndedHere  int        // games that ended in this position
}

// BuildTree returns the move tree of pos.
func BuildTree(s index.DB, pos engine.Position, opt Options) (*Tree, error) {
	filtered := opt.Query != "" || opt.Filter != ""
	aggs, hits, err := positionHits(s, pos, opt, filtered)
	if err != nil {
		return nil, err
	}
	if filtered {
		if hits, err = filterHits(s, hits, opt); err != nil {
			return nil, err
		}
		aggs = aggsFromHits(s, hits)
	}
	if xp, ok := pos.(*xiangqi.Position); ok && opt.Mirror && xp.MirrorKey() == xp.Key() {
		aggs = mergeMirrorMoves(aggs)
	}
	t := &Tree{Key: pos.Key()}
	for _, a := range aggs {
		st := a.stats
		tm := TreeMove{Move: a.move, Games: int(st.Games), FirstWins: int(st.FirstWins), Draws: int(st.Draws),
			SecondWins: int(st.SecondWins), LastDate: st.LastDate}
		tm.Unknown = tm.Games - tm.FirstWins - tm.Draws - tm.SecondWins
		t.Games += tm.Games
		t.FirstWins += tm.FirstWins
		t.Draws += tm.Draws
		t.SecondWins += tm.SecondWins
		t.Unknown += tm.Unknown
		if a.end {
			t.EndedHere += tm.Games
			continue
		}
		if st.Rated > 0 {
			tm.AvgRating = int(st.RatingSum / uint64(st.Rated))
		}
		t.Moves = append(t.Moves, tm)
	}
	slices.SortStableFunc(t.Moves, func(a, b TreeMove) int {
		if a.Games != b.Games {
			return b.Games - a.Games
		}
		return int(a.Move) - int(b.Move)
	})
	return t, nil
}

// mergeMirrorMoves folds each move of a left-right symmetric position
// together with its mirror image (h2e2 and b2e2 from the start): with
// --mirror they lead to the same position, so one row counts both, and a
// row's count is its child's total. The row keeps the more played move.
func mergeMirrorMoves(aggs []moveAgg) []moveAgg {
	out := aggs[:0]
	for i := range aggs {
		a := aggs[i]
		merged := false
		for j := range out {
			if !a.end && !out[j].end && out[j].move == xiangqi.MirrorMove(a.move) && a.move != out[j].move {
				if a.stats.Games > out[j].stats.Games {
					out[j].move = a.move
				}
				out[j].stats.Add(a.stats)
				merged = true
				break
			}
		}
		if !merged {
			out = append(out, a)
		}
	}
	return out
}
