package index

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
	"github.com/dgraph-io/badger/v4"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// newGame plays ICCS moves from the start into an index.Game.
func newGame(t *testing.T, result engine.Result, tags []Tag, moves ...string) *Game {
	t.Helper()
	return playedGame(t, engine.Xiangqi, engine.ICCS, result, tags, moves...)
}

// playedGame is a game of kind game from its start position, its moves
// written in notation n.
func playedGame(t testing.TB, game engine.Game, n engine.Notation, result engine.Result, tags []Tag, moves ...string) *Game {
	t.Helper()
	p, _ := games.New(game, "")
	g := &Game{Record: Record{Game: game, Result: result, Tags: tags}}
	g.Keys = append(g.Keys, p.Key())
	for _, s := range moves {
		m, err := p.ParseMove(s, n)
		if err != nil {
			t.Fatal(err)
		}
		p.Make(m)
		g.Moves = append(g.Moves, m)
		g.Keys = append(g.Keys, p.Key())
	}
	return g
}

func position(t *testing.T, moves ...string) engine.Position {
	t.Helper()
	p, _ := games.New(engine.Xiangqi, "")
	for _, s := range moves {
		m, err := p.ParseMove(s, engine.ICCS)
		if err != nil {
			t.Fatal(err)
		}
		p.Make(m)
	}
	return p
}

func totalGames(ms []MoveStats) (n uint32) {
	for _, m := range ms {
		if m.Code != EndSlot {
			n += m.Games
		}
	}
	return n
}

