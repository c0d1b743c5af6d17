package index

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"

	"github.com/blevesearch/bleve/v2/search/query"
)

// attrFields are the metadata fields answered from the games' attributes
// (attrs.go), in memory, instead of from the metadata index: each game has
// one value of each (a date only when known), and indexing them cost
// about a tenth of an import's CPU when Bleve held a document for each
// game (issue 18). metaFields still lists them, as the terms a TermSource
// backend stores; the metadata indexer leaves them out (values.go).
var attrFields = map[string]bool{"game": true, "result": true, "date": true, "plies": true}

// appendAttrTerm appends to dst the term field would have in a's game's
// metadata document (metaFields), and false when it has none.
func appendAttrTerm(dst []byte, field string, a Attrs) ([]byte, bool) {
	switch field {
	case "game":
		return append(dst, a.Game.String()...), true
	case "result":
		return append(dst, a.Result.String()...), true
	case "date":
		if a.Date == 0 {
			return dst, false
		}
		return appendPadded(dst, uint64(a.Date), paddedFields["date"]), true
	case "plies":
		return appendPadded(dst, uint64(a.Plies), paddedFields["plies"]), true
	}
	return dst, false
}

// appendPadded appends padNumber(v, width) to dst.
func appendPadded(dst []byte, v uint64, width int) []byte {
	var tmp [20]byte
	d := strconv.AppendUint(tmp[:0], v, 10)
	for i := len(d); i < width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, d...)
}

// usesAttrs says whether q asks any of attrFields.
func usesAttrs(q query.Query) bool {
	switch x := q.(type) {
	case *query.ConjunctionQuery:
		return slices.ContainsFunc(x.Conjuncts, usesAttrs)
	case *query.DisjunctionQuery:
		return slices.ContainsFunc(x.Disjuncts, usesAttrs)
	case *query.BooleanQuery:
		return x.Must != nil && usesAttrs(x.Must) || x.Should != nil && usesAttrs(x.Should) ||
			x.MustNot != nil && usesAttrs(x.MustNot)
	case query.FieldableQuery:
		return attrFields[x.Field()]
	}
	return false
}

// matchesAll says whether q matches every game (NOT a is all but a).
func matchesAll(q query.Query) bool {
	switch x := q.(type) {
	case *query.MatchAllQuery:
		return true
	case *query.ConjunctionQuery:
		return len(x.Conjuncts) > 0 && !slices.ContainsFunc(x.Conjuncts, func(c query.Query) bool { return !matchesAll(c) })
	}
	return false
}

// gidSet is the games a query part is evaluated among: every game, or ids
// (increasing, without repeats).
type gidSet struct {
	all bool
	ids []uint32
}

// attrSearch evaluates a query, as termEval does, each part among the
// games the parts before it left: the parts without attrFields first, as
// one query over the metadata values (valuesAmong), and the attributes
// then test only what it found (result:1-0 white:carlsen reads the
// attributes of Carlsen's games, not of every game).
type attrSearch struct {
	s     *Store
	p     *postingsReader
	terms *termEval // the other clauses' (valuesAmong)
	buf   []byte
}

func (e *attrSearch) eval(q query.Query, in gidSet) (gidSet, error) {
	if !in.all && len(in.ids) == 0 {
		return in, nil
	}
	if matchesAll(q) {
		return in, nil // every game: the attributes list them, not Bleve
	}
	if !usesAttrs(q) {
		ids, err := e.valuesAmong(q, in)
		return gidSet{ids: ids}, err
	}
	switch x := q.(type) {
	case *query.ConjunctionQuery:
		var bleve, attrs []query.Query
		for _, c := range x.Conjuncts {
			if usesAttrs(c) {
				attrs = append(attrs, c)
			} else {
				bleve = append(bleve, c)
			}
		}
		out := in
		if len(bleve) > 0 {
			ids, err := e.valuesAmong(query.NewConjunctionQuery(bleve), in)
			if err != nil {
				return gidSet{}, err
			}
			out = gidSet{ids: ids}
		}
		for _, c := range attrs {
			var err error
			if out, err = e.eval(c, out); err != nil {
				return gidSet{}, err
			}
		}
		return out, nil
	case *query.DisjunctionQuery:
		lists := make([][]uint32, 0, len(x.Disjuncts))
		for _, d := range x.Disjuncts {
			r, err := e.eval(d, in)
			if err != nil {
				return gidSet{}, err
			}
			ids, err := e.materialize(r)
			if err != nil {
				return gidSet{}, err
			}
			lists = append(lists, ids)
		}
		return gidSet{ids: inAtLeast(lists, int(x.Min))}, nil
	case *query.BooleanQuery:
		// As termEval: Must, then Should, each among what the one before
		// left; MustNot takes its games away.
		out := in
		for _, sub := range []query.Query{x.Must, x.Should} {
			if sub == nil {
				continue
			}
			var err error
			if out, err = e.eval(sub, out); err != nil {
				return gidSet{}, err
			}
		}
		if x.MustNot != nil {
			not, err := e.eval(x.MustNot, out)
			if err != nil {
				return gidSet{}, err
			}
			ids, err := e.materialize(out)
			if err != nil {
				return gidSet{}, err
			}
			notIDs, err := e.materialize(not)
			if err != nil {
				return gidSet{}, err
			}
			out = gidSet{ids: subtractIDs(ids, notIDs)}
		}
		return out, nil
	}
	return e.leaf(q, in)
}

