package xiangqi

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// movesFrom returns the sorted ICCS targets of the legal moves from sq.
func movesFrom(t *testing.T, fen, from string) []string {
	t.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	var got []string
	for _, m := range p.AppendLegalMoves(nil) {
		if s := ICCS(m); s[:2] == from {
			got = append(got, s[2:])
		}
	}
	slices.Sort(got)
	return got
}

type ruleCase struct {
	name, fen, from string
	want            string // space-separated sorted targets
}

func checkRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(movesFrom(t, tc.fen, tc.from), " ")
			if got != tc.want {
				t.Errorf("moves from %s: got %q, want %q", tc.from, got, tc.want)
			}
		})
	}
}

// RULES X1: Red moves first from the standard start.
func TestRedMovesFirst(t *testing.T) {
	p := NewStart()
	if p.SideToMove() != engine.First {
		t.Fatalf("start side = %v, want red", p.SideToMove())
	}
	for _, m := range p.AppendLegalMoves(nil) {
		if _, c := p.PieceAt(MoveFrom(m)); c != engine.First {
			t.Errorf("%s moves a black piece at the start", ICCS(m))
		}
	}
	if q, _ := ParseFEN("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"); q.SideToMove() != engine.First {
		t.Error("a FEN without a side field must mean red to move")
	}
	if q, _ := ParseFEN("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1"); q.SideToMove() != engine.First {
		t.Error(`side "r" must mean red`)
	}
}

// RULES X2: the general steps one point orthogonally inside its palace.
func TestGeneralConfinedToPalace(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"corner", "5k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d0", "d1 e0"},
		{"centre", "3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1", "e1", "e0 e2 f1"}, // d1 faces the black general
		{"top edge", "5k3/9/9/9/9/9/9/3K5/9/9 w - - 0 1", "d2", "d1 e2"},
	})
}

// RULES X3: the advisor steps one point diagonally inside the palace.
func TestAdvisorStaysInPalace(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"centre", "3k5/9/9/9/9/9/9/9/4A4/5K3 w - - 0 1", "e1", "d0 d2 f2"},
		{"corner", "3k5/9/9/9/9/9/9/5A3/9/4K4 w - - 0 1", "f2", "e1"},
		{"black centre", "9/4a4/3k5/9/9/9/9/9/9/5K3 b - - 0 1", "e8", "d9 f7 f9"},
	})
}

// RULES X4: the elephant moves two points diagonally, is blocked on its
// eye and never crosses the river.
func TestElephantEyeAndRiver(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"free", "3k5/9/9/9/9/9/9/9/9/2B1K4 w - - 0 1", "c0", "a2 e2"},
		{"eye blocked", "3k5/9/9/9/9/9/9/9/3N5/2B1K4 w - - 0 1", "c0", "a2"},
		{"river", "3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1", "c4", "a2 e2"},
		{"black river", "3k5/9/9/9/2b6/9/9/9/9/4K4 b - - 0 1", "c5", "a7 e7"},
	})
}

// RULES X5: the chariot slides orthogonally and cannot jump.
func TestChariotNoJump(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"blocked by own horse", "3k5/9/9/9/9/1p7/9/9/1N7/1R2K4 w - - 0 1", "b0", "a0 c0 d0"},
		{"open file", "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", "a0", "a1 a2 a3 a4 a5 a6 a7 a8 a9 b0 c0 d0"},
	})
}

// RULES X6: the horse is blocked by a piece on its leg.
func TestHorseLegBlocks(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"start", StartFEN, "b0", "a2 c2"},
		{"leg blocked", "3k5/9/9/9/9/9/9/9/1R7/1N2K4 w - - 0 1", "b0", "d1"},
		{"centre", "3k5/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1", "e4", "c3 c5 d2 d6 f2 f6 g3 g5"},
		{"legs blocked", "3k5/9/9/9/4p4/3pNp3/9/9/9/4K4 w - - 0 1", "e4", "d2 f2"},
	})
}

