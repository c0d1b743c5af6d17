package index

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
	"github.com/blevesearch/bleve/v2/mapping"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/xqdb/xqdb/engine"
)

// Metadata fields (DESIGN "Metadata"). Text is analysed by textAnalyzer
// (words, CJK split per character, folded: fold.go). Phrases on player
// names match exactly (black:"Lü Qin", a Chinese name): the index finds
// the games with every word, and the stored names are checked for their
// order (phrase.go), so the index keeps no term positions; on other text
// a phrase means all of its words. Code-like fields are single keywords.
//
// Numbers (date as yyyymmdd with unknown parts 0, plies, Elo ratings) are
// zero-padded keywords, and Search turns numeric comparisons on them into
// term ranges: Bleve's numeric and datetime fields index a term per
// precision step, which measured twice the index size for the same
// queries. year and month are not indexed: Search reads them as ranges of
// date (every field costs Bleve time per document at import).
var (
	phraseFields  = []string{"white", "black"}
	keywordFields = []string{"game", "round", "result", "opening", "termination", "ruling", "source"}
	// paddedFields are numbers stored as keywords of a fixed width.
	paddedFields = map[string]int{"date": 8, "plies": 4, "whiteelo": 4, "blackelo": 4, "redelo": 4}
)

func metaMapping() *mapping.IndexMappingImpl {
	im := bleve.NewIndexMapping()
	im.DefaultAnalyzer = textAnalyzer
	im.StoreDynamic = false
	im.DocValuesDynamic = false
	dm := bleve.NewDocumentMapping()
	for _, n := range phraseFields {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = textAnalyzer
		f.Store, f.IncludeInAll, f.IncludeTermVectors, f.DocValues = false, false, false, false
		dm.AddFieldMappingsAt(n, f)
	}
	for _, n := range keywordFields {
		f := bleve.NewKeywordFieldMapping()
		f.Analyzer = keyword.Name
		f.Store, f.IncludeInAll, f.IncludeTermVectors, f.DocValues = false, false, false, false
		dm.AddFieldMappingsAt(n, f)
	}
	for n := range paddedFields {
		f := bleve.NewKeywordFieldMapping()
		f.Analyzer = keyword.Name
		f.Store, f.IncludeInAll, f.IncludeTermVectors, f.DocValues = false, false, false, false
		dm.AddFieldMappingsAt(n, f)
	}
	im.DefaultMapping = dm
	return im
}

func openMeta(path string, readOnly bool) (bleve.Index, error) {
	if _, err := os.Stat(path); err == nil {
		cfg := scorchConfig()
		cfg["read_only"] = readOnly
		idx, err := bleve.OpenUsing(path, cfg)
		if err != nil {
			return nil, fmt.Errorf("index: open metadata %s: %w", path, err)
		}
		return idx, nil
	}
	if readOnly {
		return nil, fmt.Errorf("%w: no metadata index in %s", ErrNoStore, path)
	}
	// A new index is made beside its final name and renamed into place: a
	// process killed while Bleve writes the mapping would otherwise leave a
	// folder with an empty index_meta.json, which no later run can open.
	tmp := path + ".new"
	if err := os.RemoveAll(tmp); err != nil {
		return nil, fmt.Errorf("index: create metadata %s: %w", path, err)
	}
	idx, err := bleve.NewUsing(tmp, metaMapping(), "scorch", "scorch", scorchConfig())
	if err == nil {
		err = idx.Close()
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		return nil, fmt.Errorf("index: create metadata %s: %w", path, err)
	}
	return openMeta(path, false)
}