// leaf tests each game of in against a clause on one of attrFields.
func (e *attrSearch) leaf(q query.Query, in gidSet) (gidSet, error) {
	f, ok := q.(query.FieldableQuery)
	if !ok {
		return gidSet{}, fmt.Errorf("index: cannot answer a %T from the attributes", q)
	}
	field := f.Field()
	match, err := attrMatcher(q)
	if err != nil {
		return gidSet{}, err
	}
	var out []uint32
	test := func(gid uint32, a Attrs) {
		var ok bool
		if e.buf, ok = appendAttrTerm(e.buf[:0], field, a); ok && match(e.buf) {
			out = append(out, gid)
		}
	}
	if in.all {
		err := e.s.EachGame(test)
		return gidSet{ids: out}, err
	}
	for _, gid := range in.ids {
		if a := e.s.Attrs(gid); gid < e.s.man.NextGid && !a.Deleted {
			test(gid, a)
		}
	}
	return gidSet{ids: out}, nil
}

// attrMatcher is the test of a term against a leaf query, as Bleve reads
// its kind of query (and termEval: TermSource's contract).
func attrMatcher(q query.Query) (func(term []byte) bool, error) {
	switch x := q.(type) {
	case *query.TermQuery:
		return func(t []byte) bool { return string(t) == x.Term }, nil
	case *query.TermRangeQuery:
		incl := func(b *bool) bool { return b == nil || *b }
		lo, hi := []byte(x.Min), []byte(x.Max)
		loIncl, hiIncl := incl(x.InclusiveMin), incl(x.InclusiveMax)
		return func(t []byte) bool {
			if len(lo) > 0 {
				if c := bytes.Compare(t, lo); c < 0 || c == 0 && !loIncl {
					return false
				}
			}
			if len(hi) > 0 {
				if c := bytes.Compare(t, hi); c > 0 || c == 0 && !hiIncl {
					return false
				}
			}
			return true
		}, nil
	case *query.WildcardQuery:
		return anchored(wildcardRegexp(x.Wildcard))
	case *query.PrefixQuery:
		return anchored(regexp.QuoteMeta(x.Prefix) + ".*")
	case *query.RegexpQuery:
		return anchored(x.Regexp)
	case *query.MatchQuery:
		// A keyword field: the value is one term.
		return func(t []byte) bool { return string(t) == x.Match }, nil
	case *query.MatchPhraseQuery:
		return func(t []byte) bool { return string(t) == x.MatchPhrase }, nil
	}
	return nil, fmt.Errorf("index: cannot answer a %T from the attributes", q)
}

func anchored(expr string) (func([]byte) bool, error) {
	re, err := regexp.Compile(`^(?:` + expr + `)$`)
	if err != nil {
		return nil, err
	}
	return re.Match, nil
}

// materialize lists the games of r.
func (e *attrSearch) materialize(r gidSet) ([]uint32, error) {
	if !r.all {
		return r.ids, nil
	}
	ids := make([]uint32, 0, e.s.man.NextGid)
	err := e.s.EachGame(func(gid uint32, _ Attrs) { ids = append(ids, gid) })
	return ids, err
}
