package games

import (
	"testing"

	"github.com/xqdb/xqdb/engine"
)

func TestWireCodeRoundTrip(t *testing.T) {
	p, err := New(engine.Xiangqi, "")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[uint16]bool{}
	for _, m := range p.AppendLegalMoves(nil) {
		c := WireCode(engine.Xiangqi, m)
		if seen[c] || FromWireCode(engine.Xiangqi, c) != m {
			t.Fatalf("wire code %d of %v does not round trip", c, m)
		}
		seen[c] = true
	}
	if c := WireCode(engine.Xiangqi, mustMove(t, p, "h2e2")); c != 25<<7|22 {
		t.Fatalf("h2e2 wire code %d, want %d", c, 25<<7|22)
	}
}

func mustMove(t *testing.T, p engine.Position, s string) engine.Move {
	m, err := p.ParseMove(s, engine.ICCS)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Reuse sets a position up again in place when it can, and otherwise
// makes a new one; either way it is the position New would give.
func TestReuseGivesNewsPosition(t *testing.T) {
	kiwipete := "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	tests := []struct {
		from     engine.Game
		to       engine.Game
		fen      string
		sameBody bool
	}{
		{engine.Xiangqi, engine.Xiangqi, "", true},
		{engine.Xiangqi, engine.Xiangqi, "3k5/4a4/4b4/9/2b6/9/9/4B4/4A4/4K4 w - - 0 1", true},
		{engine.Chess, engine.Chess, kiwipete, true},
		{engine.Chess, engine.Chess, "", true},
		{engine.Xiangqi, engine.Chess, "", false},
		{engine.Chess, engine.Xiangqi, "", false},
	}
	for _, tt := range tests {
		p, _ := New(tt.from, "")
		p.Make(p.AppendLegalMoves(nil)[0])
		got, err := Reuse(p, tt.to, tt.fen)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := New(tt.to, tt.fen)
		if got.FEN() != want.FEN() || got.Key() != want.Key() || (got == p) != tt.sameBody {
			t.Errorf("Reuse(%v position, %v, %q) = %s (reused %v), want %s", tt.from, tt.to, tt.fen, got.FEN(), got == p, want.FEN())
		}
		if tt.fen == "" && got.FEN() != StartFEN(tt.to) {
			t.Errorf("%v start %s, StartFEN says %s", tt.to, got.FEN(), StartFEN(tt.to))
		}
	}
	p, _ := New(engine.Chess, "")
	if _, err := Reuse(p, engine.Chess, "not a fen"); err == nil {
		t.Error("Reuse took a bad FEN")
	}
	if _, err := New(engine.Game(9), ""); err == nil {
		t.Error("New made a position of no game")
	}
}

// GameHash tells games apart by game, start and every move, in order.
func TestGameHashSeparatesGames(t *testing.T) {
	p, _ := New(engine.Xiangqi, "")
	a, b := mustMove(t, p, "h2e2"), mustMove(t, p, "b2e2")
	k := p.Key()
	hashes := map[[16]byte]string{}
	for name, h := range map[string][16]byte{
		"h2e2":            GameHash(engine.Xiangqi, k, []engine.Move{a}),
		"b2e2":            GameHash(engine.Xiangqi, k, []engine.Move{b}),
		"h2e2 b2e2":       GameHash(engine.Xiangqi, k, []engine.Move{a, b}),
		"b2e2 h2e2":       GameHash(engine.Xiangqi, k, []engine.Move{b, a}),
		"none":            GameHash(engine.Xiangqi, k, nil),
		"other start":     GameHash(engine.Xiangqi, k+1, []engine.Move{a}),
		"other game, key": GameHash(engine.Chess, k, []engine.Move{a}),
	} {
		if other, dup := hashes[h]; dup {
			t.Errorf("%s and %s hash alike", name, other)
		}
		hashes[h] = name
	}
	if GameHash(engine.Xiangqi, k, []engine.Move{a, b}) != GameHash(engine.Xiangqi, k, []engine.Move{a, b}) {
		t.Error("GameHash is not a function of its input")
	}
}
