package index

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"
)

// TermSource is a metadata index kept outside Bleve, as the terms Bleve
// would index (MetaTerms): a backend answers the leaves of a query and
// SearchTerms combines them exactly as Bleve does, so both backends find
// the same games. Every list is of game ids, increasing, without repeats.
type TermSource interface {
	// Fields lists the fields that hold at least one term.
	Fields() ([]string, error)
	// Universe lists every game.
	Universe() ([]uint32, error)
	// Terms lists the games with any of terms in field.
	Terms(field string, terms []string) ([]uint32, error)
	// Range lists the games with a term in field between lo and hi (byte
	// order; "" is an open end).
	Range(field, lo, hi string, loIncl, hiIncl bool) ([]uint32, error)
	// Regexp lists the games with a term in field matching expr (RE2
	// syntax, anchored at both ends).
	Regexp(field, expr string) ([]uint32, error)
	// Positions gives, per game with every one of terms in field, the
	// positions of each of them (MetaTerms' pos), by term.
	Positions(field string, terms []string) (map[uint32]map[string][]uint32, error)
}

// SearchTerms runs query strings over a TermSource: the ids of the games
// that match them all, among within when it is not nil (Store.Search's
// contract).
func SearchTerms(src TermSource, within []uint32, queries ...string) ([]uint32, error) {
	names, err := src.Fields()
	if err != nil {
		return nil, err
	}
	known := make(fieldSet, len(names))
	for _, n := range names {
		known[n] = true
	}
	e := &termEval{src: src, im: metaMapping()}
	var out []uint32
	first := true
	for _, q := range queries {
		if strings.TrimSpace(q) == "" {
			continue
		}
		bq, err := compileQuery(q, known)
		if err != nil {
			return nil, err
		}
		ids, err := e.eval(bq)
		if err != nil {
			return nil, fmt.Errorf("index: query %q: %w", q, err)
		}
		if first {
			out, first = ids, false
		} else {
			out = intersectIDs(out, ids)
		}
	}
	if first {
		if out, err = src.Universe(); err != nil {
			return nil, err
		}
	}
	if within != nil {
		w := slices.Clone(within)
		slices.Sort(w)
		out = intersectIDs(out, slices.Compact(w))
	}
	return out, nil
}

type termEval struct {
	src      TermSource
	im       *mapping.IndexMappingImpl
	universe []uint32
	loaded   bool
}

func (e *termEval) all() ([]uint32, error) {
	if !e.loaded {
		u, err := e.src.Universe()
		if err != nil {
			return nil, err
		}
		e.universe, e.loaded = u, true
	}
	return e.universe, nil
}

// analyze splits text as the field's analyzer does at indexing time.
func (e *termEval) analyze(field, text string) analysis.TokenStream {
	im := e.im
	return im.AnalyzerNamed(im.AnalyzerNameForPath(field)).Analyze([]byte(text))
}

