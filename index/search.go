package index

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2/search/query"
)

// Search runs query strings over the games' metadata and returns the ids
// of every game that matches them all, increasing. When within is not
// nil, only those games are considered (a position's games: the
// attributes' clauses then test only them; attrsearch.go).
func (s *Store) Search(within []uint32, queries ...string) ([]uint32, error) {
	if s.meta == nil && s.Games() == 0 {
		return nil, nil
	}
	if s.meta == nil {
		return nil, s.errNoMetadata()
	}
	var all []query.Query
	for _, q := range queries {
		if strings.TrimSpace(q) == "" {
			continue
		}
		bq, err := s.parseQuery(q)
		if err != nil {
			return nil, err
		}
		all = append(all, bq)
	}
	if within != nil && len(within) == 0 {
		return nil, nil
	}
	out, err := s.searchValues(within, all)
	if err != nil {
		return nil, fmt.Errorf("index: query %q: %w", strings.Join(queries, " ; "), err)
	}
	return out, nil
}

// ValidateQuery reports whether q is a well-formed query string
// (querylang.go); whether its fields exist is checked by Search, which
// knows the index. Its errors are *QueryError.
func ValidateQuery(q string) error {
	_, err := compileQuery(q, nil)
	return err
}

// parseQuery compiles a query string for this store: every field must be
// one the index knows (querylang.go).
func (s *Store) parseQuery(q string) (query.Query, error) {
	return compileQuery(q, s.fieldSet())
}

// fieldSet lists the metadata index's fields once per open store.
func (s *Store) fieldSet() fieldSet {
	s.fieldsOnce.Do(func() {
		if s.meta == nil {
			return
		}
		names, err := s.meta.Fields()
		if err != nil {
			return // unknown fields then pass, and match nothing
		}
		s.fields = make(fieldSet, len(names))
		for _, n := range names {
			s.fields[n] = true
		}
	})
	return s.fields
}

// anyFields are where a word without a field is looked for.
var anyFields = []string{"white", "black", "event", "site", "opening_name"}

// perField copies a query on no field (Bleve's "_all", which xqdb does not
// index) to each of anyFields: any of them may match.
func perField[T any, PT interface {
	*T
	query.FieldableQuery
}](x PT) query.Query {
	alts := make([]query.Query, len(anyFields))
	for i, f := range anyFields {
		c := *x
		PT(&c).SetField(f)
		alts[i] = adapt(PT(&c))
	}
	return query.NewDisjunctionQuery(alts)
}

// adapt fits a parsed query to how fields are indexed: red means white, a
// query on no field asks anyFields, numeric queries on padded keyword
// fields become term ranges and padded terms, an unquoted value and a
// phrase on a field indexed without positions mean "all these words", and
// wildcard, prefix and fuzzy terms are folded.
func adapt(q query.Query) query.Query {
	if f, ok := q.(query.FieldableQuery); ok && f.Field() == "red" {
		f.SetField("white") // Red is White's name in Xiangqi; indexed once
	}
	if f, ok := q.(query.FieldableQuery); ok && (f.Field() == "" || f.Field() == "_all") {
		switch x := q.(type) {
		case *query.MatchQuery:
			return perField(x)
		case *query.MatchPhraseQuery:
			return perField(x)
		case *query.WildcardQuery:
			return perField(x)
		case *query.PrefixQuery:
			return perField(x)
		case *query.FuzzyQuery:
			return perField(x)
		case *query.RegexpQuery:
			return perField(x)
		case *query.TermQuery:
			return perField(x)
		}
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
		// All of a value's words: black:胡荣华 is three words, a
		// character each, and Bleve's default (any of them) would match
		// every player with 胡 or 华 in the name.
		x.SetOperator(query.MatchQueryOperatorAnd)
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
