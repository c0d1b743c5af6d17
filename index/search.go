package index

import (
	"fmt"
	"strconv"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
)

// maxHits bounds one metadata search.
const maxHits = 10_000_000

// Search runs a Bleve query string over the games' metadata and returns
// the ids of every matching game, in no particular order. When within is
// not nil, only those games are considered (the query is intersected with
// their document ids, which is how a position drives the search when it has
// fewer games than the query would match).
func (s *Store) Search(q string, within []uint32) ([]uint32, error) {
	qs := query.NewQueryStringQuery(q)
	var bq query.Query = qs
	if within != nil {
		if len(within) == 0 {
			return nil, nil
		}
		ids := make([]string, len(within))
		for i, g := range within {
			ids[i] = docID(g)
		}
		bq = query.NewConjunctionQuery([]query.Query{qs, query.NewDocIDQuery(ids)})
	}
	// Count first so the request asks for exactly the hits there are.
	req := bleve.NewSearchRequestOptions(bq, 0, 0, false)
	res, err := s.meta.Search(req)
	if err != nil {
		return nil, fmt.Errorf("index: query %q: %w", q, err)
	}
	n := int(min(res.Total, maxHits))
	if n == 0 {
		return nil, nil
	}
	req = bleve.NewSearchRequestOptions(bq, n, 0, false)
	req.SortBy([]string{"_id"})
	res, err = s.meta.Search(req)
	if err != nil {
		return nil, fmt.Errorf("index: query %q: %w", q, err)
	}
	out := make([]uint32, 0, len(res.Hits))
	for _, h := range res.Hits {
		gid, err := strconv.ParseUint(h.ID, 10, 32)
		if err == nil && uint32(gid) < s.man.NextGid {
			out = append(out, uint32(gid))
		}
	}
	return out, nil
}

// ValidateQuery reports whether q is a well-formed Bleve query string.
func ValidateQuery(q string) error {
	_, err := query.NewQueryStringQuery(q).Parse()
	if err != nil {
		return fmt.Errorf("index: bad query %q: %w", q, err)
	}
	return nil
}