func (e *termEval) eval(q query.Query) ([]uint32, error) {
	switch x := q.(type) {
	case *query.MatchAllQuery:
		return e.all()
	case *query.MatchNoneQuery:
		return nil, nil
	case *query.ConjunctionQuery:
		return e.conj(x.Conjuncts)
	case *query.DisjunctionQuery:
		return e.disj(x.Disjuncts, int(x.Min))
	case *query.BooleanQuery:
		var out []uint32
		var err error
		switch {
		case x.Must != nil:
			out, err = e.eval(x.Must)
		case x.Should != nil:
			out, err = e.eval(x.Should)
		default:
			out, err = e.all()
		}
		if err != nil {
			return nil, err
		}
		if x.Must != nil && x.Should != nil {
			s, err := e.eval(x.Should)
			if err != nil {
				return nil, err
			}
			out = intersectIDs(out, s)
		}
		if x.MustNot != nil {
			not, err := e.eval(x.MustNot)
			if err != nil {
				return nil, err
			}
			out = subtractIDs(out, not)
		}
		return out, nil
	case *query.TermQuery:
		return e.src.Terms(x.FieldVal, []string{x.Term})
	case *query.TermRangeQuery:
		lo, hi := x.Min, x.Max
		incl := func(b *bool) bool { return b == nil || *b }
		return e.src.Range(x.FieldVal, lo, hi, incl(x.InclusiveMin), incl(x.InclusiveMax))
	case *query.WildcardQuery:
		return e.src.Regexp(x.FieldVal, wildcardRegexp(x.Wildcard))
	case *query.PrefixQuery:
		return e.src.Regexp(x.FieldVal, regexp.QuoteMeta(x.Prefix)+".*")
	case *query.RegexpQuery:
		return e.src.Regexp(x.FieldVal, x.Regexp)
	case *query.MatchQuery:
		terms := distinctTerms(e.analyze(x.FieldVal, x.Match))
		if len(terms) == 0 {
			return nil, nil
		}
		if x.Operator == query.MatchQueryOperatorAnd {
			var out []uint32
			for i, t := range terms {
				ids, err := e.src.Terms(x.FieldVal, []string{t})
				if err != nil {
					return nil, err
				}
				if i == 0 {
					out = ids
				} else {
					out = intersectIDs(out, ids)
				}
			}
			return out, nil
		}
		return e.src.Terms(x.FieldVal, terms)
	case *query.MatchPhraseQuery:
		return e.phrase(x.FieldVal, e.analyze(x.FieldVal, x.MatchPhrase))
	}
	return nil, fmt.Errorf("index: cannot answer a %T from terms", q)
}

// distinctTerms lists the terms of toks once each, in byte order.
func distinctTerms(toks analysis.TokenStream) []string {
	terms := make([]string, 0, len(toks))
	for _, t := range toks {
		terms = append(terms, string(t.Term))
	}
	slices.Sort(terms)
	return slices.Compact(terms)
}

func (e *termEval) conj(qs []query.Query) ([]uint32, error) {
	if len(qs) == 0 {
		return nil, nil
	}
	var out []uint32
	for i, q := range qs {
		ids, err := e.eval(q)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			out = ids
		} else {
			out = intersectIDs(out, ids)
		}
		if len(out) == 0 {
			return nil, nil
		}
	}
	return out, nil
}

func (e *termEval) disj(qs []query.Query, minMatch int) ([]uint32, error) {
	lists := make([][]uint32, 0, len(qs))
	for _, q := range qs {
		ids, err := e.eval(q)
		if err != nil {
			return nil, err
		}
		lists = append(lists, ids)
	}
	return inAtLeast(lists, minMatch), nil
}

// inAtLeast lists the ids in at least minMatch of lists (in any of them
// for 1 or less), as Bleve's disjunction with a minimum does.
func inAtLeast(lists [][]uint32, minMatch int) []uint32 {
	var out []uint32
	if minMatch <= 1 {
		for _, ids := range lists {
			out = unionIDs(out, ids)
		}
		return out
	}
	count := map[uint32]int{}
	for _, ids := range lists {
		for _, g := range ids {
			count[g]++
		}
	}
	for g, n := range count {
		if n >= minMatch {
			out = append(out, g)
		}
	}
	slices.Sort(out)
	return out
}

// phrase matches the tokens at the same distances as in the query, as
// Store.Search does by reading the names (namePhrase).
func (e *termEval) phrase(field string, toks analysis.TokenStream) ([]uint32, error) {
	if len(toks) == 0 {
		return nil, nil
	}
	byGame, err := e.src.Positions(field, distinctTerms(toks))
	if err != nil {
		return nil, err
	}
	var out []uint32
	for gid, pos := range byGame {
		if phraseAt(pos, toks) {
			out = append(out, gid)
		}
	}
	slices.Sort(out)
	return out, nil
}

// wildcardRegexp turns a Bleve wildcard (* any run, ? one character) into
// the regular expression Bleve runs.
func wildcardRegexp(w string) string {
	var b strings.Builder
	for _, r := range w {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	return b.String()
}

func intersectIDs(a, b []uint32) []uint32 {
	var out []uint32
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

func unionIDs(a, b []uint32) []uint32 {
	out := make([]uint32, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

func subtractIDs(a, b []uint32) []uint32 {
	var out []uint32
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j < len(b) && b[j] == x {
			continue
		}
		out = append(out, x)
	}
	return out
}
