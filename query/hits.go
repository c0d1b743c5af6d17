package query

import (
	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/engine/xiangqi"
	"github.com/xqdb/xqdb/index"
)

// hit is one game reaching the asked position, with the move it played
// there in the asked orientation (EndSlot when it ended there) and the ply
// (-1 until computed).
type hit struct {
	gid  uint32
	ply  int
	move engine.Move
	end  bool
}

// Options narrow a position query.
type Options struct {
	// Mirror counts the left-right mirror image of a Xiangqi position as
	// the same position; its moves are mapped back to the asked side.
	Mirror bool
	// Query is a query string over the games' metadata ("" = all; the
	// syntax of index.Store.Search).
	Query string
	// Filter is a second query string every game must match as well (the
	// CLI's --game); it keeps its own OR apart from Query's.
	Filter string
}

// positionHits returns the stats of pos (and of its mirror with Mirror) and,
// when withGames, every game that reached it.
func positionHits(s index.DB, pos engine.Position, opt Options, withGames bool) ([]moveAgg, []hit, error) {
	g := pos.Game()
	var aggs []moveAgg
	var hits []hit
	add := func(p engine.Position, mirrored bool) error {
		st, err := s.Position(g, p, withGames)
		if err != nil {
			return err
		}
		for _, ms := range st.Moves {
			m, end := moveOf(g, ms.Code, mirrored)
			aggs = addAgg(aggs, m, end, ms)
		}
		hits = appendHits(hits, g, st.Games, mirrored)
		return nil
	}
	if err := add(pos, false); err != nil {
		return nil, nil, err
	}
	if mp, ok := mirrorOf(pos, opt); ok {
		if err := add(mp, true); err != nil {
			return nil, nil, err
		}
	}
	return aggs, hits, nil
}

// mirrorOf returns the mirror image of pos that opt asks to look up with
// it: a Xiangqi position's, with Mirror, when it is another position.
func mirrorOf(pos engine.Position, opt Options) (engine.Position, bool) {
	if !opt.Mirror || pos.Game() != engine.Xiangqi {
		return nil, false
	}
	if xp, ok := pos.(*xiangqi.Position); ok && xp.MirrorKey() != xp.Key() {
		return xp.Mirror(), true
	}
	return nil, false
}

// moveOf turns a stored wire code into the move in the asked orientation
// (end: the game ended there).
func moveOf(g engine.Game, code uint16, mirrored bool) (m engine.Move, end bool) {
	if code == index.EndSlot {
		return 0, true
	}
	m = games.FromWireCode(g, code)
	if mirrored {
		m = xiangqi.MirrorMove(m)
	}
	return m, false
}

// appendHits appends the games of a position lookup as hits.
func appendHits(hits []hit, g engine.Game, gs []index.GameHit, mirrored bool) []hit {
	for _, gh := range gs {
		m, end := moveOf(g, gh.Code, mirrored)
		hits = append(hits, hit{gid: gh.Gid, ply: gh.Ply, move: m, end: end})
	}
	return hits
}

// moveAgg is the tree line of one next move.
type moveAgg struct {
	move  engine.Move
	end   bool
	stats index.MoveStats
}

func addAgg(aggs []moveAgg, m engine.Move, end bool, ms index.MoveStats) []moveAgg {
	for i := range aggs {
		if aggs[i].end == end && aggs[i].move == m {
			aggs[i].stats.Add(ms)
			return aggs
		}
	}
	return append(aggs, moveAgg{move: m, end: end, stats: ms})
}

// filterHits keeps the hits whose game matches the metadata query, asking
// Bleve only about those games (the position drives the search).
func filterHits(s index.DB, hits []hit, opt Options) ([]hit, error) {
	if opt.Query == "" && opt.Filter == "" {
		return hits, nil
	}
	ids := make([]uint32, 0, len(hits))
	for _, h := range hits {
		ids = append(ids, h.gid)
	}
	match, err := s.Search(ids, opt.Query, opt.Filter)
	if err != nil {
		return nil, err
	}
	ok := make(map[uint32]bool, len(match))
	for _, g := range match {
		ok[g] = true
	}
	out := hits[:0]
	for _, h := range hits {
		if ok[h.gid] {
			out = append(out, h)
		}
	}
	return out, nil
}

// aggsFromHits rebuilds the per-move stats of a filtered set of games from
// their attributes.
func aggsFromHits(s index.DB, hits []hit) []moveAgg {
	var aggs []moveAgg
	for _, h := range hits {
		a := s.Attrs(h.gid)
		ms := index.MoveStats{Games: 1, LastDate: a.Date}
		switch a.Result {
		case engine.FirstWins:
			ms.FirstWins = 1
		case engine.SecondWins:
			ms.SecondWins = 1
		case engine.Draw:
			ms.Draws = 1
		}
		if a.Rating > 0 {
			ms.RatingSum, ms.Rated = uint64(a.Rating), 1
		}
		aggs = addAgg(aggs, h.move, h.end, ms)
	}
	return aggs
}
