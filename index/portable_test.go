package index

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// TestTermCacheAsEachTerm: a TermCache lists the terms EachTerm lists
// (Bleve's), the first time it sees a field value and when it hands it
// back from its cache, and after it started afresh at its Limit; a
// document that names a field twice (two rulings) included. A game whose
// field values it has all seen costs no allocation: it builds no document.
func TestTermCacheAsEachTerm(t *testing.T) {
	tags := [][]Tag{
		{{"Red", "Lü Qin"}, {"Black", "Hu Ronghua"}, {"Date", "1988.05.01"}, {"Event", "National Championship"}, {"RedElo", "2600"}},
		{{"Red", "Hu Ronghua"}, {"Black", "Lü Qin"}, {"Date", "1995.05.01"}, {"ECCO", "C45"}, {"Event", "National Championship"}},
		{{"Red", "胡荣华"}, {"Black", "吕钦"}, {"Date", "4/17/1996"}, {"Site", "  Beijing  "}},
		{{"White", "Carlsen, Magnus"}, {"Black", "Anand, Viswanathan"}, {"WhiteElo", "2850"}, {"Round", "3.1"}, {"Annotator", "?"}},
		// Terms a value repeats: each at its position in a phrase field,
		// once in another field, short or long.
		{{"White", "Hu Hu Ronghua Hu"}, {"Event", "Cup of the Cup, CUP"}, {"Annotator", "a b c d e f g h i j k l m n o p q r s t u v w x y z" + strings.Repeat(" one two a z", 3)}},
	}
	rulings := [][]engine.Ruling{3: {{Game: engine.Chess, Ply: 1, Status: engine.Repetition}, {Game: engine.Chess, Ply: 2, Status: engine.Repetition},
		{Game: engine.Chess, Ply: 2, Status: engine.FiftyMoves}}}
	c := NewTermCache()
	for pass := range 3 {
		if pass == 2 {
			c.Limit = 1 // starts afresh at every game
		}
		for i, tg := range tags {
			g := newGame(t, engine.FirstWins, tg, "h2e2", "h9g7")
			g.Rulings = rulings[min(i, len(rulings)-1)]
			p, err := Prepare(g)
			if err != nil {
				t.Fatal(err)
			}
			gid := uint32(i + 1)
			var want, got []string
			p.EachTerm(func(field, term string, pos uint32) { want = append(want, fmt.Sprintf("%s:%s@%d", field, term, pos)) })
			fresh := 0
			c.Each(p, func(ft *FieldTerms, isNew bool) {
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
			if pass == 1 {
				if n := testing.AllocsPerRun(20, func() { c.Each(p, func(*FieldTerms, bool) {}) }); n != 0 {
					t.Errorf("game %d, all its values cached: %.0f allocations", gid, n)
				}
			}
		}
	}
}

// TestSharedTermCaches: caches made together (CopyGames makes one per
// goroutine) analyse a field value once between them: a value one has
// analysed comes to the other with the same terms and rows, and rows are
// made once per distinct value, also when the caches run at once.
func TestSharedTermCaches(t *testing.T) {
	var made atomic.Int64
	rows := func(ft *FieldTerms) []byte { made.Add(1); return []byte(ft.Field) }
	prep := func(tags ...Tag) *Prepared {
		p, err := Prepare(newGame(t, engine.Draw, tags, "h2e2"))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	lists := func(c *TermCache, p *Prepared) (out []*FieldTerms) {
		c.Each(p, func(ft *FieldTerms, _ bool) { out = append(out, ft) })
		return out
	}
	g1 := prep(Tag{"Red", "Lü Qin"}, Tag{"Black", "Hu Ronghua"}, Tag{"Event", "National Championship"})
	g2 := prep(Tag{"Red", "Lü Qin"}, Tag{"Black", "Xu Yinchuan"}, Tag{"Event", "National Championship"})
	cs := sharedTermCaches(2, rows)
	a := lists(cs[0], g1)
	n := made.Load()
	if n != int64(len(a)) {
		t.Fatalf("%d fields, %d rows made", len(a), n)
	}
	if b := lists(cs[1], g1); !slices.Equal(a, b) {
		t.Error("the second cache analysed the first one's values again")
	}
	lists(cs[1], g2) // one new value: Xu Yinchuan
	if got := made.Load() - n; got != 1 {
		t.Errorf("%d rows made for one new value", got)
	}
	for _, ft := range lists(cs[0], g2) {
		if string(ft.Rows) != ft.Field {
			t.Errorf("%s: rows %q", ft.Field, ft.Rows)
		}
	}
	// At once (go test -race): every game's fields, from both caches.
	cs = sharedTermCaches(2, rows)
	var wg sync.WaitGroup
	for _, c := range cs {
		wg.Go(func() {
			for i := range 50 {
				for _, ft := range lists(c, prep(Tag{"Event", fmt.Sprint("Cup ", i%7)}, Tag{"Round", fmt.Sprint(i)})) {
					if string(ft.Rows) != ft.Field {
						t.Errorf("%s: rows %q", ft.Field, ft.Rows)
					}
				}
			}
		})
	}
	wg.Wait()
}

// TestTermCacheCopiesWhatItKeeps: the strings of a record decoded for a
// copy share the record's bytes (decodeRecordKeys); a TermCache keeps
// copies of the values it meets, so that it holds no record alive.
func TestTermCacheCopiesWhatItKeeps(t *testing.T) {
	g := played(t, engine.Xiangqi, 6)
	g.rec.Tags = append(g.rec.Tags, Tag{"Event", "National Championship"}, Tag{"Round", "3"})
	b, err := encodeRecord(nil, g.rec)
	if err != nil {
		t.Fatal(err)
	}
	var sc recordScratch
	r, err := decodeRecordKeys(1, b, &sc)
	if err != nil {
		t.Fatal(err)
	}
	p, err := prepare(&Game{Record: *r, Keys: sc.keys}, b)
	if err != nil {
		t.Fatal(err)
	}
	// Within a record's length of its first tag's name: in its bytes.
	first, n := uintptr(unsafe.Pointer(unsafe.StringData(r.Tags[0].Name))), uintptr(len(b))
	inRecord := func(s string) bool {
		d := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		return len(s) > 0 && d+n >= first && d < first+n
	}
	if !inRecord(r.Tags[len(r.Tags)-1].Value) {
		t.Fatal("the record's strings do not share its bytes")
	}
	c := NewTermCache()
	c.Each(p, func(*FieldTerms, bool) {})
	for k, ft := range c.terms {
		if inRecord(k.name) || inRecord(k.value) || slices.ContainsFunc(ft.Terms, inRecord) {
			t.Errorf("the cache keeps %s=%q in the record's bytes", k.name, k.value)
		}
	}
	for name, v := range c.fc.names {
		if inRecord(name) || inRecord(v) {
			t.Errorf("the cache keeps the name %q in the record's bytes", name)
		}
	}
	for name := range c.fc.tags {
		if inRecord(name) {
			t.Errorf("the cache keeps the tag name %q in the record's bytes", name)
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
	var sc recordScratch // reused from record to record, as CopyGames does
	for i, gid := range gids {
		want, _ := s.Game(gid)
		got, err := decodeRecordKeys(gid, bs[i], &sc)
		keys := sc.keys
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
	// The records share buffers: appending to one leaves the next one be.
	next := slices.Clone(bs[1])
	_ = append(bs[0], 0xFF, 0xFF, 0xFF)
	if !slices.Equal(bs[1], next) {
		t.Error("appending to a record changed the next one")
	}
	if _, err := s.RawRecords([]uint32{2, 9}); err == nil {
		t.Error("RawRecords of a game that is not stored: no error")
	}
}

// played is a game of g of n plies from the start (each move the legal one
// at a rank that varies from ply to ply), prepared for the store.
func played(t testing.TB, g engine.Game, n int) *Prepared {
	p, _ := games.New(g, "")
	gm := &Game{Record: Record{Game: g, Result: engine.Draw, Tags: []Tag{{"White", "Hu Ronghua"}, {"Black", "Lü Qin"}, {"Date", "1990.05.17"}}}}
	gm.Keys = append(gm.Keys, p.Key())
	for i := range n {
		legal := p.AppendLegalMoves(nil)
		if len(legal) == 0 {
			break
		}
		m := legal[(7*i+3)%len(legal)]
		p.Make(m)
		gm.Moves = append(gm.Moves, m)
		gm.Keys = append(gm.Keys, p.Key())
	}
	pr, err := prepare(gm, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

// TestDecodeWithScratchAllocatesPerRecord: decoding records one after the
// other with a recordScratch (CopyGames) reuses its position, moves and
// keys: a record of 80 plies costs no more allocations than one of 4 (its
// tags and the Record itself), in either game, and fewer than decoding
// without one.
func TestDecodeWithScratchAllocatesPerRecord(t *testing.T) {
	for _, g := range []engine.Game{engine.Xiangqi, engine.Chess} {
		t.Run(g.String(), func(t *testing.T) {
			var sc recordScratch
			allocs := func(b []byte, s *recordScratch) float64 {
				return testing.AllocsPerRun(50, func() {
					if _, err := decodeRecordKeys(1, b, s); err != nil {
						t.Fatal(err)
					}
				})
			}
			short, long := played(t, g, 4).Encoded(), played(t, g, 80).Encoded()
			s, l, fresh := allocs(short, &sc), allocs(long, &sc), allocs(long, nil)
			if l > s || l >= fresh {
				t.Errorf("allocations with a scratch: %.0f for 4 plies, %.0f for 80; %.0f without one", s, l, fresh)
			}
			// Nor with its tags: their strings share one copy of the
			// record's bytes.
			tagged := played(t, g, 4)
			for i := range 10 {
				tagged.rec.Tags = append(tagged.rec.Tags, Tag{fmt.Sprint("Tag", i), fmt.Sprint("value ", i)})
			}
			b, err := encodeRecord(nil, tagged.rec)
			if err != nil {
				t.Fatal(err)
			}
			if n := allocs(b, &sc); n > s {
				t.Errorf("allocations with a scratch: %.0f for 3 tags, %.0f for 13", s, n)
			}
			// The keys are the positions' keys, as a replay gives them.
			r, err := decodeRecordKeys(1, long, &sc)
			if err != nil {
				t.Fatal(err)
			}
			if want, _ := recordKeys(r); !slices.Equal(sc.keys, want) {
				t.Errorf("keys %x, want %x", sc.keys, want)
			}
		})
	}
}

// BenchmarkDecodeRecordKeys: a stored record of 80 plies decoded with its
// position keys, as a copy decodes every record (ns/op over 80 plies).
func BenchmarkDecodeRecordKeys(b *testing.B) {
	for _, g := range []engine.Game{engine.Xiangqi, engine.Chess} {
		b.Run(g.String(), func(b *testing.B) {
			rec := played(b, g, 80).Encoded()
			var sc recordScratch
			b.ReportAllocs()
			for b.Loop() {
				if _, err := decodeRecordKeys(1, rec, &sc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTermCacheEach: the terms of a game whose field values the cache
// has seen (players, event, date, ratings), as a copy lists them for
// nearly every game.
func BenchmarkTermCacheEach(b *testing.B) {
	tags := []Tag{{"White", "Carlsen, Magnus"}, {"Black", "Anand, Viswanathan"}, {"Event", "World Championship"},
		{"Site", "Chennai IND"}, {"Date", "2013.11.09"}, {"Round", "1"}, {"WhiteElo", "2870"}, {"BlackElo", "2775"}, {"ECO", "B30"}}
	g := &Game{Record: Record{Game: engine.Chess, Result: engine.Draw, Tags: tags}}
	p, _ := games.New(engine.Chess, "")
	g.Keys = append(g.Keys, p.Key())
	pr, err := prepare(g, nil)
	if err != nil {
		b.Fatal(err)
	}
	c := NewTermCache()
	terms := 0
	c.Each(pr, func(ft *FieldTerms, _ bool) { terms += len(ft.Terms) })
	b.ReportAllocs()
	for b.Loop() {
		c.Each(pr, func(*FieldTerms, bool) {})
	}
	b.ReportMetric(float64(terms), "terms/op")
}
