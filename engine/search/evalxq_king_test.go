package search

import (
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

// TestPalaceHits: an attacker reaches the enemy palace's points by its own
// move (RULES X5–X8).
func TestPalaceHits(t *testing.T) {
	tests := []struct {
		name, fen, square string
		want              int
	}{
		{"a chariot on an open file reaches three points", "4k4/9/9/9/3R5/9/9/9/9/3K5 w - - 0 1", "d5", 3},
		{"a chariot stops at the first piece", "3ak4/9/3n5/9/3R5/9/9/9/9/3K5 w - - 0 1", "d5", 1},
		{"a cannon reaches the points beyond its screen", "4k4/9/9/4P4/9/9/4C4/9/9/3K5 b - - 0 1", "e3", 3},
		{"a cannon without a screen reaches none", "4k4/9/9/9/9/9/4C4/9/9/3K5 w - - 0 1", "e3", 0},
		{"a horse reaches two palace points", "4k4/9/9/3N5/9/9/9/9/9/3K5 w - - 0 1", "d6", 2},
		{"a horse with its legs blocked reaches none", "4k4/9/3P5/2PNP4/9/9/9/9/9/3K5 w - - 0 1", "d6", 0},
		{"a soldier beside the palace", "4k4/9/4P4/9/9/9/9/9/9/3K5 w - - 0 1", "e7", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := xiangqi.ParseFEN(tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			m, ok := xiangqi.ParseICCSMove(tt.square + tt.square)
			if !ok {
				t.Fatal("bad square")
			}
			sq := xiangqi.MoveFrom(m)
			k, c := p.PieceAt(sq)
			if got := xqPalaceHits(p, k, c, sq, uint8(2-c)); got != tt.want {
				t.Errorf("hits = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestKingDanger: the attack on a palace costs more with more attackers
// and fewer guards, and a cannon facing the general with nothing between
// costs its side's opponent.
func TestKingDanger(t *testing.T) {
	if xqKingDanger(10, 0, 4) != 0 {
		t.Error("danger without attackers")
	}
	if a, b := xqKingDanger(10, 1, 4), xqKingDanger(10, 2, 4); a >= b {
		t.Errorf("one attacker %d, two %d", a, b)
	}
	if a, b := xqKingDanger(10, 2, 4), xqKingDanger(10, 2, 2); a >= b {
		t.Errorf("four guards %d, two %d", a, b)
	}
	// RULES X7: a cannon facing the general with no screen is hollow; one
	// screen makes it a check, not a hollow cannon.
	for _, tt := range []struct {
		fen  string
		want bool
	}{
		{"4k4/9/9/9/9/9/9/4C4/9/3K5 b - - 0 1", true},
		{"4k4/9/9/9/4p4/9/9/4C4/9/3K5 b - - 0 1", false},
	} {
		p, err := xiangqi.ParseFEN(tt.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := xqScreens(p, xiangqi.Square(4, 2), p.GeneralSquare(engine.Second)) == 0; got != tt.want {
			t.Errorf("%s: hollow = %v, want %v", tt.fen, got, tt.want)
		}
	}
}
