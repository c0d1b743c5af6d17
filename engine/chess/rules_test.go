package chess

import (
	"testing"
)

// moveCase says whether a move (UCI) is legal in a position.
type moveCase struct {
	name  string
	fen   string
	move  string
	legal bool
}

func runMoveCases(t *testing.T, tests []moveCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, tt.fen)
			if got := legalUCI(p)[tt.move]; got != tt.legal {
				t.Errorf("%s in %s: legal = %v, want %v (legal moves: %v)", tt.move, tt.fen, got, tt.legal, legalUCI(p))
			}
			from, _ := ParseSquare(tt.move[:2])
			to, _ := ParseSquare(tt.move[2:4])
			m := NewMove(from, to)
			if len(tt.move) == 5 {
				m = NewPromotion(from, to, promoLetter(tt.move[4]))
			}
			if got := p.IsLegal(m); got != tt.legal {
				t.Errorf("IsLegal(%s) = %v, want %v", tt.move, got, tt.legal)
			}
		})
	}
}

// RULES C2: castling needs the right, empty squares between king and rook,
// and the king neither in check nor passing or landing on an attacked
// square.
func TestCastlingThroughCheck(t *testing.T) {
	runMoveCases(t, []moveCase{
		{"f1 attacked by bishop", "4k3/8/8/8/8/8/6b1/R3K2R w KQ - 0 1", "e1g1", false},
		{"d1 attacked by rook", "3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1", false},
		{"b1 attacked is fine", "1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1", true},
		{"black g8 attacked by knight", "r3k2r/8/7N/8/8/8/8/4K3 b kq - 0 1", "e8g8", false},
		{"black queenside unaffected", "r3k2r/8/7N/8/8/8/8/4K3 b kq - 0 1", "e8c8", true},
	})
}

func TestCastlingOutOfCheck(t *testing.T) {
	runMoveCases(t, []moveCase{
		{"king in check by rook", "4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", false},
		{"king in check by knight", "6k1/8/8/8/8/8/2n5/R3K2R w KQ - 0 1", "e1c1", false},
	})
}

func TestCastlingIntoCheck(t *testing.T) {
	runMoveCases(t, []moveCase{
		{"g1 attacked", "1k4r1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", false},
		{"c1 attacked", "2r5/6k1/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1", false},
		{"c8 attacked by pawn", "r3k3/1P6/8/8/8/8/8/4K3 b q - 0 1", "e8c8", false},
		{"rook attacked is fine", "7r/6k1/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", true},
	})
}

