package xiangqi

import "testing"

// seeValues are the worths the SEE tests count in (index: Kind).
var seeValues = [8]int{General: 10000, Advisor: 200, Elephant: 200, Horse: 450, Chariot: 1000, Cannon: 450, Soldier: 100}

// TestSEE: the exchange on a move's destination follows each piece's
// capture rule, including what a capture opens or closes for the pieces
// behind it.
func TestSEE(t *testing.T) {
	tests := []struct {
		name, fen, move string
		want            int
	}{
		{"chariot takes an undefended horse", "4k4/9/9/9/n8/9/9/9/9/R2K5 w - - 0 1", "a0a5", 450},
		{"chariot takes a horse a chariot defends", "r3k4/9/9/9/n8/9/9/9/9/R2K5 w - - 0 1", "a0a5", -550},
		// RULES X7: the cannon leaves the line, and the chariot that was its
		// screen now guards the point, so the recapture is not made.
		{"cannon takes over its chariot, which then defends", "r3k4/9/9/9/n8/9/9/R8/9/C2K5 w - - 0 1", "a0a5", 450},
		// RULES X7: one screen between cannon and target: it recaptures.
		{"a cannon with one screen recaptures", "c3k4/9/b8/9/n8/9/9/9/9/R2K5 w - - 0 1", "a0a5", -550},
		{"a cannon with two screens does not", "c3k4/9/b8/P8/n8/9/9/9/9/R2K5 w - - 0 1", "a0a5", 450},
		// RULES X6: a horse whose leg is blocked does not defend.
		{"a horse defends", "4k4/9/1n7/9/2c6/9/9/9/9/2RK5 w - - 0 1", "c0c5", -550},
		{"a horse with its leg blocked does not", "4k4/9/1n7/1P7/2c6/9/9/9/9/2RK5 w - - 0 1", "c0c5", 450},
		// RULES X11: the general takes back only an undefended piece.
		{"the general recaptures", "4k4/4a4/9/9/9/9/4R4/9/9/3K5 w - - 0 1", "e3e8", -800},
		{"the general may not take a defended piece", "4k4/4a4/9/3N5/9/9/4R4/9/9/3K5 w - - 0 1", "e3e8", 200},
		// RULES X8: a soldier takes forward; a quiet move onto its point loses the piece.
		{"a quiet move onto a point a soldier takes", "4k4/9/9/p8/9/9/9/9/9/R2K5 w - - 0 1", "a0a5", -1000},
		{"a quiet move onto a safe point", "4k4/9/9/p8/9/9/9/9/9/R2K5 w - - 0 1", "a0a4", 0},
		// RULES X4: an elephant defends on its own half through an empty eye.
		{"an elephant defends", "2b1k4/9/n8/9/9/9/9/9/9/R2K5 w - - 0 1", "a0a7", -550},
		{"an elephant with its eye blocked does not", "2b1k4/1n7/n8/9/9/9/9/9/9/R2K5 w - - 0 1", "a0a7", 450},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseFEN(tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			m, ok := ParseICCSMove(tt.move)
			if !ok || !p.IsLegal(m) {
				t.Fatalf("%s is not legal in %s", tt.move, tt.fen)
			}
			before := p.FEN()
			if got := p.SEE(m, &seeValues); got != tt.want {
				t.Errorf("SEE(%s) = %d, want %d", tt.move, got, tt.want)
			}
			if after := p.FEN(); after != before {
				t.Errorf("SEE changed the board: %s -> %s", before, after)
			}
		})
	}
}
