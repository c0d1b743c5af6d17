package search

import (
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

// TestOrderLosingCapturesLast: a capture that wins material comes before
// the quiet moves, one that loses it by its static exchange (a chariot
// taking a horse its chariot guards) after them.
func TestOrderLosingCapturesLast(t *testing.T) {
	p, err := xiangqi.ParseFEN("r3k4/9/9/9/n8/9/9/9/9/Rp1K5 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	s := New(engine.Xiangqi, 1)
	if err := s.bind(p); err != nil {
		t.Fatal(err)
	}
	moves := p.AppendLegalMoves(nil)
	s.order(0, moves, engine.NoMove)
	key := map[string]int32{}
	for i, m := range moves {
		key[xiangqi.ICCS(m)] = s.scoreBuf[0][i]
	}
	good, bad := key["a0b0"], key["a0a5"]
	for name, k := range key {
		if name == "a0b0" || name == "a0a5" {
			continue
		}
		if k >= good || k <= bad {
			t.Errorf("quiet %s keyed %d: not between the winning capture (%d) and the losing one (%d)", name, k, good, bad)
		}
	}
}
