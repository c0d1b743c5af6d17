package index

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/standard"
	"github.com/blevesearch/bleve/v2/analysis/datetime/flexible"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"
	"github.com/blevesearch/bleve/v2/search/query"
	bleveindex "github.com/blevesearch/bleve_index_api"
)

// dateParser reads the dates users type in queries: "1990", "1990-05",
// "1990-05-01", "1990.05.01" and RFC 3339.
const dateParser = "xqdbdate"

func init() {
	err := registry.RegisterDateTimeParser(dateParser, func(map[string]interface{}, *registry.Cache) (analysis.DateTimeParser, error) {
		return flexible.New([]string{time.RFC3339, "2006-01-02", "2006.01.02", "2006/01/02", "2006-01", "2006.01", "2006"}), nil
	})
	if err != nil {
		panic(err)
	}
	// Query strings (date:>="1990") parse dates with this parser too.
	query.QueryDateTimeParser = dateParser
}

// Metadata fields (DESIGN "Metadata"). Text fields are analysed with the
// standard analyzer (lower-cased words, CJK split per character so a
// phrase matches a Chinese name); code-like fields are single keywords.
var (
	textFields    = []string{"white", "red", "black", "event", "site", "opening_name", "source"}
	keywordFields = []string{"game", "round", "result", "opening", "termination"}
)

func metaMapping() *mapping.IndexMappingImpl {
	im := bleve.NewIndexMapping()
	im.DefaultAnalyzer = standard.Name
	im.DefaultDateTimeParser = dateParser
	im.StoreDynamic = false
	im.DocValuesDynamic = false
	dm := bleve.NewDocumentMapping()
	text := func() *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = standard.Name
		// Term positions let phrase queries (black:"Lü Qin") match.
		f.Store, f.IncludeInAll, f.IncludeTermVectors, f.DocValues = false, false, true, false
		return f
	}
	for _, n := range textFields {
		dm.AddFieldMappingsAt(n, text())
	}
	for _, n := range keywordFields {
		f := bleve.NewKeywordFieldMapping()
		f.Analyzer = keyword.Name
		f.Store, f.IncludeInAll, f.IncludeTermVectors, f.DocValues = false, false, false, false
		dm.AddFieldMappingsAt(n, f)
	}
	date := bleve.NewDateTimeFieldMapping()
	date.DateFormat = dateParser
	date.Store, date.IncludeInAll, date.DocValues = false, false, false
	dm.AddFieldMappingsAt("date", date)
	num := bleve.NewNumericFieldMapping()
	num.Store, num.IncludeInAll, num.DocValues = false, false, false
	dm.AddFieldMappingsAt("plies", num)
	im.DefaultMapping = dm
	return im
}

func openMeta(path string, readOnly bool) (bleve.Index, error) {
	if _, err := os.Stat(path); err == nil {
		idx, err := bleve.OpenUsing(path, map[string]interface{}{"read_only": readOnly})
		if err != nil {
			return nil, fmt.Errorf("index: open metadata %s: %w", path, err)
		}
		return idx, nil
	}
	if readOnly {
		return nil, fmt.Errorf("%w: no metadata index in %s", ErrNoStore, path)
	}
	idx, err := bleve.NewUsing(path, metaMapping(), "scorch", "scorch", nil)
	if err != nil {
		return nil, fmt.Errorf("index: create metadata %s: %w", path, err)
	}
	return idx, nil
}

// docID is a game's Bleve document id: its gid in decimal.
func docID(gid uint32) string { return strconv.FormatUint(uint64(gid), 10) }

// metaFieldNames maps PGN tags to metadata fields; other tags are indexed
// under their lower-cased name.
var metaFieldNames = map[string]string{
	"white": "white", "red": "white", "black": "black", "event": "event", "site": "site",
	"round": "round", "eco": "opening", "ecco": "opening", "opening": "opening_name",
	"variation": "opening_name",
}

// skipTags are tags not worth a field: set-up and format plumbing.
var skipTags = map[string]bool{"fen": true, "setup": true, "format": true, "game": true, "result": true, "date": true, "plycount": true}

// metaDoc builds the Bleve document of a game directly (no reflection),
// with the analyzers the mapping declares, so query strings see the same
// terms.
func metaDoc(im *mapping.IndexMappingImpl, gid uint32, r *Record, a Attrs) *document.Document {
	std := im.AnalyzerNamed(standard.Name)
	kw := im.AnalyzerNamed(keyword.Name)
	opts := bleveindex.IndexField
	textOpts := opts | bleveindex.IncludeTermVectors
	d := document.NewDocument(docID(gid))
	addText := func(name, v string) {
		if v = strings.TrimSpace(v); v != "" && v != "?" {
			d.AddField(document.NewTextFieldCustom(name, nil, []byte(v), textOpts, std))
		}
	}
	addKeyword := func(name, v string) {
		if v = strings.TrimSpace(v); v != "" {
			d.AddField(document.NewTextFieldCustom(name, nil, []byte(v), opts, kw))
		}
	}
	addKeyword("game", r.Game.String())
	addKeyword("result", r.Result.String())
	addKeyword("termination", r.Termination.String())
	addText("source", r.Source.File)
	for _, t := range r.Tags {
		name := strings.ToLower(t.Name)
		if skipTags[name] {
			continue
		}
		field, known := metaFieldNames[name]
		if !known {
			field = name
		}
		switch field {
		case "round", "opening":
			addKeyword(field, t.Value)
		case "white":
			addText("white", t.Value)
			if name == "red" {
				addText("red", t.Value)
			}
		default:
			addText(field, t.Value)
		}
	}
	if a.Date != 0 {
		y, m, day := int(a.Date/10000), int(a.Date/100%100), int(a.Date%100)
		t := time.Date(y, time.Month(max(m, 1)), max(day, 1), 0, 0, 0, 0, time.UTC)
		if f, err := document.NewDateTimeFieldWithIndexingOptions("date", nil, t, time.RFC3339, opts); err == nil {
			d.AddField(f)
		}
	}
	d.AddField(document.NewNumericFieldWithIndexingOptions("plies", nil, float64(a.Plies), opts))
	return d
}
