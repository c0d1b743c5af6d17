package index

import (
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/xqdb/xqdb/engine"
)

// What another backend (index/clickhouse) needs of a prepared game and of
// the record and metadata formats, so that it stores the same bytes and
// terms as Store and answers alike.

// Attrs returns the game's attributes (Hash and Players included).
func (p *Prepared) Attrs() Attrs { return p.attrs }

// Encoded returns the compact record (record.go), which DecodeRecord reads.
func (p *Prepared) Encoded() []byte { return p.bytes }

// Game says which game p is.
func (p *Prepared) Game() engine.Game { return p.rec.Game }

// EachOccurrence calls fn for every distinct position the game reached:
// its key, the first ply it was reached at and the wire code of the move
// played there (EndSlot where the game ended; occurrencesOf).
func (p *Prepared) EachOccurrence(fn func(key uint64, ply, code uint16)) {
	for _, o := range p.occ {
		fn(o.key, o.ply, o.code)
	}
}

// EachTerm calls fn for every term of the game's metadata document as
// Bleve indexes it, with the term's position in its field (0 in fields
// other than the players' names, whose positions answer phrases: Bleve
// keeps none, phrase.go): what TermSource backends store.
func (p *Prepared) EachTerm(fn func(field, term string, pos uint32)) {
	RecordTerms(p.rec, p.attrs, fn)
}

// RecordTerms is EachTerm for a stored record (its Opening filled in).
func RecordTerms(r *Record, a Attrs, fn func(field, term string, pos uint32)) {
	for _, f := range metaFields(metaMapping(), r, a, nil, nil) { // not metaDoc: Bleve's fields keep no positions
		tf := document.NewTextFieldCustom(f.name, nil, []byte(f.value), f.opts, f.analyzer)
		tf.Analyze()
		for term, freq := range tf.AnalyzedTokenFrequencies() {
			if len(freq.Locations) == 0 {
				fn(f.name, term, 0)
				continue
			}
			for _, l := range freq.Locations {
				fn(f.name, term, uint32(l.Position))
			}
		}
	}
}

// DecodeRecord reads a compact record written by Encoded.
func DecodeRecord(gid uint32, b []byte) (*Record, error) { return decodeRecord(gid, b) }

// RecordKeys replays a stored record and returns the key of every
// position it reached (Game.Keys).
func RecordKeys(r *Record) ([]uint64, error) { return recordKeys(r) }

// DedupeKey is what a duplicate must share with a stored game under d
// (Writer.dedupeKey); SameGame then decides (for DedupeGame).
func DedupeKey(d Dedupe, a Attrs) uint64 {
	if d == DedupeMoves {
		return a.Hash
	}
	return a.Hash ^ uint64(a.Players)*0x9e3779b97f4a7c15
}

// SameGame reports whether a and b are one game under DedupeGame (the
// same result, dates that agree where known).
func SameGame(a, b Attrs) bool { return sameGame(a, b) }

// MoveStatsOf is the tree line one game adds (its result, rating, date).
func MoveStatsOf(code uint16, a Attrs) MoveStats {
	var v statsValue
	v.add(0, code, a)
	return v.Moves[0]
}

// FieldTerms is the analysis of one field value of a game's metadata
// document: its terms as Bleve indexes them (EachTerm), each with its
// position in the field (0 in fields other than the players' names).
type FieldTerms struct {
	Field string
	Terms []string
	Pos   []uint32
	// Rows is the caller's: what it made of these terms when it first saw
	// them, handed back with them (a TermCache gives the same *FieldTerms
	// for the same field value).
	Rows []byte
	// Stored is the caller's too: it has stored what it must store once
	// per distinct term (a dictionary of the terms).
	Stored bool
}

// TermRower is implemented by a GameWriter that stores the metadata terms
// itself, as rows it makes of each field value's terms (index/clickhouse).
// CopyGames then analyses the games' metadata while it prepares them, on
// every core (a TermCache per goroutine, sharing what they analysed), sets
// the Rows of each distinct field value to TermRows of it, and hands the
// fields to AddPrepared with the game (Prepared.Terms): AddPrepared adds
// the games one after the other, and the analysis was a fifth of a copy's
// work done there (issue 19). TermRows must be safe for concurrent use.
type TermRower interface {
	TermRows(ft *FieldTerms) []byte
}

// Terms returns the fields of p's metadata document as a TermCache lists
// them, with their Rows, when CopyGames prepared p for a TermRower; nil
// otherwise.
func (p *Prepared) Terms() []*FieldTerms { return p.terms }

// listTerms sets p's Terms: c's analysis of its metadata.
func listTerms(c *TermCache, p *Prepared) {
	p.terms = make([]*FieldTerms, 0, 24) // a game has a dozen fields or so
	c.Each(p, func(ft *FieldTerms, _ bool) { p.terms = append(p.terms, ft) })
}

// TermCache lists the terms of games' metadata as EachTerm does, analysing
// each distinct field value once: games share players, events, sites,
// dates and openings, and Bleve's analysis of a value costs far more than
// looking it up. A game's fields are looked up by name and value, without
// building its Bleve document (building one for every game cost a copy
// about as much as analysing the new values: issue 19). It is not safe
// for concurrent use; caches made together by sharedTermCaches share what
// they analysed.
type TermCache struct {
	im    *mapping.IndexMappingImpl
	kw    analysis.Analyzer // the keyword analyzer, which analysis skips
	fc    *fieldCache       // tag names' fields, player names' readings
	terms map[fieldKey]*FieldTerms
	fs    []fieldValue // a game's fields, reused
	// last is the game before's fields, by their place in the document:
	// games next to each other come from one file and share an event, a
	// site, a date, …: 42% of the fields of all of ../shared/data are the
	// one at the same place in the game before, found without hashing
	// them and probing a large map.
	last []lastField
	// Limit is how many field values it keeps before it starts afresh
	// (memory stays bounded over any number of games).
	Limit int
	// shared, when not nil, is what the caches of one copy analysed;
	// rows, when not nil, makes a new value's Rows before another cache
	// can see it.
	shared *sharedTerms
	rows   func(*FieldTerms) []byte
}