// scorchConfig keeps no old snapshots (xqdb never rolls the metadata back,
// and old snapshots pin the segment files a merge replaced) and lets many
// segments pile up before Bleve merges them on its own: every import ends
// by merging them (compactMeta), so merging them in tiers during the
// import only repeats that work.
func scorchConfig() map[string]interface{} {
	return map[string]interface{}{
		"numSnapshotsToKeep": 0,
		"scorchMergePlanOptions": map[string]interface{}{
			"MaxSegmentsPerTier":   100,
			"MaxSegmentSize":       mergeplan.DefaultMergePlanOptions.MaxSegmentSize,
			"MaxSegmentFileSize":   mergeplan.DefaultMergePlanOptions.MaxSegmentFileSize,
			"TierGrowth":           mergeplan.DefaultMergePlanOptions.TierGrowth,
			"SegmentsPerMergeTask": mergeplan.DefaultMergePlanOptions.SegmentsPerMergeTask,
			"FloorSegmentSize":     mergeplan.DefaultMergePlanOptions.FloorSegmentSize,
			"ReclaimDeletesWeight": mergeplan.DefaultMergePlanOptions.ReclaimDeletesWeight,
		},
	}
}

// metaFieldNames maps PGN tags to metadata fields; other tags are indexed
// under their lower-cased name as plain text.
var metaFieldNames = map[string]string{
	"white": "white", "red": "white", "black": "black", "event": "event", "site": "site",
	"round": "round", "eco": "opening", "ecco": "opening", "opening": "opening_name",
	"variation": "opening_name",
}

// skipTags are tags not worth a field: set-up and format plumbing, and
// what the record already gives (result, date, ply count).
var skipTags = map[string]bool{"fen": true, "setup": true, "format": true, "game": true, "result": true, "date": true, "plycount": true}

// metaFields appends the fields of a game's metadata document to fs, not
// analysed yet (a TermCache looks their terms up by value; the metadata
// indexer gathers the values, values.go).
func metaFields(im *mapping.IndexMappingImpl, r *Record, a Attrs, cache *fieldCache, fs []fieldValue) []fieldValue {
	text, kw := cache.analyzers(im)
	// Searches never score (Score "none"), so no field keeps the term
	// frequencies and norms that only scoring reads: a norm is a float's
	// bits as a varint, five bytes a posting, 4.0 of the 40.3 MB of the
	// metadata index of ../shared/data's 196,270 games. Phrase fields ask
	// for their terms' positions, which phrase checks and TermSource
	// backends read and Bleve's documents leave out (values.go).
	plain := bleveindex.IndexField | bleveindex.SkipFreqNorm
	phrase := plain | bleveindex.IncludeTermVectors
	addText := func(name, v string) {
		if v = strings.TrimSpace(v); v != "" && v != "?" {
			opts := plain
			if slices.Contains(phraseFields, name) {
				opts = phrase
			}
			fs = append(fs, fieldValue{name, v, opts, text})
		}
	}
	addKeyword := func(name, v string) {
		if v = strings.TrimSpace(v); v != "" {
			fs = append(fs, fieldValue{name, v, plain, kw})
		}
	}
	addNumber := func(name string, v uint64) {
		addKeyword(name, cache.padded(v, paddedFields[name]))
	}
	addKeyword("game", r.Game.String())
	addKeyword("result", r.Result.String())
	addKeyword("termination", terminationName(r))
	for _, ru := range r.Rulings {
		addKeyword("ruling", ru.StatusName())
	}
	addKeyword("source", r.Source.File)
	if r.Opening != "" {
		addKeyword("opening", r.Opening)
		addText("opening_name", r.OpeningName)
	}
	for _, t := range r.Tags {
		field := cache.tagField(t.Name)
		if field == "" {
			continue
		}
		if r.Opening != "" && (field == "opening" || field == "opening_name") {
			continue // the classification replaces the tags (issue 15)
		}
		switch field {
		case "round", "opening":
			addKeyword(field, t.Value)
		case "whiteelo", "blackelo", "redelo":
			if v, ok := parseUint32(strings.TrimSpace(t.Value)); ok && v < 10000 {
				addNumber(field, v)
			}
		case "white", "black": // and Red: Search reads red: as white:
			addText(field, cache.withReadings(t.Value, r.Game == engine.Xiangqi))
		default:
			addText(field, t.Value)
		}
	}
	if a.Date != 0 {
		addNumber("date", uint64(a.Date))
	}
	addNumber("plies", uint64(a.Plies))
	return fs
}

