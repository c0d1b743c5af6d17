package index

import (
	"context"
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
	w, _ := s.NewWriter()
	for i, tags := range [][]Tag{
		{{"White", "Carlsen, Magnus"}, {"Black", "Lê Quang Liêm"}},
		{{"White", "Magnus Carlsen"}, {"Black", "Liêm Lê Quang"}},
		{{"White", "Magnus Ivan Carlsen"}, {"Black", "Carlsen"}},
	} {
		// Chess names get no readings (names.go): a name's words are the
		// ones written.
		g := playedGame(t, engine.Chess, engine.UCI, engine.Draw, tags, []string{"e2e4", "d2d4", "c2c4"}[i])
		if _, err := w.Add(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
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
