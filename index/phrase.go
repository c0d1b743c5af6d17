package index

import (
	"context"
	"errors"
	"slices"
	"strconv"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
	bleveindex "github.com/blevesearch/bleve_index_api"
	"github.com/dgraph-io/badger/v4"
)

// Phrases on players' names (white:"Lü Qin") are checked against the
// stored records, not against term positions in the metadata index: Bleve
// keeps a name's words without their positions (term vectors were 10 of
// the 40 MB of ../shared/data's metadata index, and took the database
// past twice its gzip'd PGN), finds the games holding every word of the
// phrase, and namePhrase keeps those whose name holds the words in the
// phrase's order. The name is analysed as it was indexed (metaFields),
// every value of the field together, so the answer is the one Bleve's
// phrase search gave with positions and the one a TermSource backend
// gives from its own (termEval.phrase).

// namePhrase is a phrase query on a phrase field, answered by store s.
type namePhrase struct {
	field, phrase string
	s             *Store
}

// checkNamePhrases replaces the phrase queries on phrase fields in q by
// namePhrase queries of s.
func (s *Store) checkNamePhrases(q query.Query) query.Query {
	switch x := q.(type) {
	case *query.MatchPhraseQuery:
		if slices.Contains(phraseFields, x.FieldVal) {
			return &namePhrase{field: x.FieldVal, phrase: x.MatchPhrase, s: s}
		}
	case *query.BooleanQuery:
		for _, sub := range []*query.Query{&x.Must, &x.Should, &x.MustNot} {
			if *sub != nil {
				*sub = s.checkNamePhrases(*sub)
			}
		}
	case *query.ConjunctionQuery:
		for i := range x.Conjuncts {
			x.Conjuncts[i] = s.checkNamePhrases(x.Conjuncts[i])
		}
	case *query.DisjunctionQuery:
		for i := range x.Disjuncts {
			x.Disjuncts[i] = s.checkNamePhrases(x.Disjuncts[i])
		}
	}
	return q
}

// Searcher finds the games whose field holds every word of the phrase and
// keeps those where the words stand as in the phrase.
func (q *namePhrase) Searcher(ctx context.Context, r bleveindex.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	toks := m.AnalyzerNamed(m.AnalyzerNameForPath(q.field)).Analyze([]byte(q.phrase))
	if len(toks) == 0 {
		return searcher.NewMatchNoneSearcher(r)
	}
	terms := distinctTerms(toks)
	subs := make([]search.Searcher, 0, len(terms))
	closeAll := func() {
		for _, s := range subs {
			_ = s.Close()
		}
	}
	for _, t := range terms {
		ts, err := searcher.NewTermSearcher(ctx, r, t, q.field, 1, o)
		if err != nil {
			closeAll()
			return nil, err
		}
		subs = append(subs, ts)
	}
	if len(toks) == 1 {
		return subs[0], nil // a phrase of one word is the word
	}
	all, err := searcher.NewConjunctionSearcher(ctx, r, subs, o)
	if err != nil {
		closeAll()
		return nil, err
	}
	return &phraseChecker{Searcher: all, q: q, r: r, txn: q.s.db.NewTransaction(false), im: metaMapping(), toks: toks,
		fields: make([]fieldValue, 0, 24)}, nil
}

// phraseChecker passes on the games of its Searcher whose names hold the
// phrase (FilteringSearcher, with the reading's errors returned).
type phraseChecker struct {
	search.Searcher
	q      *namePhrase
	r      bleveindex.IndexReader
	txn    *badger.Txn               // the records' reads, one for all
	im     *mapping.IndexMappingImpl // metaFields' analyzers
	toks   analysis.TokenStream
	fields []fieldValue    // a record's fields, reused
	seen   map[string]bool // names checked, by their tags (holds)
	key    []byte
}

func (c *phraseChecker) Close() error {
	c.txn.Discard()
	return c.Searcher.Close()
}

func (c *phraseChecker) Next(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	return c.keep(ctx, c.Searcher.Next)
}

func (c *phraseChecker) Advance(ctx *search.SearchContext, id bleveindex.IndexInternalID) (*search.DocumentMatch, error) {
	first := true
	return c.keep(ctx, func(ctx *search.SearchContext) (*search.DocumentMatch, error) {
		if first {
			first = false
			return c.Searcher.Advance(ctx, id)
		}
		return c.Searcher.Next(ctx)
	})
}

// keep returns the first document of next that holds the phrase.
func (c *phraseChecker) keep(ctx *search.SearchContext, next func(*search.SearchContext) (*search.DocumentMatch, error)) (*search.DocumentMatch, error) {
	for {
		d, err := next(ctx)
		if d == nil || err != nil {
			return nil, err
		}
		ok, err := c.holds(d)
		if err != nil {
			return nil, err
		}
		if ok {
			return d, nil
		}
		ctx.DocumentMatchPool.Put(d)
	}
}

// holds reads the game of d and reports whether its field holds the
// phrase. Games share players, so each distinct name is analysed once.
func (c *phraseChecker) holds(d *search.DocumentMatch) (bool, error) {
	id, err := c.r.ExternalID(d.IndexInternalID)
	if err != nil {
		return false, err
	}
	gid, err := strconv.ParseUint(id, 10, 32)
	if err != nil {
		return false, nil // not a game's document
	}
	rec, err := c.q.s.recordIn(c.txn, uint32(gid), decodeRecordHeader)
	if errors.Is(err, ErrNoGame) {
		return false, nil // deleted after the metadata was read
	}
	if err != nil {
		return false, err
	}
	// The key is the field's tags as written (and the game, which decides
	// the readings): the indexed value adds readings, slower to find than
	// the answer is to look up.
	c.key = append(c.key[:0], byte(rec.Game))
	for _, t := range rec.Tags {
		if tagFieldOf(t.Name) == c.q.field {
			c.key = append(append(c.key, t.Value...), 0)
		}
	}
	if ok, found := c.seen[string(c.key)]; found {
		return ok, nil
	}
	c.fields = metaFields(c.im, rec, Attrs{}, nil, c.fields[:0])
	pos := map[string][]uint32{}
	for _, f := range c.fields {
		if f.name != c.q.field {
			continue
		}
		for _, t := range f.analyzer.Analyze([]byte(f.value)) {
			pos[string(t.Term)] = append(pos[string(t.Term)], uint32(t.Position))
		}
	}
	ok := phraseAt(pos, c.toks)
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	c.seen[string(c.key)] = ok
	return ok, nil
}

// phraseAt reports whether the terms at positions pos (a field's, by
// term) hold toks at the same distances as in toks.
func phraseAt(pos map[string][]uint32, toks analysis.TokenStream) bool {
	for _, start := range pos[string(toks[0].Term)] {
		ok := true
		for i := 1; i < len(toks) && ok; i++ {
			want := int(start) + toks[i].Position - toks[0].Position
			ok = want >= 0 && slices.Contains(pos[string(toks[i].Term)], uint32(want))
		}
		if ok {
			return true
		}
	}
	return false
}