// parseUint32 is strconv.ParseUint(s, 10, 32) without the error value it
// allocates for each rating that is not a number ("", "?", "-"): a game
// in five has one.
func parseUint32(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		if v = v*10 + uint64(s[i]-'0'); v > math.MaxUint32 {
			return 0, false
		}
	}
	return v, true
}

// fieldValue is a field of a metadata document before analysis.
type fieldValue struct {
	name, value string
	opts        bleveindex.FieldIndexingOptions
	analyzer    analysis.Analyzer
}

// fieldCache keeps what metaFields works out for the values of a batch
// of games, which share players, events, sites, dates and tag names.
type fieldCache struct {
	tags  map[string]string // tag names' fields (tagField)
	names map[string]string // player names with their readings
	pad   map[uint64]string // padNumber's, by number and width
	// The analyzers of the mapping the cache is used with (analyzers).
	text, kw analysis.Analyzer
}

func newFieldCache() *fieldCache {
	return &fieldCache{tags: map[string]string{}, names: map[string]string{}, pad: map[uint64]string{}}
}

// padded is padNumber, remembering the answer: dates, ply counts and
// ratings repeat from game to game.
func (c *fieldCache) padded(v uint64, width int) string {
	if c == nil {
		return padNumber(v, width)
	}
	k := v<<8 | uint64(width) // v < 2^32: a date, a count, a rating
	s, ok := c.pad[k]
	if !ok {
		s = padNumber(v, width)
		c.pad[k] = s
	}
	return s
}

// withReadings is the indexed text of a player's name (names.go), worked
// out once per batch.
func (c *fieldCache) withReadings(name string, xiangqi bool) string {
	if c == nil || !xiangqi {
		return withReadings(name, xiangqi)
	}
	v, ok := c.names[name]
	if !ok {
		// Kept, the name is copied: a record's strings may share its
		// bytes (decodeRecordKeys).
		name = strings.Clone(name)
		v = withReadings(name, xiangqi)
		c.names[name] = v
	}
	return v
}

// analyzers returns the text and keyword analyzers of im, the first time
// from im (a registry behind a lock).
func (c *fieldCache) analyzers(im *mapping.IndexMappingImpl) (text, kw analysis.Analyzer) {
	if c == nil {
		return im.AnalyzerNamed(textAnalyzer), im.AnalyzerNamed(keyword.Name)
	}
	if c.text == nil {
		c.text, c.kw = im.AnalyzerNamed(textAnalyzer), im.AnalyzerNamed(keyword.Name)
	}
	return c.text, c.kw
}

// tagField is the field a tag of this name goes to ("" when none: skipTags),
// remembering the answer: a game has a dozen tags, of a few dozen names.
func (c *fieldCache) tagField(name string) string {
	if c == nil {
		return tagFieldOf(name)
	}
	f, ok := c.tags[name]
	if !ok {
		name = strings.Clone(name) // kept (withReadings)
		f = tagFieldOf(name)
		c.tags[name] = f
	}
	return f
}

func tagFieldOf(name string) string {
	l := strings.ToLower(name)
	if skipTags[l] {
		return ""
	}
	if f, ok := metaFieldNames[l]; ok {
		return f
	}
	return l
}

// padNumber writes v in decimal, zero-padded to width digits, so that
// keyword order is numeric order.
func padNumber(v uint64, width int) string { return string(appendPadded(nil, v, width)) }

// terminationName is the termination as users query it ("checkmate",
// "perpetual_chase", "threefold" in chess, …).
func terminationName(r *Record) string {
	return engine.Ruling{Game: r.Game, Status: r.Termination}.StatusName()
}
