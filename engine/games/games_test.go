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
