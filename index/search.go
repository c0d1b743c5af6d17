package index

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

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
	bq, err := parseQuery(q)
	if err != nil {
		return nil, err
	}
	if within != nil {
		if len(within) == 0 {
			return nil, nil
		}
		ids := make([]string, len(within))
		for i, g := range within {
			ids[i] = docID(g)
		}
		bq = query.NewConjunctionQuery([]query.Query{bq, query.NewDocIDQuery(ids)})
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
	_, err := parseQuery(q)
	return err
}

// parseQuery parses a Bleve query string, after rewriting date
// comparisons, and turns numeric queries on the padded keyword fields into
// term ranges and padded terms. An empty query (or "*") matches every game.
func parseQuery(q string) (query.Query, error) {
	if t := strings.TrimSpace(q); t == "" || t == "*" {
		return query.NewMatchAllQuery(), nil
	}
	parsed, err := query.NewQueryStringQuery(rewriteQuery(q)).Parse()
	if err != nil {
		return nil, fmt.Errorf("index: bad query %q: %w", q, err)
	}
	return adapt(parsed), nil
}

// adapt fits a parsed query to how fields are indexed: red means white,
// numeric queries on padded keyword fields become term ranges and padded
// terms, a phrase on a field indexed without positions becomes "all these
// words", and wildcard, prefix and fuzzy terms are folded.
func adapt(q query.Query) query.Query {
	if f, ok := q.(query.FieldableQuery); ok && f.Field() == "red" {
		f.SetField("white") // Red is White's name in Xiangqi; indexed once
	}
	switch x := q.(type) {
	case *query.BooleanQuery:
		x.Must = adapt(x.Must)
		x.Should = adapt(x.Should)
		x.MustNot = adapt(x.MustNot)
	case *query.ConjunctionQuery:
		for i := range x.Conjuncts {
			x.Conjuncts[i] = adapt(x.Conjuncts[i])
		}
	case *query.DisjunctionQuery:
		for i := range x.Disjuncts {
			x.Disjuncts[i] = adapt(x.Disjuncts[i])
		}
	case *query.MatchPhraseQuery:
		if r, ok := dateRange(x.FieldVal, x.MatchPhrase); ok {
			return r
		}
		if x.FieldVal != "" && !slices.Contains(phraseFields, x.FieldVal) {
			m := query.NewMatchQuery(x.MatchPhrase)
			m.SetField(x.FieldVal)
			m.SetOperator(query.MatchQueryOperatorAnd)
			return m
		}
	case *query.NumericRangeQuery:
		if x.FieldVal == "year" { // a range of years is a range of dates
			var lo, hi *float64
			incl := func(b *bool) bool { return b == nil || *b }
			if x.Min != nil { // year >= Y: from Y's first date; > Y: after its last
				v := *x.Min * 10000
				if !incl(x.InclusiveMin) {
					v += 9999
				}
				lo = &v
			}
			if x.Max != nil { // year <= Y: up to Y's last date; < Y: before its first
				v := *x.Max * 10000
				if incl(x.InclusiveMax) {
					v += 9999
				}
				hi = &v
			}
			r := query.NewNumericRangeInclusiveQuery(lo, hi, x.InclusiveMin, x.InclusiveMax)
			r.SetField("date")
			return adapt(r)
		}
		width, ok := paddedFields[x.FieldVal]
		if !ok {
			return q
		}
		lo, hi := "", ""
		if x.Min != nil {
			lo = padFloat(*x.Min, width, x.InclusiveMin, true)
		}
		if x.Max != nil {
			hi = padFloat(*x.Max, width, x.InclusiveMax, false)
		}
		t := true
		r := query.NewTermRangeInclusiveQuery(lo, hi, &t, &t)
		r.SetField(x.FieldVal)
		return r
	// Terms that skip analysis are folded as the index's words were:
	// white:Carl* finds Carlsen, black:呂* finds 吕钦.
	case *query.WildcardQuery:
		if analysed(x.FieldVal) {
			x.Wildcard = Fold(x.Wildcard)
		}
	case *query.PrefixQuery:
		if analysed(x.FieldVal) {
			x.Prefix = Fold(x.Prefix)
		}
	case *query.FuzzyQuery:
		if analysed(x.FieldVal) {
			x.Term = Fold(x.Term)
		}
	case *query.MatchQuery:
		if r, ok := dateRange(x.FieldVal, x.Match); ok {
			return r
		}
		if width, ok := paddedFields[x.FieldVal]; ok {
			if v, err := strconv.ParseUint(x.Match, 10, 64); err == nil {
				t := query.NewTermQuery(padNumber(v, width))
				t.SetField(x.FieldVal)
				return t
			}
		}
	}
	return q
}

// analysed says whether a field's text goes through textAnalyzer.
func analysed(field string) bool {
	_, padded := paddedFields[field]
	return field != "" && !padded && !slices.Contains(keywordFields, field)
}

// dateRange reads year:1990 and month:1990-05 as the range of dates they
// span.
func dateRange(field, v string) (query.Query, bool) {
	var lo uint64
	switch field {
	case "year":
		y, err := strconv.ParseUint(strings.TrimSpace(v), 10, 16)
		if err != nil {
			return nil, false
		}
		lo = y * 10000
		return dateTermRange(lo, lo+9999), true
	case "month":
		y, m, ok := strings.Cut(strings.TrimSpace(v), "-")
		yy, err1 := strconv.ParseUint(y, 10, 16)
		mm, err2 := strconv.ParseUint(m, 10, 8)
		if !ok || err1 != nil || err2 != nil {
			return nil, false
		}
		lo = yy*10000 + mm*100
		return dateTermRange(lo, lo+99), true
	}
	return nil, false
}

func dateTermRange(lo, hi uint64) query.Query {
	t := true
	r := query.NewTermRangeInclusiveQuery(padNumber(lo, 8), padNumber(hi, 8), &t, &t)
	r.SetField("date")
	return r
}

// padFloat turns a numeric bound into an inclusive padded keyword bound.
func padFloat(f float64, width int, inclusive *bool, lower bool) string {
	v := math.Ceil(f)
	if !lower {
		v = math.Floor(f)
	}
	if inclusive != nil && !*inclusive && v == f {
		if lower {
			v++
		} else {
			v--
		}
	}
	if v < 0 {
		v = 0
	}
	return padNumber(uint64(v), width)
}
