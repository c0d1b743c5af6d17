package index

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// TestNamePhraseWordOrder: a phrase on a player's name matches the names
// holding its words in its order, wherever the phrase stands in a query,
// while the metadata index keeps no positions of those words (phrase.go).
func TestNamePhraseWordOrder(t *testing.T) {
	s, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var gs []*Game
	for i, tags := range [][]Tag{
		{{"White", "Carlsen, Magnus"}, {"Black", "Lê Quang Liêm"}},
		{{"White", "Magnus Carlsen"}, {"Black", "Liêm Lê Quang"}},
		{{"White", "Magnus Ivan Carlsen"}, {"Black", "Carlsen"}},
	} {
		// Chess names get no readings (names.go): a name's words are the
		// ones written.
		gs = append(gs, playedGame(t, engine.Chess, engine.UCI, engine.Draw, tags, []string{"e2e4", "d2d4", "c2c4"}[i]))
	}
	importGames(t, s, gs)
	for _, tt := range []struct {
		q    string
		want []uint32
	}{
		{`red:"Magnus Carlsen"`, []uint32{2}},
		{`red:"Carlsen Magnus"`, []uint32{1}},
		{`red:"carlsen, magnus" OR red:"MAGNUS CARLSEN"`, []uint32{1, 2}},
		{`red:magnus AND NOT red:"magnus carlsen"`, []uint32{1, 3}},
		{`red:"Ivan"`, []uint32{3}},
		{`red:"Magnus Ivan Carlsen"`, []uint32{3}},
		{`red:"Ivan Magnus"`, nil},
		{`"Magnus Carlsen"`, []uint32{2}}, // on no field: any name
		{`black:"le quang"`, []uint32{1, 2}},
		{`black:"Quang Liêm"`, []uint32{1}},
		{`black:"liem le"`, []uint32{2}},
		{`black:"liem le" result:draw`, []uint32{2}},
		{`black:"magnus carlsen"`, nil},
	} {
		got, err := s.Search(nil, tt.q)
		slices.Sort(got)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("Search(%s) = %v, %v; want %v", tt.q, got, err, tt.want)
		}
	}
	// Within a position's games, too.
	if got, err := s.Search([]uint32{1, 3}, `red:"Magnus Carlsen"`); err != nil || len(got) != 0 {
		t.Errorf("Search within 1, 3 = %v, %v; want none", got, err)
	}

	adv, err := s.meta.Advanced()
	if err != nil {
		t.Fatal(err)
	}
	r, err := adv.Reader()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tfr, err := r.TermFieldReader(context.Background(), []byte("magnus"), "white", true, true, true)
	if err != nil {
		t.Fatal(err)
	}
	defer tfr.Close()
	n := 0
	for {
		d, err := tfr.Next(nil)
		if err != nil {
			t.Fatal(err)
		}
		if d == nil {
			break
		}
		n++
		if len(d.Vectors) != 0 {
			t.Errorf("white:magnus keeps positions in the metadata index: %v", d.Vectors)
		}
	}
	if n != 3 {
		t.Errorf("white:magnus in %d documents, want 3", n)
	}
}

// BenchmarkNamePhrase: a phrase on a name that 2,000 of 8,000 games have
// the words of, in either order (1,000 each), so every candidate's record
// is read and half are kept: the cost of the check per candidate, beside
// the same words as a query of all of them (no check).
func BenchmarkNamePhrase(b *testing.B) {
	s, err := Open(b.TempDir(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	first := []string{"e2e4", "d2d4", "c2c4", "g1f3"}
	second := []string{"e7e5", "d7d5", "c7c5", "g8f6", "b8c6", "e7e6"}
	var gs []*Game
	for i := range 8000 {
		white := fmt.Sprintf("Player %d", i%500)
		switch i % 8 {
		case 0:
			white = "Magnus Carlsen"
		case 4:
			white = "Carlsen, Magnus"
		}
		// Distinct games: their dates differ.
		date := fmt.Sprintf("%d.%02d.%02d", 1900+i%100, 1+i/100%12, 1+i/1200)
		tags := []Tag{{"White", white}, {"Black", fmt.Sprintf("Opponent %d", i%300)}, {"Date", date}}
		gs = append(gs, playedGame(b, engine.Chess, engine.UCI, engine.Draw, tags, first[i%4], second[(i/4)%6]))
	}
	importGames(b, s, gs)
	for _, q := range []string{`white:"Magnus Carlsen"`, `white:(+magnus +carlsen)`} {
		b.Run(q, func(b *testing.B) {
			for b.Loop() {
				ids, err := s.Search(nil, q)
				if err != nil || len(ids) < 1000 {
					b.Fatalf("%d games, %v", len(ids), err)
				}
			}
		})
	}
}
