package index

import (
	"fmt"
	"slices"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// TestTermCacheAsEachTerm: a TermCache lists the terms EachTerm lists
// (Bleve's), the first time it sees a field value and when it hands it
// back from its cache, and after it started afresh at its Limit.
func TestTermCacheAsEachTerm(t *testing.T) {
	tags := [][]Tag{
		{{"Red", "Lü Qin"}, {"Black", "Hu Ronghua"}, {"Date", "1988.05.01"}, {"Event", "National Championship"}, {"RedElo", "2600"}},
		{{"Red", "Hu Ronghua"}, {"Black", "Lü Qin"}, {"Date", "1995.05.01"}, {"ECCO", "C45"}, {"Event", "National Championship"}},
		{{"Red", "胡荣华"}, {"Black", "吕钦"}, {"Date", "4/17/1996"}, {"Site", "  Beijing  "}},
		{{"White", "Carlsen, Magnus"}, {"Black", "Anand, Viswanathan"}, {"WhiteElo", "2850"}, {"Round", "3.1"}, {"Annotator", "?"}},
	}
	c := NewTermCache()
	for pass := range 3 {
		if pass == 2 {
			c.Limit = 1 // starts afresh at every game
		}
		for i, tg := range tags {
			p, err := Prepare(newGame(t, engine.FirstWins, tg, "h2e2", "h9g7"))
			if err != nil {
				t.Fatal(err)
			}
			gid := uint32(i + 1)
			var want, got []string
			p.EachTerm(gid, func(field, term string, pos uint32) { want = append(want, fmt.Sprintf("%s:%s@%d", field, term, pos)) })
			fresh := 0
			c.Each(gid, p, func(ft *FieldTerms, isNew bool) {
				if isNew {
					fresh++
				}
				for j, term := range ft.Terms {
					got = append(got, fmt.Sprintf("%s:%s@%d", ft.Field, term, ft.Pos[j]))
				}
			})
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("pass %d, game %d: TermCache lists\n%v\nEachTerm\n%v", pass, gid, got, want)
			}
			if pass == 1 && fresh != 0 {
				t.Errorf("pass 1, game %d: %d field values analysed again", gid, fresh)
			}
		}
	}
}

// TestRawRecordsDecodeWithKeys: the bytes RawRecords reads in one pass
// are the stored records, and decoding them gives the keys a replay gives
// (what CopyGames uses instead of reading and replaying each game).
func TestRawRecordsDecodeWithKeys(t *testing.T) {
	s, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w, _ := s.NewWriter()
	for i, moves := range [][]string{{"h2e2", "h9g7"}, {"b2e2"}, {"c3c4", "c6c5", "h2e2"}, {"h2e2", "h9g7", "h0g2"}} {
		if _, err := w.Add(newGame(t, engine.FirstWins, []Tag{{"Round", fmt.Sprint(i)}}, moves...)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	gids := []uint32{1, 3, 4}
	bs, err := s.RawRecords(gids)
	if err != nil {
		t.Fatal(err)
	}
	for i, gid := range gids {
		want, _ := s.Game(gid)
		var keys []uint64
		got, err := decodeRecordKeys(gid, bs[i], &keys)
		if err != nil || got.Tag("Round") != want.Tag("Round") || !slices.Equal(got.Moves, want.Moves) {
			t.Errorf("game %d: %+v, %v; want %+v", gid, got, err, want)
		}
		if wantKeys, _ := recordKeys(want); !slices.Equal(keys, wantKeys) {
			t.Errorf("game %d: keys %x, want %x", gid, keys, wantKeys)
		}
		if p, err := prepare(&Game{Record: *got, Keys: keys}, nil); err != nil || !slices.Equal(p.Encoded(), bs[i]) {
			t.Errorf("game %d: encoded again %x, stored %x (%v)", gid, p.Encoded(), bs[i], err)
		}
	}
	if _, err := s.RawRecords([]uint32{2, 9}); err == nil {
		t.Error("RawRecords of a game that is not stored: no error")
	}
}