// sharedTerms are the field values several TermCaches analysed: of the
// 141 k distinct values of all of ../shared/data (196,270 games, opening
// names included), 46 k appear in more than one game, and a cache per
// goroutine analysed each of those once per goroutine.
type sharedTerms struct {
	mu    sync.Mutex
	terms map[fieldKey]*FieldTerms
	limit int
}

// fieldKey is a field value of a metadata document.
type fieldKey struct{ name, value string }

type lastField struct {
	fieldKey
	ft *FieldTerms
}

// NewTermCache returns an empty cache.
func NewTermCache() *TermCache {
	im := metaMapping()
	return &TermCache{im: im, kw: im.AnalyzerNamed(keyword.Name), fc: newFieldCache(), terms: map[fieldKey]*FieldTerms{}, Limit: 1 << 20}
}

// sharedTermCaches returns n empty caches that share what they analyse,
// each value's Rows made by rows (which must be safe for concurrent use).
func sharedTermCaches(n int, rows func(*FieldTerms) []byte) []*TermCache {
	sh := &sharedTerms{terms: map[fieldKey]*FieldTerms{}, limit: 1 << 20}
	out := make([]*TermCache, n)
	for i := range out {
		out[i] = NewTermCache()
		out[i].shared, out[i].rows = sh, rows
	}
	return out
}

// Each calls fn with every field of p's metadata document; fresh says that
// this cache had not seen that field value yet.
func (c *TermCache) Each(p *Prepared, fn func(ft *FieldTerms, fresh bool)) {
	if len(c.terms) >= c.Limit {
		c.fc, c.terms, c.last = newFieldCache(), map[fieldKey]*FieldTerms{}, c.last[:0]
	}
	c.fs = metaFields(c.im, p.rec, p.attrs, c.fc, c.fs[:0])
	for i, f := range c.fs {
		// A value's terms do not depend on the rest of the document:
		// EachTerm analyses every field on its own, a name the document
		// repeats (two rulings) included.
		k := fieldKey{f.name, f.value}
		if i < len(c.last) && c.last[i].fieldKey == k {
			fn(c.last[i].ft, false)
			continue
		}
		ft, ok := c.terms[k]
		if !ok {
			// Kept, the value is copied: a record's strings share
			// its bytes (decodeRecordKeys).
			k = fieldKey{strings.Clone(k.name), strings.Clone(k.value)}
			f.name, f.value = k.name, k.value
			ft = c.analyse(k, f)
			c.terms[k] = ft
		}
		if i < len(c.last) {
			c.last[i] = lastField{k, ft}
		} else {
			c.last = append(c.last, lastField{k, ft})
		}
		fn(ft, !ok)
	}
}

// analyse returns the terms of field value f (k): another cache's
// analysis of it, or its own.
func (c *TermCache) analyse(k fieldKey, f fieldValue) *FieldTerms {
	sh := c.shared
	if sh != nil {
		sh.mu.Lock()
		ft := sh.terms[k]
		sh.mu.Unlock()
		if ft != nil {
			return ft
		}
	}
	var ft *FieldTerms
	if f.analyzer == c.kw {
		// What Bleve's keyword analyzer makes of a value: itself, at no
		// position (keyword fields keep no term vectors).
		ft = &FieldTerms{Field: f.name, Terms: []string{f.value}, Pos: []uint32{0}}
	} else {
		ft = textTerms(f)
	}
	if c.rows != nil {
		ft.Rows = c.rows(ft)
	}
	if sh != nil {
		sh.mu.Lock()
		if len(sh.terms) >= sh.limit {
			clear(sh.terms)
		}
		if first := sh.terms[k]; first != nil {
			ft = first // analysed by two caches at once: one is kept
		} else {
			sh.terms[k] = ft
		}
		sh.mu.Unlock()
	}
	return ft
}

// textTerms is what Bleve indexes of a text field's value (TextField's
// Analyze, then TokenFrequency), without the map of term frequencies
// Bleve builds on the way (0.55 of its 1.2 CPU-s in the profile of a
// copy): every token at its position in a phrase field (metaFields),
// else each distinct term once, at no position.
func textTerms(f fieldValue) *FieldTerms {
	tokens := f.analyzer.Analyze([]byte(f.value))
	ft := &FieldTerms{Field: f.name, Terms: make([]string, 0, len(tokens)), Pos: make([]uint32, 0, len(tokens))}
	if f.opts.IncludeTermVectors() {
		for _, t := range tokens {
			ft.Terms, ft.Pos = append(ft.Terms, string(t.Term)), append(ft.Pos, uint32(t.Position))
		}
		return ft
	}
	var seen map[string]bool // for a long value; a short one is searched
	for _, t := range tokens {
		if len(ft.Terms) > 16 && seen == nil {
			seen = map[string]bool{}
			for _, s := range ft.Terms {
				seen[s] = true
			}
		}
		if seen != nil && seen[string(t.Term)] || seen == nil && containsBytes(ft.Terms, t.Term) {
			continue
		}
		s := string(t.Term)
		if seen != nil {
			seen[s] = true
		}
		ft.Terms, ft.Pos = append(ft.Terms, s), append(ft.Pos, 0)
	}
	return ft
}

func containsBytes(ss []string, b []byte) bool {
	for _, s := range ss {
		if s == string(b) {
			return true
		}
	}
	return false
}