// RULES X7: the cannon captures by jumping exactly one screen.
func TestCannonNeedsExactlyOneScreen(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"start", StartFEN, "b2", "a2 b1 b3 b4 b5 b6 b9 c2 d2 e2 f2 g2"},
		{"captures only right behind the screen", "3k5/9/9/1n7/1n7/9/9/1C7/9/4K4 w - - 0 1", "b2", "a2 b0 b1 b3 b4 b6 c2 d2 e2 f2 g2 h2 i2"},
		{"no screen no capture", "3k5/9/1n7/9/9/9/9/1C7/9/4K4 w - - 0 1", "b2", "a2 b0 b1 b3 b4 b5 b6 c2 d2 e2 f2 g2 h2 i2"},
	})
}

// RULES X8: soldiers go forward; sideways only across the river; never back.
func TestSoldierSidewaysOnlyAfterRiver(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"before river", "3k5/9/9/9/9/9/4P4/9/9/5K3 w - - 0 1", "e3", "e4"},
		{"across river", "3k5/9/9/9/4P4/9/9/9/9/5K3 w - - 0 1", "e5", "d5 e6 f5"},
		{"last rank", "5k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "e9", ""},
		{"black before river", "3k5/9/9/4p4/9/9/9/9/9/5K3 b - - 0 1", "e6", "e5"},
		{"black across river", "3k5/9/9/9/9/4p4/9/9/9/5K3 b - - 0 1", "e4", "d4 e3 f4"},
	})
}

// RULES X9: a move may capture an enemy piece, never an own one.
func TestCaptureNeverOwnPiece(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"own piece blocks, enemy is taken", "r2k5/9/9/9/9/9/9/9/9/RN2K4 w - - 0 1", "a0", "a1 a2 a3 a4 a5 a6 a7 a8 a9"},
		{"enemy on the rank", "3k5/9/9/9/9/9/9/9/9/R2nK4 w - - 0 1", "a0", "a1 a2 a3 a4 a5 a6 a7 a8 a9 b0 c0 d0"},
	})
}

// RULES X10: no move may leave the generals facing on an open file.
func TestFlyingGeneral(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"general may not step into the open file", "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d0", "d1"},
		{"screen may not leave", "4k4/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1", "e1", ""},
		{"screen may move along the file", "4k4/9/9/9/9/9/9/9/4C4/4K4 w - - 0 1", "e1", "e2 e3 e4 e5 e6 e7 e8"},
	})
	if _, err := ParseFEN("4k4/9/9/9/9/9/9/9/5r3/2r1K4 w - - 0 1"); !errors.Is(err, engine.ErrBadFEN) {
		t.Errorf("facing generals in a FEN: err = %v, want ErrBadFEN", err)
	}
}

// RULES X11: a move may not leave the mover's general capturable.
func TestOwnGeneralSafe(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"chariot off the general's file is free", "4k4/9/9/9/4r4/9/9/9/4R4/3K5 w - - 0 1", "e1", "a1 b1 c1 d1 e0 e2 e3 e4 e5 f1 g1 h1 i1"},
		{"pinned by chariot", "4k4/9/9/9/4r4/9/9/9/4R4/4K4 w - - 0 1", "e1", "e2 e3 e4 e5"},
		{"second screen may not leave", "3k5/9/9/9/4c4/9/9/4N4/4A4/4K4 w - - 0 1", "e2", ""},
		{"first screen may not leave", "3k5/9/9/9/4c4/9/9/4N4/4A4/4K4 w - - 0 1", "e1", ""},
		{"evade check, not into facing generals", "3k5/9/9/9/4r4/9/9/9/9/4K4 w - - 0 1", "e0", "f0"},
		{"horse leg may not be unblocked", "3k5/9/9/9/9/9/9/3n5/3N5/4K4 w - - 0 1", "d1", ""},
		{"horse check: take the horse", "3k5/9/9/9/9/9/9/3n5/4A4/4K4 w - - 0 1", "e1", "d2"},
	})
}

// RULES X12: a side with no legal move loses, whether in check or not.
func TestStalemateLoses(t *testing.T) {
	p, err := ParseFEN("4k4/4a4/9/9/9/9/9/9/3r1r3/4K4 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Status(); got != engine.Stalemate || p.InCheck() {
		t.Fatalf("status %v, in check %v; want stalemate without check", got, p.InCheck())
	}
	m, _ := ParseFEN("4k4/9/9/9/9/9/9/9/4Ar3/2r1K4 w - - 0 1")
	if got := m.Status(); got != engine.Checkmate {
		t.Fatalf("status %v, want checkmate", got)
	}
}