func TestCastlingNeedsEmptySquares(t *testing.T) {
	runMoveCases(t, []moveCase{
		{"g1 occupied", "4k3/8/8/8/8/8/8/R3K1NR w KQ - 0 1", "e1g1", false},
		{"b1 occupied (not on the king's path)", "4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1", "e1c1", false},
		{"all empty", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1", true},
	})
}

func TestCastlingNeedsTheRight(t *testing.T) {
	runMoveCases(t, []moveCase{
		{"no K right", "4k3/8/8/8/8/8/8/R3K2R w Q - 0 1", "e1g1", false},
		{"no q right", "r3k2r/8/8/8/8/8/8/4K3 b k - 0 1", "e8c8", false},
	})
}

// RULES C2: the right is lost for good once the king or that rook moves,
// or the rook is captured on its square.
func TestCastlingRightsLostWhenKingOrRookMoves(t *testing.T) {
	tests := []struct {
		name  string
		fen   string
		moves []string
		want  string // castling field after the moves
	}{
		{"king moves and returns", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", []string{"Kf1", "Kf8", "Ke1", "Ke8"}, "-"},
		{"h1 rook moves and returns", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", []string{"Rh2", "Rh7", "Rh1", "Rh8"}, "Qq"},
		{"a-rooks move", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", []string{"Rb1", "Rb8"}, "Kk"},
		{"rook captured at home", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", []string{"Rxa8+"}, "Kk"},
		{"castling itself", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", []string{"O-O", "O-O-O"}, "-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, tt.fen)
			play(t, p, tt.moves...)
			if got := p.FEN(); got != "" && castlingField(got) != tt.want {
				t.Errorf("after %v: %s, want castling %s", tt.moves, got, tt.want)
			}
		})
	}
}

func castlingField(fen string) string {
	n := 0
	for i := 0; i < len(fen); i++ {
		if fen[i] == ' ' {
			n++
			if n == 2 {
				j := i + 1
				for j < len(fen) && fen[j] != ' ' {
					j++
				}
				return fen[i+1 : j]
			}
		}
	}
	return ""
}

func TestCastlingMovesTheRook(t *testing.T) {
	p := mustFEN(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	play(t, p, "O-O", "O-O-O")
	if got, want := p.FEN(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2"; got != want {
		t.Errorf("FEN() = %s, want %s", got, want)
	}
}

// RULES C3: e.p. only on the move right after the double step, and never
// when taking would expose the king, also along the rank both pawns leave.
func TestEnPassantOnlyRightAfterDoubleStep(t *testing.T) {
	p := mustFEN(t, "4k3/2p5/8/3P4/8/8/8/4K3 b - - 0 1")
	play(t, p, "c5")
	if !legalUCI(p)["d5c6"] {
		t.Fatalf("dxc6 e.p. not legal right after c7-c5")
	}
	play(t, p, "Kd2", "Kd8")
	if legalUCI(p)["d5c6"] {
		t.Errorf("dxc6 e.p. still legal a move later")
	}
	q := mustFEN(t, "4k3/8/2p5/3P4/8/8/8/4K3 b - - 0 1")
	play(t, q, "c5") // single step: no e.p.
	if legalUCI(q)["d5c6"] {
		t.Errorf("e.p. after a single step")
	}
}

func TestEnPassantCapturesThePawn(t *testing.T) {
	p := mustFEN(t, "4k3/2p5/8/3P4/8/8/8/4K3 b - - 0 1")
	play(t, p, "c5", "dxc6")
	if got, want := p.FEN(), "4k3/8/2P5/8/8/8/8/4K3 b - - 0 2"; got != want {
		t.Errorf("FEN() = %s, want %s", got, want)
	}
	p.Unmake()
	if got, want := p.FEN(), "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 2"; got != want {
		t.Errorf("after Unmake FEN() = %s, want %s", got, want)
	}
}

func TestEnPassantHorizontalPin(t *testing.T) {
	runMoveCases(t, []moveCase{
		{"rook behind on the rank", "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1", "b5c6", false},
		{"queen behind, other side", "8/8/8/q1pP3K/8/8/8/4k3 w - c6 0 1", "d5c6", false},
		{"black: rook on the rank", "8/8/8/8/R2pP2k/8/8/4K3 b - e3 0 1", "d4e3", false},
		{"another piece also between", "8/8/8/KPpN3r/8/8/8/4k3 w - c6 0 1", "b5c6", true},
		{"no slider on the rank", "8/8/8/KPp5/8/8/8/4k3 w - c6 0 1", "b5c6", true},
	})
}

func TestEnPassantDiagonalPin(t *testing.T) {
	runMoveCases(t, []moveCase{
		{"capturer pinned on a1-h8 would leave it", "7k/8/8/8/3pP3/8/8/B3K3 b - e3 0 1", "d4e3", false},
		{"capturer pinned on a7-g1 stays on it", "8/B7/8/8/3pP3/8/8/4K1k1 b - e3 0 1", "d4e3", true},
		{"removed pawn opens a diagonal to the king", "6bk/8/8/3pP3/8/1K6/8/8 w - d6 0 1", "e5d6", false},
	})
}

// TestEnPassantEvadesCheck: taking e.p. removes a checking pawn.
func TestEnPassantEvadesCheck(t *testing.T) {
	runMoveCases(t, []moveCase{
		{"captures the checker", "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", "e4d3", true},
		{"check by a rook: e.p. does not help", "7k/8/8/8/2pP4/8/8/4K2R b - d3 0 1", "c4d3", false},
		{"e.p. square blocks the check (constructed)", "8/8/k7/8/3Pp3/8/8/4KB2 b - d3 0 1", "e4d3", true},
	})
}

// RULES C3: a pawn reaching the last rank becomes a queen, rook, bishop or
// knight, never stays a pawn.
func TestPromotionToFourPieces(t *testing.T) {
	p := mustFEN(t, "3r3k/4P3/8/8/8/8/8/K7 w - - 0 1")
	got := legalUCI(p)
	for _, m := range []string{"e7e8q", "e7e8r", "e7e8b", "e7e8n", "e7d8q", "e7d8r", "e7d8b", "e7d8n"} {
		if !got[m] {
			t.Errorf("%s missing", m)
		}
	}
	if got["e7e8"] || got["e7d8"] {
		t.Errorf("promotion without a piece listed")
	}
	play(t, p, "exd8=N")
	if got, want := p.FEN(), "3N3k/8/8/8/8/8/8/K7 b - - 0 1"; got != want {
		t.Errorf("FEN() = %s, want %s", got, want)
	}
	p.Unmake()
	if got, want := p.FEN(), "3r3k/4P3/8/8/8/8/8/K7 w - - 0 1"; got != want {
		t.Errorf("after Unmake FEN() = %s, want %s", got, want)
	}
}

// RULES C4: a pinned piece may move only along the pin.
func TestPinnedPieceMovesAlongPin(t *testing.T) {
	runMoveCases(t, []moveCase{
		{"rook pinned on file moves on it", "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1", "e2e8", true},
		{"rook pinned on file cannot leave", "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1", "e2a2", false},
		{"pinned knight frozen", "4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1", "e2c3", false},
		{"pinned bishop takes its pinner", "6k1/8/8/8/b7/8/2B5/3K4 w - - 0 1", "c2a4", true},
		{"pinned bishop cannot leave the line", "6k1/8/8/8/b7/8/2B5/3K4 w - - 0 1", "c2d3", false},
		{"bishop pinned on diagonal", "6k1/8/8/8/8/b7/1B6/2K5 w - - 0 1", "b2a3", true},
		{"pawn pinned on file pushes", "4r1k1/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e4", true},
		{"pawn pinned on file cannot capture", "4r1k1/8/8/8/8/3p4/4P3/4K3 w - - 0 1", "e2d3", false},
		{"pawn pinned on diagonal captures pinner", "6k1/8/8/8/8/2b5/3P4/4K3 w - - 0 1", "d2c3", true},
		{"pawn pinned on diagonal cannot push", "6k1/8/8/8/8/2b5/3P4/4K3 w - - 0 1", "d2d3", false},
	})
}

// RULES C4: in double check only the king moves.
func TestDoubleCheckOnlyKingMoves(t *testing.T) {
	q := mustFEN(t, "3qk3/8/5N2/1B6/8/8/8/4R1K1 b - - 0 1")
	for m := range legalUCI(q) {
		if m[:2] != "e8" {
			t.Errorf("%s legal in double check", m)
		}
	}
}

// RULES C4: the king may not step back along the ray of a slider checking it.
func TestKingCannotRetreatAlongCheckRay(t *testing.T) {
	runMoveCases(t, []moveCase{
		{"away from rook on the rank", "8/8/8/r3K3/8/8/8/7k w - - 0 1", "e5f5", false},
		{"sideways is fine", "8/8/8/r3K3/8/8/8/7k w - - 0 1", "e5e6", true},
		{"away from bishop", "8/8/8/4K3/3b4/8/8/7k w - - 0 1", "e5f6", false},
		{"kings never touch", "8/8/8/3k4/8/3K4/8/8 w - - 0 1", "d3d4", false},
	})
}

func TestCheckMustBeAnswered(t *testing.T) {
	runMoveCases(t, []moveCase{
		{"block", "4r1k1/8/8/8/8/8/3B4/4K3 w - - 0 1", "d2e3", true},
		{"capture the checker", "6k1/8/8/8/8/8/3n4/4K2R w K - 0 1", "e1d2", true},
		{"unrelated move", "4r1k1/8/8/8/8/8/3B4/4K3 w - - 0 1", "d2c3", false},
		{"knight check cannot be blocked", "6k1/8/8/8/8/3n4/8/4K2R w - - 0 1", "h1h2", false},
	})
}
