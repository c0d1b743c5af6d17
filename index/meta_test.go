package index

import (
	"slices"
	"strconv"
	"testing"

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

// TestBatchValues: a batch's values are each game's metadata fields but
// the attributes', each value once in the order it first comes, with the
// games that have it, each once (a name twice in a game, two rulings,
// counts one posting).
func TestBatchValues(t *testing.T) {
	im := metaMapping()
	var docs []pendingDoc
	for i, g := range metaDocGames() {
		p, err := Prepare(g)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, pendingDoc{uint32(10 + i), p.rec, p.attrs})
	}
	bv := valuesOf(im, docs, newFieldCache())
	var order []fieldKey
	games := map[fieldKey][]uint32{}
	for _, d := range docs {
		for _, f := range metaFields(im, d.rec, d.attrs, nil, nil) {
			k := fieldKey{f.name, f.value}
			if attrFields[f.name] {
				continue
			}
			if _, ok := games[k]; !ok {
				order = append(order, k)
			}
			if !slices.Contains(games[k], d.gid) {
				games[k] = append(games[k], d.gid)
			}
		}
	}
	var got []fieldKey
	for _, f := range bv.order {
		got = append(got, fieldKey{f.name, f.value})
	}
	if !slices.Equal(got, order) {
		t.Fatalf("values %v, want %v", got, order)
	}
	for k, want := range games {
		if got := bv.games(k.name, k.value); !slices.Equal(got, want) {
			t.Errorf("%v: games %v, want %v", k, got, want)
		}
	}
	if g := bv.games("ruling", "repetition"); len(g) != 1 {
		t.Errorf("two rulings of one game: games %v", g)
	}
}

// BenchmarkBatchValues: the values of a batch of games, as the metadata
// indexer gathers them (ns/op a game).
func BenchmarkBatchValues(b *testing.B) {
	im := metaMapping()
	var docs []pendingDoc
	for i, g := range metaDocGames() {
		p, err := Prepare(g)
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, pendingDoc{uint32(i + 1), p.rec, p.attrs})
	}
	cache := newFieldCache()
	b.ReportAllocs()
	for b.Loop() {
		for i := range docs {
			valuesOf(im, docs[i:i+1], cache)
		}
	}
}

// TestParseUint32: ratings read as strconv.ParseUint(s, 10, 32) reads them.
func TestParseUint32(t *testing.T) {
	for _, s := range []string{"", "?", "-", "0", "2851", "0002851", "+2851", "-1", "2851 ", "4294967295", "4294967296", "99999999999999999999", "２８５１"} {
		want, err := strconv.ParseUint(s, 10, 32)
		got, ok := parseUint32(s)
		if ok != (err == nil) || ok && got != want {
			t.Errorf("parseUint32(%q) = %d, %v; want %d, %v", s, got, ok, want, err)
		}
	}
}
