package query

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/index"
)

// Sort orders game lists.
type Sort string

// Sort orders.
const (
	ByDate       Sort = "date"
	ByDateDesc   Sort = "-date"
	ByRating     Sort = "rating"
	ByRatingDesc Sort = "-rating"
)

// ParseSort reads a --sort value.
func ParseSort(s string) (Sort, error) {
	switch Sort(s) {
	case ByDate, ByDateDesc, ByRating, ByRatingDesc:
		return Sort(s), nil
	case "":
		return ByDateDesc, nil
	}
	return "", fmt.Errorf("query: unknown sort %q (want date, -date, rating or -rating)", s)
}

// GameRow is one listed game.
type GameRow struct {
	Record *index.Record
	Attrs  index.Attrs
	Ply    int // where the position was reached (0 = start); -1 without a position
}

// GameList is one page of games.
type GameList struct {
	Total int
	Games []GameRow
}

// ListRequest asks for a page of games that reached Position (nil: any)
// and match Options.Query.
type ListRequest struct {
	Position engine.Position
	Options
	Sort   Sort
	Limit  int
	Offset int
}

// newestGames is a store that lists the first games of a position in the
// default order without reading every game that reached it
// (index.Store.NewestGames, from the heads of its large stats values).
type newestGames interface {
	NewestGames(game engine.Game, pos engine.Position, n int) (hits []index.GameHit, total int, ok bool, err error)
}

// newestFirst answers a request for the first page of a position's games,
// newest first and unfiltered, when the store can list its first games:
// hits that hold the page's games, and the list's length. An opening
// position's page sorted hundreds of thousands of games (issue 18). ok
// is false for other requests and when the store cannot tell.
func newestFirst(s index.DB, req ListRequest) (hits []hit, total int, ok bool, err error) {
	ng, can := s.(newestGames)
	_, mirrored := mirrorOf(req.Position, req.Options)
	if !can || (req.Sort != ByDateDesc && req.Sort != "") || req.Query != "" || req.Filter != "" || mirrored || req.Limit <= 0 {
		return nil, 0, false, nil
	}
	g := req.Position.Game()
	hs, total, ok, err := ng.NewestGames(g, req.Position, max(req.Offset, 0)+req.Limit)
	if err != nil || !ok {
		return nil, 0, false, err
	}
	return appendHits(nil, g, hs, false), total, true, nil
}

// Games lists the games of a request, sorted and paginated.
func Games(s index.DB, req ListRequest) (*GameList, error) {
	var hits []hit
	total := -1 // len(hits), unless the store counted them (newestFirst)
	if req.Position != nil {
		hs, n, ok, err := newestFirst(s, req)
		if err != nil {
			return nil, err
		}
		if ok {
			hits, total = hs, n
		} else {
			_, hs, err := positionHits(s, req.Position, req.Options, true)
			if err != nil {
				return nil, err
			}
			if hits, err = filterHits(s, hs, req.Options); err != nil {
				return nil, err
			}
			hits = uniqueGames(hits)
		}
	} else {
		ids, err := s.Search(nil, req.Query, req.Filter)
		if err != nil {
			return nil, err
		}
		for _, g := range ids {
			hits = append(hits, hit{gid: g, ply: -1})
		}
	}
	sortHits(s, hits, req.Sort)
	if total < 0 {
		total = len(hits)
	}
	out := &GameList{Total: total}
	lo := min(max(req.Offset, 0), len(hits))
	hi := len(hits)
	if req.Limit > 0 {
		hi = min(lo+req.Limit, hi)
	}
	// Reading a record replays it (its moves are stored as ranks): a long
	// page (an export) is read on every core.
	page := hits[lo:hi]
	out.Games = make([]GameRow, len(page))
	var recs []*index.Record
	if rr, ok := s.(recordsReader); ok && len(page) > 1 {
		gids := make([]uint32, len(page))
		for i, h := range page {
			gids[i] = h.gid
		}
		var err error
		if recs, err = rr.Records(gids); err != nil {
			return nil, err
		}
	}
	err := forEach(len(page), func(i int) error {
		h := page[i]
		var r *index.Record
		var err error
		if recs != nil {
			r = recs[i]
		} else if r, err = s.Game(h.gid); err != nil {
			return err
		}
		ply := h.ply
		if req.Position != nil && ply < 0 {
			if p, ok := index.FindPosition(r, req.Position); ok {
				ply = p
			} else if req.Mirror {
				ply = mirrorPly(r, req.Position)
			}
		}
		out.Games[i] = GameRow{Record: r, Attrs: s.Attrs(h.gid), Ply: ply}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// recordsReader is a store that reads many records in one request
// (index/clickhouse: one query for a page, not one per game).
type recordsReader interface {
	Records(gids []uint32) ([]*index.Record, error)
}

// forEach calls fn(0) … fn(n-1) on GOMAXPROCS goroutines and returns the
// first error (the calls after it may not all be made).
func forEach(n int, fn func(i int) error) error {
	var next atomic.Int64
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := fn(i); err != nil {
					once.Do(func() { first = err })
					next.Store(int64(n)) // stop the others early
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// uniqueGames keeps one hit per game (a game can reach a position and its
// mirror).
func uniqueGames(hits []hit) []hit {
	slices.SortStableFunc(hits, func(a, b hit) int { return int(a.gid) - int(b.gid) })
	return slices.CompactFunc(hits, func(a, b hit) bool { return a.gid == b.gid })
}

func sortHits(s index.DB, hits []hit, by Sort) {
	// Each hit's key is computed once: a comparison that read the
	// attributes of both hits made sorting most of a broad query's time.
	type keyed struct {
		k uint64 // ascending; ties go to the lower gid
		h hit
	}
	ks := make([]keyed, len(hits))
	for i, h := range hits {
		a := s.Attrs(h.gid)
		// Games without a date (or rating) come last whichever way the
		// list is sorted: ^0 is the largest complement, and 1<<48 is
		// above every date and rating.
		var k uint64
		switch by {
		case ByDate: // oldest first
			k = uint64(a.Date)
			if a.Date == 0 {
				k = 1 << 48
			}
		case ByRating: // lowest average rating, then newest
			k = uint64(a.Rating)<<32 | uint64(^a.Date)
			if a.Rating == 0 {
				k = 1<<48 | uint64(^a.Date)
			}
		case ByRatingDesc: // highest average rating, then newest
			k = uint64(^a.Rating)<<32 | uint64(^a.Date)
		default: // newest first
			k = uint64(^a.Date)
		}
		ks[i] = keyed{k, h}
	}
	slices.SortFunc(ks, func(x, y keyed) int {
		if c := cmp.Compare(x.k, y.k); c != 0 {
			return c
		}
		return cmp.Compare(x.h.gid, y.h.gid)
	})
	for i := range ks {
		hits[i] = ks[i].h
	}
}
