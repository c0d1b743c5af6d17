package index

import (
	"fmt"
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2/document"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// metaDocGames are records in the order an import meets them: the same
// event, site and date game after game, a value moving to another place in
// the document (a tag missing), one value under two fields, a name twice
// (rulings), and back to the first game's values.
func metaDocGames() []*Game {
	tags := [][]Tag{
		{{"White", "Carlsen, Magnus"}, {"Black", "Anand, Viswanathan"}, {"Event", "World Championship"}, {"Site", "Chennai IND"}, {"Date", "2013.11.09"}, {"Round", "1"}, {"WhiteElo", "2870"}, {"BlackElo", "2775"}},
		{{"White", "Anand, Viswanathan"}, {"Black", "Carlsen, Magnus"}, {"Event", "World Championship"}, {"Site", "Chennai IND"}, {"Date", "2013.11.10"}, {"Round", "2"}, {"WhiteElo", "2775"}, {"BlackElo", "2870"}},
		{{"White", "Anand, Viswanathan"}, {"Event", "World Championship"}, {"Site", "Chennai IND"}, {"Round", "3"}},
		{{"White", "Chennai IND"}, {"Black", "World Championship"}, {"Event", "Carlsen, Magnus"}, {"Annotator", "Carlsen, Magnus"}},
		{{"Red", "Lü Qin"}, {"Black", "Hu Ronghua"}, {"Event", "World Championship"}, {"Round", "3"}},
		{{"White", "Carlsen, Magnus"}, {"Black", "Anand, Viswanathan"}, {"Event", "World Championship"}, {"Site", "Chennai IND"}, {"Date", "2013.11.09"}, {"Round", "1"}, {"WhiteElo", "2870"}, {"BlackElo", "2775"}},
	}
	var out []*Game
	for i, tg := range tags {
		p, _ := games.New(engine.Xiangqi, "")
		g := &Game{Record: Record{Game: engine.Xiangqi, Result: engine.Result(1 + i%3), Tags: tg}, Keys: []uint64{p.Key()}}
		if i == 3 {
			g.Rulings = []engine.Ruling{{Game: engine.Xiangqi, Ply: 1, Status: engine.Repetition}, {Game: engine.Xiangqi, Ply: 2, Status: engine.Repetition}}
		}
		out = append(out, g)
	}
	return out
}

// analysedFields is a document's fields as Bleve indexes them: name,
// options, value, length and every term with its frequency and locations.
func analysedFields(d *document.Document) []string {
	var out []string
	d.VisitFields(func(f bleveindex.Field) {
		f.Analyze()
		var terms []string
		for term, tf := range f.AnalyzedTokenFrequencies() {
			var locs []string
			for _, l := range tf.Locations {
				locs = append(locs, fmt.Sprintf("%s@%d:%d-%d%v", l.Field, l.Position, l.Start, l.End, l.ArrayPositions))
			}
			terms = append(terms, fmt.Sprintf("%s×%d%v", term, tf.Frequency(), locs))
		}
		slices.Sort(terms)
		out = append(out, fmt.Sprintf("%s %v %q len %d %v", f.Name(), f.Options(), f.Value(), f.AnalyzedLength(), terms))
	})
	return out
}

// TestMetaDocCacheAsUncached: documents built with a field cache, which
// finds a value at the place the document before had it or by name and
// value, are the documents built without one, field for field.
func TestMetaDocCacheAsUncached(t *testing.T) {
	im := metaMapping()
	cache := newFieldCache()
	gs := metaDocGames()
	for pass := range 2 {
		for i, g := range gs {
			p, err := Prepare(g)
			if err != nil {
				t.Fatal(err)
			}
			gid := uint32(i + 1)
			want := analysedFields(metaDoc(im, gid, p.rec, p.attrs, nil))
			got := analysedFields(metaDoc(im, gid, p.rec, p.attrs, cache))
			if !slices.Equal(got, want) {
				t.Errorf("pass %d, game %d: with the cache\n%s\nwithout\n%s", pass, gid, got, want)
			}
		}
	}
}

// TestMetaDocAllocations: a document whose values the batch has seen costs
// three allocations (the document, its fields, its id); an empty field
// slice grew five times a document, and each value was found in two maps.
func TestMetaDocAllocations(t *testing.T) {
	im := metaMapping()
	cache := newFieldCache()
	g := metaDocGames()[0]
	p, err := Prepare(g)
	if err != nil {
		t.Fatal(err)
	}
	metaDoc(im, 1000, p.rec, p.attrs, cache)
	if n := testing.AllocsPerRun(50, func() { metaDoc(im, 1000, p.rec, p.attrs, cache) }); n > 3 {
		t.Errorf("metaDoc of values seen: %.0f allocations, want at most 3", n)
	}
}

// BenchmarkMetaDoc: the metadata documents of a batch, as the import's
// Bleve indexer builds them (ns/op a document).
func BenchmarkMetaDoc(b *testing.B) {
	im := metaMapping()
	var ps []*Prepared
	for _, g := range metaDocGames() {
		p, err := Prepare(g)
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, p)
	}
	cache := newFieldCache()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p := ps[i%len(ps)]
		metaDoc(im, uint32(i), p.rec, p.attrs, cache)
		i++
	}
}