func TestWriteAndLookup(t *testing.T) {
	for _, runGames := range []int{1, 2, 100} {
		dir := t.TempDir()
		s, err := Open(dir, Options{RunGames: runGames, PromoteAt: 2, MaxRuns: 3})
		if err != nil {
			t.Fatal(err)
		}
		w, err := s.NewWriter()
		if err != nil {
			t.Fatal(err)
		}
		gs := []*Game{
			newGame(t, engine.FirstWins, []Tag{{"Red", "A"}, {"Black", "B"}, {"Date", "1990.01.01"}}, "h2e2", "h9g7", "h0g2"),
			newGame(t, engine.Draw, []Tag{{"Red", "C"}, {"Black", "D"}, {"Date", "1991.01.01"}}, "h2e2", "b9c7"),
			newGame(t, engine.SecondWins, []Tag{{"Red", "E"}}, "b2e2", "h9g7"),
			newGame(t, engine.FirstWins, []Tag{{"Red", "a"}, {"Black", "B"}, {"Date", "1990"}}, "h2e2", "h9g7", "h0g2"), // duplicate of the first
		}
		for i, g := range gs {
			res, err := w.Add(g)
			if err != nil {
				t.Fatal(err)
			}
			if (i == 3) != res.Duplicate {
				t.Fatalf("game %d duplicate = %v", i, res.Duplicate)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		check := func(s *Store) {
			t.Helper()
			if s.Games() != 3 {
				t.Fatalf("runGames %d: %d games stored, want 3", runGames, s.Games())
			}
			st, err := s.Position(engine.Xiangqi, position(t), true)
			if err != nil {
				t.Fatal(err)
			}
			if totalGames(st.Moves) != 3 || len(st.Games) != 3 {
				t.Fatalf("runGames %d: start position: %d games in tree, %d listed; want 3", runGames, totalGames(st.Moves), len(st.Games))
			}
			st, _ = s.Position(engine.Xiangqi, position(t, "h2e2"), true)
			if totalGames(st.Moves) != 2 {
				t.Fatalf("runGames %d: after h2e2 %d games, want 2 (%+v)", runGames, totalGames(st.Moves), st.Moves)
			}
			st, _ = s.Position(engine.Xiangqi, position(t, "h2e2", "h9g7", "h0g2"), true)
			if len(st.Games) != 1 || st.Moves[0].Code != EndSlot || st.Games[0].Ply != 3 && st.Games[0].Ply != -1 {
				t.Fatalf("runGames %d: final position: %+v", runGames, st)
			}
			r, err := s.Game(1)
			if err != nil || len(r.Moves) != 3 || r.Tag("Red") != "A" {
				t.Fatalf("game 1: %+v %v", r, err)
			}
		}
		check(s)
		s.Close()
		s, err = Open(dir, Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		check(s)
		s.Close()
	}
}

func TestSearchMetadata(t *testing.T) {
	s, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w, _ := s.NewWriter()
	add := func(tags []Tag, moves ...string) {
		if _, err := w.Add(newGame(t, engine.FirstWins, tags, moves...)); err != nil {
			t.Fatal(err)
		}
	}
	add([]Tag{{"Red", "Lü Qin"}, {"Black", "Hu Ronghua"}, {"Date", "1988.05.01"}, {"Event", "National Championship"}, {"RedElo", "2600"}}, "h2e2")
	add([]Tag{{"Red", "Hu Ronghua"}, {"Black", "Lü Qin"}, {"Date", "1995.05.01"}, {"ECCO", "C45"}}, "b2e2")
	add([]Tag{{"Red", "胡荣华"}, {"Black", "吕钦"}, {"Date", "4/17/1996"}}, "c3c4")
	unknown := newGame(t, engine.NoResult, []Tag{{"White", "Carlsen"}, {"Black", "Anand"}, {"WhiteElo", "2850"}, {"BlackElo", "2790"}, {"Date", "2014.11.23"}}, "h2d2")
	if _, err := w.Add(unknown); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		q    string
		want int
	}{
		{`black:"Lü Qin"`, 2}, // and 吕钦, by its pinyin
		{`white:"hu ronghua"`, 2},
		{`red:"Hu Ronghua"`, 2},
		{`black:"吕钦"`, 1},
		{`black:吕钦`, 1}, // every character, not any: 吕 alone is not 吕钦
		{`black:吕荣`, 0},
		{`white:胡荣`, 1},
		{`black:Qin Lü`, 2}, // two clauses: black:Qin, and Lü anywhere
		{`date:>="1990"`, 3},
		// Every clause must match, as in SCID and ChessBase (Bleve alone
		// would make plain clauses optional); OR separates alternatives.
		{`date:>="1990-01-01" date:<"1996"`, 1},
		{`+date:>="1990-01-01" +date:<"1996"`, 1},
		{`black:"Lü Qin" date:>="1990"`, 2},
		{`black:"Lü Qin" +date:>="1990"`, 2},
		{`+date:>="1990" +black:"Lü Qin"`, 2},
		{`black:"Lü Qin" date:<"1990"`, 0},
		{`date:<"1990" OR date:>="1996"`, 3},
		{`black:"Lü Qin" OR black:吕钦 OR red:"Lü Qin"`, 3},
		{`black:"Lü Qin" date:<"1990" OR redelo:2600`, 1},
		{`event:"a OR b" OR date:1995`, 1}, // OR inside quotes is a word
		{`-date:1995`, 3},
		{`result:1-0 -black:"Lü Qin"`, 1},
		// A word without a field: players, event, site, opening name.
		{`Ronghua`, 3},
		{`胡荣华`, 1},
		{`"Hu Ronghua" date:<"1990"`, 1},
		{`national`, 1},
		{`Rong*`, 3},
		{`-Ronghua`, 1},
		{`opening:C45`, 1},
		// Codes are found whatever their case: opening codes are stored in
		// capitals, game, termination and ruling names in small letters.
		{`opening:c45`, 1},
		{`eco:c4*`, 1},
		{`ecco:c4?`, 1},
		{`opening:[c40 TO c49]`, 1},
		{`opening:>=c45`, 1},
		{`opening:c46`, 0},
		{`game:Xiangqi`, 4},
		{`game:XIANGQI`, 4},
		{`game:Chess`, 0},
		{`result:1-0`, 3},
		{`game:xiangqi`, 4},
		{`event:national`, 1},
		{`event:"National Championship"`, 1}, // no positions on event: all the words
		{`event:"Championship National"`, 1},
		{`event:"National Cup"`, 0},
		{`plies:1`, 4},
		{``, 4},
		{`*`, 4},
		{`date:1995`, 1},
		{`date:1995-05`, 1},
		{`date:1995.05.01`, 1},
		{`date:1995.05.02`, 0},
		{`date:>"1995"`, 2},
		{`date:<="1995"`, 2},
		{`year:1996`, 1},
		{`year:>=1995`, 3},
		{`year:<1995`, 1},
		{`year:<=1995`, 2},
		{`year:>1995`, 2},
		{`month:1995-05`, 1},
		{`month:1995-06`, 0},
		{`redelo:>2500`, 2},
		{`redelo:2600`, 1},
		{`redelo:<2600`, 0},
		{`+plies:>0 +plies:<2`, 4},
		{`plies:2`, 0},
		{`plies:>=1`, 4},
		// Lucene's operators (issue 14): AND, OR, NOT, -, parentheses,
		// ranges; OR binds looser than AND.
		{`white:carlsen AND black:anand`, 1},
		{`white:carlsen && black:anand`, 1},
		{`white:carlsen AND NOT black:anand`, 0},
		{`NOT black:anand`, 3},
		{`!black:anand`, 3},
		{`(date:1988 OR date:1995) AND black:"Lü Qin"`, 1},
		{`date:1988 OR date:1995 AND black:"Lü Qin"`, 2},
		{`black:(吕钦 OR anand)`, 2},
		{`black:("Lü Qin" OR 吕钦) -date:1988`, 2},
		{`date:[1990 TO 1995]`, 1},
		{`date:[1988 TO 1996]`, 3},
		{`date:{1988 TO 1996}`, 1},
		{`date:[1995-05 TO *]`, 3},
		{`date:[* TO 1995.05.01]`, 2},
		{`year:[1995 TO 2014]`, 3},
		{`plies:[1 TO *]`, 4},
		{`elo:>=2600`, 2},
		{`elo:>=2800`, 0}, // Anand is 2790
		{`elo:>=2790`, 1},
		{`elo:[2500 TO 2700]`, 1},
		{`whiteelo:2600`, 1}, // symmetric: RedElo answers whiteelo
		{`redelo:2850`, 1},
		{`red:carlsen`, 1},
		{`player:anand`, 1},
		{`player:"Lü Qin"`, 3},
		// result:* is an unknown result, not any.
		{`result:*`, 1},
		{`result:draw`, 0},
		{`-result:*`, 3},
		// A name in Han characters is found by its pinyin, however it is
		// spaced or written (ü as u or v), and by its Hán-Việt reading.
		{`black:"lu qin"`, 2},
		{`black:"LV Qin"`, 2},
		{`black:luqin`, 2},
		{`black:lvqin`, 2},
		{`black:呂欽`, 1},
		{`black:"Lã Khâm"`, 1},
		{`black:"la kham"`, 1},
		{`white:"Hu Rong-hua"`, 2},
		{`white:"HU RongHua"`, 2},
		{`white:huronghua`, 2},
		{`eco:C45`, 1},
		{`ecco:C4*`, 1},
	}
	for _, tt := range tests {
		got, err := s.Search(nil, tt.q)
		if err != nil || len(got) != tt.want {
			t.Errorf("Search(%q) = %v, %v; want %d hits", tt.q, got, err, tt.want)
		}
	}
	// Mistakes are errors that say what and where, never "0 games".
	for _, tt := range []struct{ q, msg, hint string }{
		{`whte:carlsen`, "no field whte", "did you mean white?"},
		{`opnening:C45`, "no field opnening", "did you mean opening?"},
		{`black:"Lü Qin`, "unbalanced quote", ""},
		{`(date:1988 OR date:1995`, "unbalanced parenthesis", ""},
		{`date:1988)`, "unbalanced parenthesis", ""},
		{`date:[1990 TO 1995`, "unbalanced bracket", ""},
		{`date:[1990 1995]`, "a range is [low TO high]", ""},
		{`date:>=nineteen`, "is not a date", ""},
		{`elo:>=abc`, "is not a number", ""},
		{`result:2-0`, "no result", ""},
		{`white:carlsen AND`, "AND needs a clause", ""},
		{`NOT`, "needs a clause after it", ""},
		{`white:`, "no value after", ""},
	} {
		_, err := s.Search(nil, tt.q)
		var qe *QueryError
		if !errors.As(err, &qe) || !strings.Contains(qe.Msg, tt.msg) || qe.Hint != tt.hint && tt.hint != "" {
			t.Errorf("Search(%q) error %v; want %q (hint %q)", tt.q, err, tt.msg, tt.hint)
		}
	}
	if got, _ := s.Search([]uint32{2}, `result:1-0`); len(got) != 1 || got[0] != 2 {
		t.Errorf("Search within [2] = %v", got)
	}
	// Several query strings must all match, each with its own OR.
	if got, _ := s.Search(nil, `date:1988 OR date:1995`, `black:"Lü Qin"`); len(got) != 1 {
		t.Errorf("Search of two queries = %v, want the 1995 game", got)
	}
	for _, q := range []string{`OR date:1995`, `date:1995 OR`, `date:1995 OR OR year:1988`} {
		if _, err := s.Search(nil, q); err == nil {
			t.Errorf("Search(%q) took a bare OR", q)
		}
	}
}

// A tail posting of one position can match another position of the same
// game by fingerprint; the game must still count once.
func TestPositionCountsEachGameOnce(t *testing.T) {
	s, err := Open(t.TempDir(), Options{PromoteAt: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w, _ := s.NewWriter()
	g1 := newGame(t, engine.FirstWins, nil, "h2e2", "h9g7")
	g2 := newGame(t, engine.Draw, nil, "h2e2", "b9c7")
	for _, g := range []*Game{g1, g2} {
		if _, err := w.Add(g); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	// Forge a tail posting for game 1 under the start position's key, as a
	// stray fingerprint match would produce.
	start := position(t)
	wb := s.newBatch()
	run := s.man.LiveRuns[0]
	wb.Set(tailKey(byte(engine.Xiangqi), run, tailBucket(start.Key())), encodeTail(nil, []tailEntry{{1, start.Key() << tailBucketBits}}, 8))
	if err := wb.Flush(); err != nil {
		t.Fatal(err)
	}
	for _, withGames := range []bool{true, false} {
		st, err := s.Position(engine.Xiangqi, start, withGames)
		if err != nil {
			t.Fatal(err)
		}
		if totalGames(st.Moves) != 2 || withGames && len(st.Games) != 2 {
			t.Fatalf("start position (game list %v): %d games in tree, %d listed; want 2", withGames, totalGames(st.Moves), len(st.Games))
		}
	}
}

// The same without forging: after b2f2 g6g5 f2f5 c9e7 h2a2 the key shares
// its top 22 bits with the start position's (tail bucket and an 8-bit
// fingerprint), so that game's tail posting also matches the start, whose
// games are all in its stats.
func TestStrayTailMatchOfPopularPosition(t *testing.T) {
	stray := []string{"b2f2", "g6g5", "f2f5", "c9e7", "h2a2"}
	start := position(t)
	if position(t, stray...).Key()>>(64-22) != start.Key()>>(64-22) {
		t.Fatal("the line no longer collides with the start position (Zobrist table changed?)")
	}
	s, err := Open(t.TempDir(), Options{PromoteAt: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w, _ := s.NewWriter()
	for _, g := range []*Game{newGame(t, engine.FirstWins, nil, "h2e2", "h9g7"), newGame(t, engine.Draw, nil, "h2e2", "b9c7"), newGame(t, engine.Draw, nil, stray...)} {
		if _, err := w.Add(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, withGames := range []bool{true, false} {
		st, err := s.Position(engine.Xiangqi, start, withGames)
		if err != nil {
			t.Fatal(err)
		}
		if totalGames(st.Moves) != 3 || withGames && len(st.Games) != 3 {
			t.Fatalf("start position (game list %v): %d games in tree, %d listed; want 3", withGames, totalGames(st.Moves), len(st.Games))
		}
	}
	st, _ := s.Position(engine.Xiangqi, position(t, stray...), true)
	if len(st.Games) != 1 || st.Games[0].Ply != 5 {
		t.Fatalf("the stray line's last position: %+v", st)
	}
}

func TestOpenRefusesOtherSchema(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.gdb.Update(func(txn *badger.Txn) error { return txn.Set(versionKey, []byte{SchemaVersion + 1}) }); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(dir, Options{}); !errors.Is(err, ErrSchemaMismatch) {
		t.Fatalf("open of a newer store: %v, want ErrSchemaMismatch", err)
	}
}

// TestPromotionAcrossRuns: a position reached by PromoteAt games gets a
// stats entry even when no single run holds that many, whether the runs
// come from one import or from several (counted in the store's opening
// counts, counts.go).
func TestPromotionAcrossRuns(t *testing.T) {
	games := [][]string{{"h2e2", "h9g7", "h0g2"}, {"h2e2", "h9g7", "b0c2"}, {"h2e2", "h9g7", "i0i1"}}
	for _, imports := range [][]int{{3}, {1, 2}, {1, 1, 1}} {
		s, err := Open(t.TempDir(), Options{RunGames: 1, PromoteAt: 3, MaxRuns: 10})
		if err != nil {
			t.Fatal(err)
		}
		next := 0
		for _, n := range imports {
			w, err := s.NewWriter()
			if err != nil {
				t.Fatal(err)
			}
			for ; n > 0; n-- {
				if _, err := w.Add(newGame(t, engine.Draw, nil, games[next]...)); err != nil {
					t.Fatal(err)
				}
				next++
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
		}
		popular, _, _, err := s.PositionCounts()
		if err != nil || popular != 3 {
			t.Errorf("imports %v: %d popular positions (%v), want 3: the start, after h2e2, after h2e2 h9g7", imports, popular, err)
		}
		st, _ := s.Position(engine.Xiangqi, position(t, "h2e2", "h9g7"), false)
		if totalGames(st.Moves) != 3 {
			t.Errorf("imports %v: after h2e2 h9g7: %+v", imports, st.Moves)
		}
		s.Close()
	}
}

// TestMetadataAfterManyBatches: documents reach Bleve in many small
// batches (a segment each), and the end of the import leaves one segment
// holding them all.
func TestMetadataAfterManyBatches(t *testing.T) {
	defer func(n int) { metaBatchDocs = n }(metaBatchDocs)
	metaBatchDocs = 2
	dir := t.TempDir()
	s, err := Open(dir, Options{RunGames: 7})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w, err := s.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	// 30 distinct games: the first two moves of each differ.
	firsts := []string{"h2e2", "b2e2", "c3c4", "g3g4", "h0g2", "b0c2"}
	replies := []string{"h9g7", "b9c7", "c6c5", "g6g5", "h7e7"}
	n := 0
	for _, a := range firsts {
		for _, b := range replies {
			if _, err := w.Add(newGame(t, engine.Draw, []Tag{{"Event", "Batch test"}}, a, b)); err != nil {
				t.Fatal(err)
			}
			n++
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	zaps, _ := filepath.Glob(filepath.Join(dir, "meta.bleve", "store", "*.zap"))
	if len(zaps) != 1 {
		t.Errorf("%d Bleve segments after the import, want 1", len(zaps))
	}
	got, err := s.Search(nil, `event:batch`)
	if err != nil || len(got) != n {
		t.Fatalf("Search found %d of %d games (%v)", len(got), n, err)
	}
	// A small import next (merged in tiers: TestTieredMergeLeavesLargeSegments).
	w, err = s.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"i0i1", "a0a1", "a3a4", "i3i4", "e3e4"} {
		if _, err := w.Add(newGame(t, engine.Draw, []Tag{{"Event", "Small batch"}}, m)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Search(nil, `event:batch`); err != nil || len(got) != n+5 {
		t.Fatalf("after the small import Search found %d of %d games (%v)", len(got), n+5, err)
	}
	// An import that doubles the index merges it all into one segment again.
	w, err = s.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"a3a4", "i3i4", "h2d2", "b2d2", "h2f2", "b2f2", "e3e4"} {
		for _, b := range replies {
			if _, err := w.Add(newGame(t, engine.Draw, []Tag{{"Event", "Big batch"}}, a, b)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if zaps, _ := filepath.Glob(filepath.Join(dir, "meta.bleve", "store", "*.zap")); len(zaps) != 1 {
		t.Errorf("%d Bleve segments after an import that doubled the index, want 1", len(zaps))
	}
	if got, err := s.Search(nil, `event:batch`); err != nil || len(got) != n+5+35 {
		t.Fatalf("after the big import Search found %d of %d games (%v)", len(got), n+5+35, err)
	}
}

// planSegment is a segment as the merge planner sees it.
type planSegment struct {
	id   uint64
	docs int64
}

func (p planSegment) Id() uint64          { return p.id }
func (p planSegment) FullSize() int64     { return p.docs }
func (p planSegment) LiveSize() int64     { return p.docs }
func (p planSegment) HasVector() bool     { return false }
func (p planSegment) FileSize() int64     { return p.docs * 150 }
func (p planSegment) LiveFileSize() int64 { return p.docs * 150 }

// The end of an import that does not double the index merges in tiers:
// a small import's segments of one batch each are merged among
// themselves, not into the large segment, and a few segments remain.
func TestTieredMergeLeavesLargeSegments(t *testing.T) {
	for _, tt := range []struct {
		name      string
		small     int  // segments of one batch added by the import
		largeKept bool // the large segment must not be merged
	}{
		{"a hundred games", 1, true},
		{"a few batches", 3, true},
		{"a tenth of the index", 10, true},
		{"a third of the index", 33, false},
	} {
		segs := []mergeplan.Segment{planSegment{1, 1_000_000}}
		for i := 0; i < tt.small; i++ {
			segs = append(segs, planSegment{uint64(2 + i), int64(metaBatchDocs)})
		}
		next := uint64(1000)
		// Plan and "merge" until the planner is content, as ForceMerge does.
		for round := 0; ; round++ {
			plan, err := mergeplan.Plan(segs, &tiered)
			if err != nil {
				t.Fatal(err)
			}
			if plan == nil || len(plan.Tasks) == 0 {
				break
			}
			if round > 100 {
				t.Fatalf("%s: the planner never settles", tt.name)
			}
			for _, task := range plan.Tasks {
				var docs int64
				for _, sg := range task.Segments {
					if sg.Id() == 1 && tt.largeKept {
						t.Fatalf("%s: the large segment is merged again", tt.name)
					}
					docs += sg.LiveSize()
					segs = slices.DeleteFunc(segs, func(x mergeplan.Segment) bool { return x.Id() == sg.Id() })
				}
				segs = append(segs, planSegment{next, docs})
				next++
			}
		}
		if len(segs) > 1+2*tiered.MaxSegmentsPerTier {
			t.Errorf("%s: %d segments left", tt.name, len(segs))
		}
	}
}

// TestTinyImportsMergeTinySegments: after a large import and ten of a
// hundredth of it, each import of 100 games merges only small segments,
// never those of the larger imports (issue 18: 100 games into a
// million-game database in ≤ 0.5 s every time; merging three 10,000-game
// segments took 0.42 CPU-seconds of such an import), and the larger
// imports still merge theirs, so the segments stay few.
func TestTinyImportsMergeTinySegments(t *testing.T) {
	p := &planSim{t: t, segs: []mergeplan.Segment{planSegment{1, 1_000_100}}, next: 2}
	var growth int64
	for i := 0; i < 10; i++ {
		growth += p.add(10_000, &tiered)
	}
	if growth == 0 {
		t.Fatal("ten imports of 10,000 merged nothing: the test exercises too little")
	}
	for i := 0; i < 30; i++ {
		if merged := p.add(100, &tiered); merged > 1000 {
			t.Fatalf("tiny import %d merged %d documents (segments now %v)", i+1, merged, p.segs)
		}
	}
	if len(p.segs) > 1+3*tiered.MaxSegmentsPerTier {
		t.Errorf("%d segments left", len(p.segs))
	}
}

// TestSmallImportsMergeNoLargerSegments: a small import (DeferCompaction)
// merges with smallTiered, which leaves larger imports' segments alone
// where tiered merges them: the segments of the growth run after a
// million games, ten 10,000-game imports and two of 100 (issue 18: 100
// games in ≤ 0.5 s every time).
func TestSmallImportsMergeNoLargerSegments(t *testing.T) {
	growthRun := func() *planSim {
		segs := []mergeplan.Segment{planSegment{1, 1_000_000}, planSegment{2, 100}}
		for i := 0; i < 10; i++ {
			segs = append(segs, planSegment{uint64(3 + i), 10_000})
		}
		return &planSim{t: t, segs: append(segs, planSegment{13, 100}), next: 14}
	}
	if merged := growthRun().add(100, &tiered); merged < 10_000 {
		t.Fatalf("tiered merged %d documents: the test exercises too little", merged)
	}
	p := growthRun()
	for i := 0; i < 50; i++ {
		if merged := p.add(100, &smallTiered); merged > smallTiered.MaxSegmentSize {
			t.Fatalf("small import %d merged %d documents (segments now %v)", i+1, merged, p.segs)
		}
	}
	if len(p.segs) > 13+3*smallTiered.MaxSegmentsPerTier {
		t.Errorf("%d segments left", len(p.segs))
	}
}

// planSim plays Bleve's merge planner over segment sizes.
type planSim struct {
	t    *testing.T
	segs []mergeplan.Segment
	next uint64
}

// add adds a segment of docs and "merges" until the planner is content,
// as ForceMerge does; it returns the documents merged.
func (p *planSim) add(docs int64, opts *mergeplan.MergePlanOptions) (merged int64) {
	p.segs = append(p.segs, planSegment{p.next, docs})
	p.next++
	for round := 0; ; round++ {
		plan, err := mergeplan.Plan(p.segs, opts)
		if err != nil {
			p.t.Fatal(err)
		}
		if plan == nil || len(plan.Tasks) == 0 {
			return merged
		}
		if round > 100 {
			p.t.Fatal("the planner never settles")
		}
		for _, task := range plan.Tasks {
			var docs int64
			for _, sg := range task.Segments {
				docs += sg.LiveSize()
				p.segs = slices.DeleteFunc(p.segs, func(x mergeplan.Segment) bool { return x.Id() == sg.Id() })
			}
			merged += docs
			p.segs = append(p.segs, planSegment{p.next, docs})
			p.next++
		}
	}
}

// TestNewMetadataIndexIsRenamedIntoPlace: a metadata index is made under
// a temporary name, so what a killed creation left there is cleared and
// never opened as the index.
func TestNewMetadataIndexIsRenamedIntoPlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "meta.bleve")
	if err := os.MkdirAll(path+".new", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(path+".new", "index_meta.json"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	idx, err := openMeta(path, false)
	if err != nil {
		t.Fatal(err)
	}
	idx.Close()
	if _, err := os.Stat(path + ".new"); !os.IsNotExist(err) {
		t.Errorf("the temporary folder is still there: %v", err)
	}
	if idx, err = openMeta(path, true); err != nil {
		t.Fatalf("reopen: %v", err)
	}
	idx.Close()
}
