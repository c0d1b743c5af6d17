package query

import (
	"slices"

	"github.com/xqdb/xqdb/engine"
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
func BuildTree(s *index.Store, pos engine.Position, opt Options) (*Tree, error) {
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
