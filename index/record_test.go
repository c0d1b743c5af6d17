package index

import (
	"reflect"
	"slices"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

func playICCS(t *testing.T, fen string, moves ...string) []engine.Move {
	t.Helper()
	p, err := games.New(engine.Xiangqi, fen)
	if err != nil {
		t.Fatal(err)
	}
	var out []engine.Move
	for _, s := range moves {
		m, err := p.ParseMove(s, engine.ICCS)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
		p.Make(m)
	}
	return out
}

func TestRecordRoundTrip(t *testing.T) {
	r := &Record{
		ID:          7,
		Game:        engine.Xiangqi,
		Moves:       playICCS(t, "", "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"),
		Result:      engine.FirstWins,
		Termination: engine.Checkmate,
		Tags:        []Tag{{"Event", "全国象棋个人赛"}, {"Red", "胡荣华"}, {"Black", "吕钦"}, {"Date", "1990.05.01"}},
		Source:      Source{File: "games/a.pgn", Index: 3, Offset: 1234},
		Rulings:     []engine.Ruling{{Game: engine.Xiangqi, Ply: 5, Status: engine.PerpetualChase, Result: engine.FirstWins, Side: engine.Second}},
	}
	b, err := encodeRecord(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeRecord(7, b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, r)
	}
	if got.Tag("red") != "胡荣华" {
		t.Errorf("Tag(red) = %q", got.Tag("red"))
	}
	// One byte per move after the header.
	if len(b) > 110 {
		t.Errorf("record is %d bytes", len(b))
	}
}

func TestRecordFromSetupPosition(t *testing.T) {
	fen := "4k4/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 1"
	r := &Record{ID: 1, Game: engine.Xiangqi, StartFEN: fen, Moves: playICCS(t, fen, "e9d9", "e1f2"), Result: engine.NoResult}
	b, err := encodeRecord(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeRecord(1, b)
	if err != nil || !reflect.DeepEqual(got.Moves, r.Moves) || got.StartFEN != fen {
		t.Fatalf("got %+v, %v", got, err)
	}
}

// TestRecordWithReplayRanks: a record whose moves come with their ranks
// (as the replay gives them) encodes to the same bytes as one without.
func TestRecordWithReplayRanks(t *testing.T) {
	r := &Record{Game: engine.Xiangqi, Moves: playICCS(t, "", "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b2b6")}
	want, err := encodeRecord(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := games.New(engine.Xiangqi, "")
	for _, m := range r.Moves {
		rank, _ := games.MoveRank(p, m)
		r.Ranks = append(r.Ranks, uint8(rank))
		p.Make(m)
	}
	got, err := encodeRecord(nil, r)
	if err != nil || string(got) != string(want) {
		t.Fatalf("with ranks: %v, %v; without: %v", got, err, want)
	}
}

func TestDecodeRecordRejectsGarbage(t *testing.T) {
	for _, b := range [][]byte{nil, {9}, {recordVersion, 1, 0, 0, 200}, {recordVersion, 1, 0, 0, 0, 0, 0, 0, 0, 5, 250}} {
		if _, err := decodeRecord(1, b); err == nil {
			t.Errorf("decodeRecord(%v) accepted garbage", b)
		}
	}
}

func FuzzDecodeRecord(f *testing.F) {
	f.Add([]byte{recordVersion, 1, 1, 0, 0, 0, 0, 0, 0, 2, 3, 4})
	f.Add([]byte{recordVersion, 2, 1, 0, 0, 0, 0, 0, 0, 3, 12, 255, 7}) // a null move
	f.Add([]byte{2, 1, 1, 0, 0, 0, 0, 0, 0, 2, 3, 4})                   // version 2
	start, _ := games.New(engine.Xiangqi, "")
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeRecord(1, b)
		// The header alone (phrase checks) reads the same fields.
		h, herr := decodeRecordHeader(1, b)
		if err == nil && (herr != nil || h.Game != r.Game || !slices.Equal(h.Tags, r.Tags) || h.Source != r.Source || len(h.Rulings) != len(r.Rulings)) {
			t.Fatalf("header %+v, %v; record %+v", h, herr, r)
		}
		// findInRecord reads the same bytes: no panic, and on a record
		// that decodes, the same answer as FindPosition.
		id := ""
		ply, _, ok, ferr := findInRecord(1, b, start, start.Key(), &id)
		if err == nil && r.Game == engine.Xiangqi && ferr == nil {
			if wantPly, want := FindPosition(r, start); ok != want || (ok && ply != wantPly) {
				t.Fatalf("findInRecord: ply %d %v, FindPosition: ply %d %v", ply, ok, wantPly, want)
			}
		}
	})
}

// TestFindInRecordAsFindPosition: a lookup's candidate check, which decodes
// a record's moves only as far as the position, finds every position of
// the games at the ply FindPosition finds it, with the move played there,
// and rejects the positions the games never reach.
func TestFindInRecordAsFindPosition(t *testing.T) {
	gs := randomGames(t, 40)
	// A game with a null move: position search stops there.
	null := newGame(t, engine.Result(1), nil, "h2e2", "h9g7")
	np, _ := games.New(engine.Xiangqi, "")
	for _, m := range null.Moves {
		np.Make(m)
	}
	np.Make(engine.NullMove)
	null.Moves = append(null.Moves, engine.NullMove)
	null.Keys = append(null.Keys, np.Key())
	m, err := np.ParseMove("b9c7", engine.ICCS)
	if err != nil {
		t.Fatal(err)
	}
	np.Make(m)
	null.Moves = append(null.Moves, m)
	null.Keys = append(null.Keys, np.Key())
	gs = append(gs, null)
	var positions []engine.Position
	for _, g := range gs {
		p, _ := games.New(engine.Xiangqi, "")
		for ply := 0; ; ply++ {
			positions = append(positions, p.Clone())
			if ply == len(g.Moves) || g.Moves[ply] == engine.NullMove {
				break
			}
			p.Make(g.Moves[ply])
		}
	}
	checked, found := 0, 0
	for gi, g := range gs {
		b, err := encodeRecord(nil, &g.Record)
		if err != nil {
			t.Fatal(err)
		}
		r, err := decodeRecord(uint32(gi+1), b)
		if err != nil {
			t.Fatal(err)
		}
		for _, pos := range positions[:min(len(positions), 400)] {
			id := ""
			ply, next, ok, err := findInRecord(uint32(gi+1), b, pos, pos.Key(), &id)
			if err != nil {
				t.Fatal(err)
			}
			wantPly, want := FindPosition(r, pos)
			if ok != want || (ok && ply != wantPly) {
				t.Fatalf("game %d, %s: ply %d %v, want ply %d %v", gi+1, pos.FEN(), ply, ok, wantPly, want)
			}
			if ok {
				wantNext := engine.NullMove
				if wantPly < len(r.Moves) {
					wantNext = r.Moves[wantPly]
				}
				if next != wantNext {
					t.Fatalf("game %d, %s: next move %v, want %v", gi+1, pos.FEN(), next, wantNext)
				}
				found++
			}
			checked++
		}
	}
	if found < len(gs) || found == checked {
		t.Fatalf("%d of %d checks found the position: the test exercises too little", found, checked)
	}
}

// TestFindInRecordAllocatesNoPosition: a lookup replays its candidate
// games (1.8 a tree at a million games) in positions kept from earlier
// replays (replayPositions), not in a new one of some 6 KB each, which a
// fresh process touches as fresh memory.
func TestFindInRecordAllocatesNoPosition(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops pooled values at random")
	}
	g := newGame(t, engine.Result(1), nil, "h2e2", "h9g7", "b0c2", "b9c7")
	b, err := encodeRecord(nil, &g.Record)
	if err != nil {
		t.Fatal(err)
	}
	// A position the game never reaches: the whole record is replayed.
	pos, _ := games.New(engine.Xiangqi, "")
	m, err := pos.ParseMove("c3c4", engine.ICCS)
	if err != nil {
		t.Fatal(err)
	}
	pos.Make(m)
	find := func() {
		id := ""
		if _, _, ok, err := findInRecord(1, b, pos, pos.Key(), &id); ok || err != nil {
			t.Fatalf("findInRecord: %v, %v; want not found", ok, err)
		}
	}
	find()
	if n := testing.AllocsPerRun(50, find); n != 0 {
		t.Errorf("findInRecord allocates %.0f times a call, want 0", n)
	}
}
