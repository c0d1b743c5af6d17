package query

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/index"
)

// Sort orders game lists.
type Sort string

// Sort orders.
const (
	ByDate       Sort = "date"
	ByDateDesc   Sort = "-date"
	ByRatingDesc Sort = "-rating"
)

// ParseSort reads a --sort value.
func ParseSort(s string) (Sort, error) {
	switch Sort(s) {
	case ByDate, ByDateDesc, ByRatingDesc:
		return Sort(s), nil
	case "":
		return ByDateDesc, nil
	}
	return "", fmt.Errorf("query: unknown sort %q (want date, -date or -rating)", s)
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

// Games lists the games of a request, sorted and paginated.
func Games(s *index.Store, req ListRequest) (*GameList, error) {
	var hits []hit
	if req.Position != nil {
		_, hs, err := positionHits(s, req.Position, req.Options, true)
		if err != nil {
			return nil, err
		}
		if hits, err = filterHits(s, hs, req.Query); err != nil {
			return nil, err
		}
		hits = uniqueGames(hits)
	} else {
		ids, err := s.Search(req.Query, nil)
		if err != nil {
			return nil, err
		}
		for _, g := range ids {
			hits = append(hits, hit{gid: g, ply: -1})
		}
	}
	sortHits(s, hits, req.Sort)
	out := &GameList{Total: len(hits)}
	lo := min(max(req.Offset, 0), len(hits))
	hi := len(hits)
	if req.Limit > 0 {
		hi = min(lo+req.Limit, hi)
	}
	for _, h := range hits[lo:hi] {
		r, err := s.Game(h.gid)
		if err != nil {
			return nil, err
		}
		ply := h.ply
		if req.Position != nil && ply < 0 {
			if p, ok := index.FindPosition(r, req.Position); ok {
				ply = p
			} else if req.Mirror {
				ply = mirrorPly(r, req.Position)
			}
		}
		out.Games = append(out.Games, GameRow{Record: r, Attrs: s.Attrs(h.gid), Ply: ply})
	}
	return out, nil
}

// uniqueGames keeps one hit per game (a game can reach a position and its
// mirror).
func uniqueGames(hits []hit) []hit {
	slices.SortStableFunc(hits, func(a, b hit) int { return int(a.gid) - int(b.gid) })
	return slices.CompactFunc(hits, func(a, b hit) bool { return a.gid == b.gid })
}

func sortHits(s *index.Store, hits []hit, by Sort) {
	key := func(h hit) (uint32, uint32) {
		a := s.Attrs(h.gid)
		return a.Date, uint32(a.Rating)
	}
	slices.SortStableFunc(hits, func(x, y hit) int {
		dx, rx := key(x)
		dy, ry := key(y)
		switch by {
		case ByDate:
			if dx != dy {
				return cmp.Compare(dx, dy)
			}
		case ByRatingDesc:
			if rx != ry {
				return cmp.Compare(ry, rx)
			}
			if dx != dy {
				return cmp.Compare(dy, dx)
			}
		default: // newest first
			if dx != dy {
				return cmp.Compare(dy, dx)
			}
		}
		return cmp.Compare(x.gid, y.gid)
	})
}
