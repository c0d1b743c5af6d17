package index

import (
	"context"
	"slices"

	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
)

// valueTerms is the store's metadata as a TermSource (termquery.go): a
// clause's values from their Bleve documents, their games from the
// postings (values.go), every game from the attributes. Fields the
// attributes answer are not asked of it (attrSearch).
type valueTerms struct {
	s *Store
	p *postingsReader
}

func (v *valueTerms) Fields() ([]string, error) { return v.s.meta.Fields() }

// Universe lists every game stored and not deleted.
func (v *valueTerms) Universe() ([]uint32, error) {
	return (&attrSearch{s: v.s}).materialize(gidSet{all: true})
}

func (v *valueTerms) Terms(field string, terms []string) ([]uint32, error) {
	return v.games(query.NewDisjunctionQuery(termQueries(field, terms)), nil)
}

// termQueries asks each of terms in field.
func termQueries(field string, terms []string) []query.Query {
	qs := make([]query.Query, len(terms))
	for i, t := range terms {
		q := query.NewTermQuery(t)
		q.SetField(field)
		qs[i] = q
	}
	return qs
}

func (v *valueTerms) Range(field, lo, hi string, loIncl, hiIncl bool) ([]uint32, error) {
	q := query.NewTermRangeInclusiveQuery(lo, hi, &loIncl, &hiIncl)
	q.SetField(field)
	return v.games(q, nil)
}

func (v *valueTerms) Regexp(field, expr string) ([]uint32, error) {
	q := query.NewRegexpQuery(expr)
	q.SetField(field)
	return v.games(q, nil)
}

// Positions reads the positions of terms in each value of field that
// holds them all, analysed as it was indexed.
func (v *valueTerms) Positions(field string, terms []string) (map[uint32]map[string][]uint32, error) {
	out := map[uint32]map[string][]uint32{}
	im := v.s.meta.Mapping()
	analyzer := im.AnalyzerNamed(im.AnalyzerNameForPath(field))
	_, err := v.games(query.NewConjunctionQuery(termQueries(field, terms)), func(value string, gids []uint32) {
		pos := map[string][]uint32{}
		for _, t := range analyzer.Analyze([]byte(value)) {
			if slices.Contains(terms, string(t.Term)) {
				pos[string(t.Term)] = append(pos[string(t.Term)], uint32(t.Position))
			}
		}
		for _, g := range gids {
			out[g] = pos
		}
	})
	return out, err
}

// games lists the games of the values q matches, increasing, each once;
// each value's games are also given to each when it is not nil.
func (v *valueTerms) games(q query.Query, each func(value string, gids []uint32)) ([]uint32, error) {
	if v.s.meta == nil {
		return nil, v.s.errNoMetadata()
	}
	adv, err := v.s.meta.Advanced()
	if err != nil {
		return nil, err
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	sr, err := q.Searcher(context.Background(), r, v.s.meta.Mapping(), search.SearcherOptions{Score: "none"})
	if err != nil {
		return nil, err
	}
	defer sr.Close()
	ctx := &search.SearchContext{DocumentMatchPool: search.NewDocumentMatchPool(sr.DocumentMatchPoolSize(), 0), IndexReader: r}
	var out []uint32
	for {
		dm, err := sr.Next(ctx)
		if err != nil {
			return nil, err
		}
		if dm == nil {
			break
		}
		id, err := r.ExternalID(dm.IndexInternalID)
		ctx.DocumentMatchPool.Put(dm)
		if err != nil {
			return nil, err
		}
		field, value, ok := parseValueDocID(id)
		if !ok {
			continue // a game's document of a store before schema 11
		}
		from := len(out)
		if out, err = v.p.games(out, field, value); err != nil {
			return nil, err
		}
		if each != nil {
			each(value, out[from:])
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// valuesAmong answers q, which asks no attributes' field, among the games
// of in.
func (e *attrSearch) valuesAmong(q query.Query, in gidSet) ([]uint32, error) {
	if e.terms == nil {
		e.terms = &termEval{src: &valueTerms{s: e.s, p: e.p}, im: metaMapping()}
	}
	ids, err := e.terms.eval(q)
	if err != nil {
		return nil, err
	}
	if in.all {
		return ids, nil
	}
	return intersectIDs(ids, in.ids), nil
}

// searchValues runs parsed queries among within (nil: every game).
func (s *Store) searchValues(within []uint32, queries []query.Query) ([]uint32, error) {
	in := gidSet{all: within == nil}
	if within != nil {
		// Games deleted leave every answer.
		in.ids = slices.DeleteFunc(slices.Compact(slices.Sorted(slices.Values(within))), func(gid uint32) bool {
			return gid == 0 || gid >= s.man.NextGid || s.Attrs(gid).Deleted
		})
	}
	p := s.newPostingsReader()
	defer p.close()
	e := &attrSearch{s: s, p: p}
	for _, q := range queries {
		var err error
		if in, err = e.eval(q, in); err != nil {
			return nil, err
		}
	}
	return e.materialize(in)
}
