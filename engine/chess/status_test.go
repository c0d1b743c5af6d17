package chess

import (
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// RULES C4: checkmate wins.
func TestCheckmate(t *testing.T) {
	p := NewStart()
	play(t, p, "f3", "e5", "g4", "Qh4#") // fool's mate
	if got := p.Status(); got != engine.Checkmate {
		t.Errorf("Status() = %v, want checkmate", got)
	}
	if !p.InCheck() {
		t.Errorf("InCheck() = false")
	}
	if n := len(p.AppendLegalMoves(nil)); n != 0 {
		t.Errorf("%d legal moves in a mate", n)
	}
}

// RULES C4: stalemate draws (engine.Stalemate; the ruling is replay's).
func TestStalemateIsDraw(t *testing.T) {
	for _, fen := range []string{
		"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
		"k7/P7/K7/8/8/8/8/8 b - - 0 1",
		"5bnr/4p1pq/4Qpkr/7p/7P/4P3/PPPP1PP1/RNB1KBNR b KQ - 2 10", // Sam Loyd's 10-move stalemate
	} {
		p := mustFEN(t, fen)
		if got := p.Status(); got != engine.Stalemate {
			t.Errorf("%s: Status() = %v, want stalemate", fen, got)
		}
		if p.InCheck() {
			t.Errorf("%s: InCheck() = true", fen)
		}
	}
	if got := NewStart().Status(); got != engine.Ongoing {
		t.Errorf("start: Status() = %v", got)
	}
}

// RULES C5: dead positions by material.
func TestInsufficientMaterial(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		want bool
	}{
		{"K v K", "8/8/4k3/8/8/3K4/8/8 w - - 0 1", true},
		{"K+N v K", "8/8/4k3/8/8/3K4/5N2/8 w - - 0 1", true},
		{"K+B v K", "8/8/4k3/8/8/3K4/5b2/8 w - - 0 1", true},
		{"K+B v K+B same colour", "8/8/4k3/2b5/8/3K4/5B2/8 w - - 0 1", true},
		{"K+B v K+B opposite colours", "8/8/4k3/3b4/8/3K4/5B2/8 w - - 0 1", false},
		{"K+BB v K all on one colour", "8/8/4k3/8/8/3K1B2/4B3/8 w - - 0 1", true},
		{"K+BB v K both colours", "8/8/4k3/8/8/3KB3/4B3/8 w - - 0 1", false},
		{"K+N v K+N", "8/8/4k3/5n2/8/3K4/5N2/8 w - - 0 1", false},
		{"K+NN v K", "8/8/4k3/8/8/3K4/5NN1/8 w - - 0 1", false},
		{"K+N v K+B", "8/8/4k3/5b2/8/3K4/5N2/8 w - - 0 1", false},
		{"K+P v K", "8/8/4k3/8/8/3K4/5P2/8 w - - 0 1", false},
		{"K+R v K", "8/8/4k3/8/8/3K4/5R2/8 w - - 0 1", false},
		{"K+Q v K", "8/8/4k3/8/8/3K4/8/q7 w - - 0 1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mustFEN(t, tt.fen).InsufficientMaterial(); got != tt.want {
				t.Errorf("InsufficientMaterial() = %v, want %v", got, tt.want)
			}
		})
	}
}

// RULES C5: threefold/fivefold repetition counts positions since the last
// irreversible move, with the same side to move and the same rights.
func TestRepetitionCount(t *testing.T) {
	p := NewStart()
	shuffle := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
	if got := p.RepetitionCount(); got != 1 {
		t.Fatalf("start: RepetitionCount() = %d, want 1", got)
	}
	for i := 2; i <= 5; i++ {
		play(t, p, shuffle...)
		if got := p.RepetitionCount(); got != i {
			t.Errorf("after %d shuffles RepetitionCount() = %d, want %d", i-1, got, i)
		}
	}
	play(t, p, "Nf3")
	if got := p.RepetitionCount(); got != 5 {
		t.Errorf("Nf3 position: RepetitionCount() = %d, want 5", got)
	}
	play(t, p, "e5") // irreversible
	if got := p.RepetitionCount(); got != 1 {
		t.Errorf("after a pawn move RepetitionCount() = %d, want 1", got)
	}
	if keys := p.Keys(nil); len(keys) != p.Ply()+1 || keys[0] != 0x463b96181691fc9c || keys[len(keys)-1] != p.Key() {
		t.Errorf("Keys() = %d keys, first %016x", len(keys), keys[0])
	}
}

// Castling rights are part of the position: the same placement with and
// without a right is not a repetition.
func TestRepetitionNeedsSameCastlingRights(t *testing.T) {
	p := mustFEN(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	play(t, p, "Kf1", "Kf8", "Ke1", "Ke8")
	if got := p.RepetitionCount(); got != 1 {
		t.Errorf("RepetitionCount() = %d, want 1 (rights were lost)", got)
	}
	play(t, p, "Kf1", "Kf8", "Ke1", "Ke8")
	if got := p.RepetitionCount(); got != 2 {
		t.Errorf("RepetitionCount() = %d, want 2", got)
	}
}

// RULES C5: the fifty-move clock counts plies since the last capture or
// pawn move; the fullmove number grows after Black's move.
func TestFiftyMoveClock(t *testing.T) {
	p := mustFEN(t, "4k3/8/8/8/8/8/4P3/R3K3 w - - 98 60")
	play(t, p, "Ra2")
	if p.HalfmoveClock() != 99 || p.FullmoveNumber() != 60 {
		t.Errorf("clock %d move %d, want 99 60", p.HalfmoveClock(), p.FullmoveNumber())
	}
	play(t, p, "Kd7")
	if p.HalfmoveClock() != 100 || p.FullmoveNumber() != 61 {
		t.Errorf("clock %d move %d, want 100 61", p.HalfmoveClock(), p.FullmoveNumber())
	}
	play(t, p, "e4")
	if p.HalfmoveClock() != 0 {
		t.Errorf("pawn move: clock %d, want 0", p.HalfmoveClock())
	}
	p.Unmake()
	if p.HalfmoveClock() != 100 {
		t.Errorf("Unmake: clock %d, want 100", p.HalfmoveClock())
	}
}
