package xiangqi

import (
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// Rule tests for the referee, one per rule of RULES X12–X16 (seed 000
// "luật cao cấp" for X13). Positions marked with a rules-cases row name
// come from that table (public engines' test suites, see RULES-CASES.md);
// they are repeated here so that these tests run without the shared data.

// replay plays ICCS moves from fen through a referee.
func replay(t *testing.T, fen, moves string, rules Rules) *Referee {
	t.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	ref := NewReferee(p, rules)
	for i, mv := range strings.Fields(moves) {
		m, ok := ParseICCSMove(mv)
		if !ok || !p.IsLegal(m) {
			t.Fatalf("move %d %s is not legal in %s", i+1, mv, p.FEN())
		}
		ref.Play(m)
	}
	return ref
}

// repeatMoves returns the moves of cycle written times times.
func repeatMoves(cycle string, times int) string {
	return strings.TrimSpace(strings.Repeat(cycle+" ", times))
}

// firstDecided returns the first decided ruling, or a zero Ruling.
func firstDecided(ref *Referee) Ruling {
	if rs := ref.Rulings(); len(rs) > 0 {
		return rs[0]
	}
	return Ruling{}
}

type verdictCase struct {
	name, fen, moves string
	rules            Rules
	want             string // "result:status" at the last ply, or "*"
	side             engine.Color
	firstPly         int // ply of the first decided ruling (0: not checked)
}

func checkVerdicts(t *testing.T, cases []verdictCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ref := replay(t, tc.fen, tc.moves, tc.rules)
			last := ref.Last()
			if got := refereeCaseVerdict(last); got != tc.want {
				t.Fatalf("got %s, want %s (%s)", got, tc.want, last)
			}
			if (last.Result == engine.FirstWins || last.Result == engine.SecondWins) && last.Side != tc.side {
				t.Errorf("side %s, want %s", last.Side.Name(engine.Xiangqi), tc.side.Name(engine.Xiangqi))
			}
			if tc.firstPly > 0 {
				if f := firstDecided(ref); f.Ply != tc.firstPly {
					t.Errorf("first ruling %v, want one at ply %d", f, tc.firstPly)
				}
			}
		})
	}
}

var asian = Rules{Profile: Asian}

// RULES X12: checkmate and stalemate end the game, and the side to move
// loses either way (seed 000 "Hết nước đi … bên đó sẽ bị thua").
func TestCheckmateAndStalemateLose(t *testing.T) {
	checkVerdicts(t, []verdictCase{
		// checkmate_xqjs_L92: judged at once, ply 0.
		{name: "mated at the start", fen: "4k4/9/9/9/9/9/9/9/4Ar3/2r1K4 w - - 0 1",
			want: "0-1:checkmate", side: engine.First},
		{name: "mated by the last move", fen: "3k5/1R7/9/9/9/9/9/9/R8/4K4 w - - 0 1", moves: "a1a9",
			want: "1-0:checkmate", side: engine.Second, firstPly: 1},
		// stalemate_loses_xqjs_L115: no legal move, not in check.
		{name: "stalemated", fen: "4k4/4a4/9/9/9/9/9/9/3r1r3/4K4 w - - 0 1",
			want: "0-1:stalemate", side: engine.First},
	})
}

// RULES X13, seed 000 "Chiếu dai": a side that checks on every move of the
// cycle loses; the verdict comes at the 3rd occurrence under asian.
func TestPerpetualCheckLoses(t *testing.T) {
	checkVerdicts(t, []verdictCase{
		// orange_L335: red's chariot checks from e0 and f0 in turn.
		{name: "one chariot", fen: "9/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w - - 0 1",
			moves: repeatMoves("f0e0 e8f8 e0f0 f8e8", 3), rules: asian,
			want: "0-1:perpetual_check", side: engine.First, firstPly: 8},
		// fsf_L1174: checks by a soldier count as checks.
		{name: "soldier", fen: "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1",
			moves: repeatMoves("f1e1 f2e2 e1f1 e2f2", 2), rules: asian,
			want: "1-0:perpetual_check", side: engine.Second, firstPly: 8},
	})
}

// RULES X13: both sides checking on every move draw.
func TestMutualPerpetualCheckDraws(t *testing.T) {
	checkVerdicts(t, []verdictCase{
		// fsf_L1183
		{name: "chariot and cannon", fen: "9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1",
			moves: repeatMoves("e3d3 d6e6 d3e3 e6d6", 2), rules: asian,
			want: "1/2-1/2:mutual_perpetual_check", firstPly: 8},
	})
}

// RULES X13: check outranks chase outranks idle; the strictly higher class
// loses, equal classes draw.
func TestPerpetualClassesOrder(t *testing.T) {
	for _, tc := range []struct {
		red, black class
		want       engine.Status
		violator   engine.Color
		draw       bool
	}{
		{checking, idle, engine.PerpetualCheck, engine.First, false},
		{checking, chasing, engine.PerpetualCheck, engine.First, false},
		{chasing, checking, engine.PerpetualCheck, engine.Second, false},
		{chasing, idle, engine.PerpetualChase, engine.First, false},
		{idle, chasing, engine.PerpetualChase, engine.Second, false},
		{checking, checking, engine.MutualPerpetualCheck, 0, true},
		{chasing, chasing, engine.Repetition, 0, true},
		{idle, idle, engine.Repetition, 0, true},
	} {
		st, v, draw := verdict(tc.red, tc.black)
		if st != tc.want || draw != tc.draw || !draw && v != tc.violator {
			t.Errorf("verdict(%d, %d) = %v, %v, %v; want %v, %v, %v", tc.red, tc.black, st, v, draw, tc.want, tc.violator, tc.draw)
		}
	}
}

// RULES X13: "one check, one chase" (一将一捉) is a chase violation — a
// side whose every move checks or newly chases one enemy piece, and which
// chases at least once, is a chaser; checks mixed with idle moves are idle.
func TestOneCheckOneChaseIsChase(t *testing.T) {
	checkVerdicts(t, []verdictCase{
		// fsf_L1176: black's b1b3 uncovers a cannon check, b3b1 chases the
		// cannon on d1; red's chariot only shuttles.
		{name: "check then chase", fen: "3k5/9/9/9/9/9/9/9/cr1CAK3/9 w - - 0 1",
			moves: repeatMoves("d1d3 b1b3 d3d1 b3b1", 2), rules: asian,
			want: "1-0:perpetual_chase", side: engine.Second, firstPly: 8},
		// fsf_L1168: red's cannon f4d4 uncovers the other cannon's threat
		// on the soldier f1, d4f4 checks and renews it.
		{name: "discovered chase and check", fen: "5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1",
			moves: repeatMoves("f4d4 f5d5 d4f4 d5f5", 2), rules: asian,
			want: "0-1:perpetual_chase", side: engine.First, firstPly: 8},
		// orange_L474: red chases the horse on every move; black answers
		// with a check (b3c1) and a chase of the crossed soldier on a5
		// (c1b3): both sides chase, a draw.
		{name: "check and chase against a chaser", fen: "3akr3/n3a4/4b4/9/P1b6/9/1n7/4B4/3RA4/2BAK4 w - - 0 1",
			moves: "d1d3 b3c1 d3d1 c1b3 d1d3 b3c1 d3d1 c1b3 d1d3 b3c1 d3d1", rules: asian,
			want: "1/2-1/2:repetition"},
		// orange_L360: red checks (b9b8), then b8b9 leaves the advisor on
		// f9 without the general's protection (the chariot stands behind
		// the cannon on rank 9): check and chase, red loses.
		{name: "check and chase by protection loss", fen: "1R1C1abr1/4k4/4b4/p7p/2p6/9/r1P3P2/B8/9/2B1KA3 w - - 0 1",
			moves: "b9b8 e8e9 b8b9 e9e8 b9b8 e8e9 b8b9 e9e8 b9b8 e8e9", rules: asian,
			want: "0-1:perpetual_chase", side: engine.First},
		// orange_L427: black mixes checks (a1a0) with a chase of the horse
		// on i1 (a0a1) while red chases the cannon: a draw.
		{name: "mutual chase with checks", fen: "3ak4/4a4/4b4/p8/2p3n2/9/P1P3r2/3AB4/c3N3N/1RB1KA3 w - - 0 1",
			moves: "b0b1 a1a0 b1b0 a0a1 b0b1 a1a0 b1b0 a0a1 b0b1 a1a0 b1b0", rules: asian,
			want: "1/2-1/2:repetition"},
	})
}

// RULES X13: a side that mixes checks with idle moves is idle, and that
// does not excuse the other side's chase.
func TestCheckAndIdleMixedIsIdle(t *testing.T) {
	checkVerdicts(t, []verdictCase{
		// Black's chariot checks from a0, then steps back to a2 where it
		// threatens nothing; red's general shuttles d0-d1.
		{name: "check and idle", fen: "4k4/9/9/9/9/9/9/r8/9/3K5 b - - 0 1",
			moves: repeatMoves("a2a0 d0d1 a0a2 d1d0", 2), rules: asian,
			want: "1/2-1/2:repetition"},
	})
}

// RULES X13, seed 000 "Đuổi dai": a side that newly chases one enemy piece
// with every move of the cycle loses.
func TestPerpetualChaseLoses(t *testing.T) {
	ref := replay(t, "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
		"c2a2 "+repeatMoves("a7b7 a2b2 b7a7 b2a2", 2), asian) // fsf_L1160
	last := ref.Last()
	if got := refereeCaseVerdict(last); got != "0-1:perpetual_chase" || last.Side != engine.First {
		t.Fatalf("got %s, want 0-1:perpetual_chase by red", last)
	}
	if !strings.Contains(last.Detail, "black chariot") {
		t.Errorf("detail %q does not name the chased chariot", last.Detail)
	}
}

// threatsOf returns the enemy pieces side x chases in fen, as "kind@square".
func threatsOf(t *testing.T, fen string, x engine.Color, rd chaseReadings) string {
	t.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	set := p.chasedBy(x, rd)
	for id := idBase(x.Other()); id < idBase(x.Other())+16; id++ {
		if set&slotBit(id) != 0 {
			sq := p.sq[id]
			out = append(out, kindOf[id].String()+"@"+string(rune('a'+FileOf(sq)))+string(rune('0'+RankOf(sq))))
		}
	}
	return strings.Join(out, " ")
}

type threatCase struct {
	name, fen string
	x         engine.Color
	rd        chaseReadings
	want      string
}

func checkThreats(t *testing.T, cases []threatCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := threatsOf(t, tc.fen, tc.x, tc.rd); got != tc.want {
				t.Errorf("chased %q, want %q", got, tc.want)
			}
		})
	}
}

// RULES X13, seed 000 "đuổi quân": threats made by the general or by a
// soldier are never chases.
func TestChaseExcludesGeneralAndSoldierAttackers(t *testing.T) {
	checkThreats(t, []threatCase{
		{name: "general next to a loose horse", fen: "3k5/9/9/9/9/9/9/9/3nK4/9 w - - 0 1", want: ""},
		{name: "soldier next to a loose chariot", fen: "4k4/9/9/9/3rP4/9/9/9/9/4K4 w - - 0 1", want: ""},
		{name: "the same chariot taken on by a horse", fen: "4k4/9/9/9/3r5/9/4N4/9/9/3K5 w - - 0 1", want: "chariot@d5"},
	})
	checkVerdicts(t, []verdictCase{
		// fsf_L1166: the soldier's threat on the chariot does not count.
		{name: "soldier cycle", fen: "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/1C1AKA3 w - - 0 1",
			moves: "a4a5 " + repeatMoves("a6b6 a5b5 b6a6 b5a5", 2), rules: asian, want: "1/2-1/2:repetition"},
	})
}

// RULES X13, seed 000: a threat on the general is a check, and a soldier
// that has not crossed the river may not be chased.
func TestChaseExcludesGeneralAndUncrossedSoldier(t *testing.T) {
	checkVerdicts(t, []verdictCase{
		// orange_L507 / L510: the same chase on a soldier that has, and
		// one that has not, crossed the river.
		{name: "crossed soldier", fen: "3akabC1/9/4b4/7P1/2n6/8p/3p5/9/4A1c2/2BAK1B1C w - - 0 1",
			moves: repeatMoves("g0i2 g1i1 i2g0 i1g1", 2) + " g0i2 g1i1 i2g0", rules: asian,
			want: "0-1:perpetual_chase", side: engine.First},
		{name: "uncrossed soldier", fen: "3akabC1/9/4b4/7P1/2n5p/9/3p5/9/4A1c2/2BAK1B1C w - - 0 1",
			moves: repeatMoves("g0i2 g1i1 i2g0 i1g1", 2) + " g0i2 g1i1 i2g0", rules: asian,
			want: "1/2-1/2:repetition"},
	})
}

// RULES X13, seed 000 "thí quân": threatening a piece of the same kind that
// may take back is offering an exchange, not chasing; one that may not take
// back (pinned, or a horse with its leg blocked) is chased.
func TestExchangeOfferIsNotChase(t *testing.T) {
	checkThreats(t, []threatCase{
		{name: "chariot against chariot", fen: "4k4/9/9/9/3r2R2/9/9/9/9/3K5 w - - 0 1", want: ""},
		// The black chariot stands on the leg of the horse that would
		// otherwise check its general.
		{name: "pinned chariot cannot take back", fen: "4k4/R4r3/5N3/9/9/9/9/9/9/3K5 w - - 0 1", want: "chariot@f8"},
		{name: "impaired horse cannot take back", fen: "4k4/9/9/3n5/3P5/2N6/9/9/9/3K5 w - - 0 1", want: "horse@d6"},
	})
	checkVerdicts(t, []verdictCase{
		// orange_L482: red offers its chariot on every move: a draw.
		{name: "chariot offer cycle", fen: "2b1ka3/4a4/4b4/p3r3p/9/1R7/P7P/2p1CpC2/4A1n2/2BK1AB1c w - - 0 1",
			moves: "b4b6 e6e3 b6b3 e3e6 b3b6 e6e3 b6b3 e3e6 b3b6 e6e3 b6b3", rules: asian, want: "1/2-1/2:repetition"},
		// orange_L486: the cannon it threatens is pinned: a chase.
		{name: "pinned cannon is chased", fen: "Cc1ak4/4a1P2/9/2p6/1P7/6C2/9/B2p5/2p2p3/4K4 w - - 0 1",
			moves: "g4b4 b9c9 b4c4 c9b9 c4b4 b9c9 b4c4 c9b9 c4b4 b9c9 b4c4", rules: asian,
			want: "0-1:perpetual_chase", side: engine.First},
	})
}

// Seed 000 "quân được bảo vệ": a chariot counts as unprotected when a horse
// or a cannon threatens it; other protected pieces are not chased.
func TestChariotThreatenedByHorseIsUnprotected(t *testing.T) {
	checkThreats(t, []threatCase{
		// The black chariot on d5 is protected by the chariot on d9.
		{name: "by a horse", fen: "3rk4/9/9/9/3r5/9/4N4/9/9/5K3 w - - 0 1", want: "chariot@d5"},
		{name: "by a cannon", fen: "3rk4/9/9/9/3r2P1C/9/9/9/9/3K5 w - - 0 1", want: "chariot@d5"},
		{name: "a protected horse is not chased", fen: "3rk4/9/9/9/3n3R1/9/9/9/9/3K5 w - - 0 1", want: ""},
		// The black chariot on c4 is protected by the one on c9.
		{name: "not by an elephant", fen: "2r1k4/9/9/9/9/2r6/9/4B4/9/3K5 w - - 0 1", want: ""},
	})
}

// RULES X13: threats opened by the move — a moved screen, leg or eye — are
// chases as much as threats by the moved piece.
func TestDiscoveredChase(t *testing.T) {
	checkVerdicts(t, []verdictCase{
		// fsf_L1164: the soldier's moves open and close the cannon's
		// screen in turn.
		{name: "cannon screen", fen: "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/CC1AKA3 w - - 0 1",
			moves: "a4a5 " + repeatMoves("a6b6 a5b5 b6a6 b5a5", 2), rules: asian,
			want: "0-1:perpetual_chase", side: engine.First},
		// orange_L617: a horse stepping off uncovers the chariot.
		{name: "horse leg", fen: "5k3/4P4/9/9/9/9/9/5N3/9/3KRr1c1 w - - 0 1",
			moves: "f2h1 f0g0 h1f2 g0f0 f2h1 f0g0 h1f2 g0f0 f2h1 f0g0 h1f2", rules: asian,
			want: "0-1:perpetual_chase", side: engine.First},
	})
}

// RULES X13: answering a check makes legal again every capture the check
// forbade; that is no new threat, or every escape from a check would chase
// all the pieces the escaping side attacks. (CCPD master game 3991, 呂欽:
// black's general steps out of the cannon's check and back; its elephant
// attacks the red chariot on g9 throughout.)
func TestEscapingCheckIsNoChase(t *testing.T) {
	checkVerdicts(t, []verdictCase{
		{name: "general steps out of check", fen: "3k1aR2/4a4/4b1c2/p1p5r/6PnN/4C4/P3P3P/1c1C5/4A4/2B1KA3 w - - 15 31",
			moves: repeatMoves("e4d4 d9e9 d4e4 e9d9", 2), rules: asian, want: "1/2-1/2:repetition", firstPly: 8},
	})
}

// Seed 000 "quân được bảo vệ": a piece that some enemy piece could legally
// retake is protected; a protector that may not retake (pinned, or whose
// general would be exposed) does not protect.
func TestProtectedPieceIsNotChased(t *testing.T) {
	checkVerdicts(t, []verdictCase{
		// orange_L400: the cannon is protected: a draw.
		{name: "protected cannon", fen: "2b1ka3/4a4/4b4/9/9/9/9/4B3R/4A1rc1/4KA3 w - - 0 1",
			moves: "i2h2 h1i1 h2i2 i1h1 i2h2 h1i1 h2i2 i1h1 i2h2 h1i1", rules: asian, want: "1/2-1/2:repetition"},
		// fsf_L1197: black's moves pin red's protecting chariot in turn.
		{name: "pinned protector", fen: "4k4/4c4/9/4p4/9/9/3rn4/3NR4/4K4/9 b - - 0 1",
			moves: repeatMoves("e3g4 e1f1 g4e3 f1e1", 2), rules: asian,
			want: "1-0:perpetual_chase", side: engine.Second},
		// fsf_L1213: a cannon "protecting" along the line of the attack.
		{name: "fake protection by cannon", fen: "5k3/9/9/9/9/1C7/1r7/9/1C7/4K4 w - - 0 1",
			moves: repeatMoves("b4c4 b3c3 c4b4 c3b3", 2), rules: asian,
			want: "1-0:perpetual_chase", side: engine.Second},
	})
}

// RULES X13, reading ProtectionLoss: what a move that unprotects a piece it
// already threatened, by its path, counts as (see newlyChased).
func TestProtectionLossReadings(t *testing.T) {
	d39 := "2baka1r1/C4rN2/9/1Rp1p4/9/9/4P4/9/4A4/4KA3 w - - 0 1" // fsf_L1193
	d39Moves := "b6b8 f9e8 b8b9 e8f9 b9b8 f9e8 b8b9 e8f9 b9b8"
	l643 := "2ca1k3/4a4/b3b4/2P5P/6p2/1c7/9/B7N/2nR5/2BAK4 w - - 0 1" // orange_L643
	l643Moves := "c6b6 e7c5 b6c6 c5e7 c6b6 e7c5 b6c6 c5e7 c6b6 e7c5 b6c6"
	checkVerdicts(t, []verdictCase{
		{name: "D39 default", fen: d39, moves: d39Moves, rules: asian, want: "0-1:perpetual_chase", side: engine.First},
		{name: "D39 never", fen: d39, moves: d39Moves, rules: Rules{Profile: Asian, ProtectionLoss: LossNever},
			want: "0-1:perpetual_chase", side: engine.First},
		{name: "D39 always", fen: d39, moves: d39Moves, rules: Rules{Profile: Asian, ProtectionLoss: LossAlways},
			want: "1/2-1/2:repetition"},
		{name: "L643 default", fen: l643, moves: l643Moves, rules: asian, want: "0-1:perpetual_chase", side: engine.First},
		{name: "L643 never", fen: l643, moves: l643Moves, rules: Rules{Profile: Asian, ProtectionLoss: LossNever},
			want: "1/2-1/2:repetition"},
		{name: "L643 always", fen: l643, moves: l643Moves, rules: Rules{Profile: Asian, ProtectionLoss: LossAlways},
			want: "0-1:perpetual_chase", side: engine.First},
	})
}

// RULES X13, reading MinorChasesMajor: an elephant threatening a protected
// chariot chases it only when the reading is on.
func TestMinorChasesMajorReading(t *testing.T) {
	protected := "2r1k4/9/9/9/9/2r6/9/4B4/9/3K5 w - - 0 1"
	checkThreats(t, []threatCase{
		{name: "default", fen: protected, want: ""},
		{name: "on", fen: protected, rd: chaseReadings{minorChasesMajor: true}, want: "chariot@c4"},
	})
}

// RULES X14 (seed 002 §6.3): a position occurring the 3rd time with no
// violator is a draw, and not before; positions before a capture do not
// count.
func TestRepetitionDraw(t *testing.T) {
	shuffle := "h0g2 h9g7 g2h0 g7h9" // idle_threefold_draw_xqjs_L165
	checkVerdicts(t, []verdictCase{
		{name: "third occurrence", fen: StartFEN, moves: repeatMoves(shuffle, 2), rules: asian,
			want: "1/2-1/2:repetition", firstPly: 8},
		{name: "second occurrence", fen: StartFEN, moves: repeatMoves(shuffle, 1) + " h0g2 h9g7 g2h0", rules: asian, want: "*"},
		{name: "vn too", fen: StartFEN, moves: repeatMoves(shuffle, 2), want: "1/2-1/2:repetition", firstPly: 8},
		// After the capture b2b9 (and its recapture) the shuffle starts
		// counting afresh.
		{name: "capture resets", fen: StartFEN,
			moves: "h0g2 h9g7 g2h0 g7h9 b2b9 a9b9 " + repeatMoves(shuffle, 1) + " h0g2 h9g7 g2h0", rules: asian, want: "*"},
	})
}

// Rulings are what an arbiter applies: the referee records each one with
// its ply and side and follows the game on (RULES "Rulings vs ends").
func TestRulingsDoNotStopTheGame(t *testing.T) {
	ref := replay(t, StartFEN, repeatMoves("h0g2 h9g7 g2h0 g7h9", 3)+" b0c2", asian)
	rs := ref.Rulings()
	if len(rs) != 5 { // plies 8, 9, 10, 11, 12
		t.Fatalf("%d rulings %v, want 5", len(rs), rs)
	}
	for i, r := range rs {
		if r.Ply != 8+i || r.Status != engine.Repetition {
			t.Errorf("ruling %d = %v, want a repetition at ply %d", i, r, 8+i)
		}
	}
	if ref.Last().Decided() || ref.Ply() != 13 {
		t.Errorf("after a new move: %v at ply %d, want ongoing at 13", ref.Last(), ref.Ply())
	}
}

// RULES X15 (seed 002 §6.4): a draw after 120 plies without a capture, not
// counting each side's checks beyond its 10th, and never when the side to
// move is mated.
func TestMoveLimit(t *testing.T) {
	// Red's chariot checks on every move (each position occurs at most
	// twice): from a clock of 96 the plain count reaches 120 at ply 24, but
	// red's 11th to 14th checks (plies 21–27) do not count.
	checks := "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8e8 e9f9 e8e9 f9f8 e9e8 f8f9 e8e9 f9f8 e9e8 f8f7 e8e7 f7f8 e7f7 f8e8 f7f8 e8e9 f8f9 e9e8 f9f8 e8e9"
	checkVerdicts(t, []verdictCase{
		// movelimit_pika_rule60_*
		{name: "reached", fen: "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 119 80", moves: "e1e2", rules: asian,
			want: "1/2-1/2:move_limit", firstPly: 1},
		{name: "not yet", fen: "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 118 80", moves: "e1e2", rules: asian, want: "*"},
		{name: "capture resets", fen: "3k5/9/9/9/4p4/9/9/9/4R4/4K4 w - - 119 80", moves: "e1e5", rules: asian, want: "*"},
		{name: "checks beyond the 10th", fen: "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 96 60", moves: checks, rules: asian,
			want: "1/2-1/2:move_limit", firstPly: 28},
		{name: "configurable", fen: "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 96 60", moves: "a0a9 e9e8",
			rules: Rules{Profile: Asian, MoveLimit: 98}, want: "1/2-1/2:move_limit", firstPly: 2},
		{name: "off", fen: "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 119 80", moves: "e1e2",
			rules: Rules{Profile: Asian, MoveLimit: -1}, want: "*"},
		// The 120th ply mates: the mate stands.
		{name: "mate wins", fen: "3k5/1R7/9/9/9/9/9/9/R8/4K4 w - - 119 80", moves: "a1a9", rules: asian,
			want: "1-0:checkmate", side: engine.Second},
	})
}

// RULES X16 (seed 002 §6.1): a draw when neither side can win any more —
// no chariot, horse, cannon or soldier, and the finer cases of material.go.
func TestInsufficientMaterial(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		want      bool
	}{
		{"generals alone", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", true},
		{"advisors and elephants", "3akab2/9/4b4/9/9/9/9/4B4/4A4/2B1KA3 w - - 0 1", true},
		{"lone cannon", "5k3/9/9/9/9/9/9/9/9/3KC4 w - - 0 1", true},
		{"cannon against an advisor", "4k4/4a4/9/9/9/9/9/9/9/3K1C3 w - - 0 1", true},
		{"cannon against cannon", "3c1k3/9/9/9/9/9/9/9/9/4KC3 w - - 0 1", true},
		{"cannon and elephant against an advisor", "4k4/4a4/9/9/9/9/9/4B4/9/3KC4 w - - 0 1", true},
		{"the same, but mate in one", "9/9/4ka3/9/9/9/9/9/9/2BKC4 w - - 0 1", false},
		{"cannon against two advisors", "3aka3/9/9/9/9/9/9/9/9/3K1C3 w - - 0 1", true},
		{"soldier on the back rank", "P3k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", true},
		{"cannon and advisor can mate", "4k4/9/9/9/9/9/9/9/4A4/4KC3 w - - 0 1", false},
		{"horse can mate", "4k4/9/9/9/9/9/9/9/9/3KN4 w - - 0 1", false},
		{"soldier before the river", "4k4/9/9/4p4/9/9/9/9/9/4K4 w - - 0 1", false},
		{"chariot", "4k4/9/9/4p4/9/9/9/9/9/4KR3 w - - 0 1", false},
		{"start", StartFEN, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.InsufficientMaterial(); got != tc.want {
				t.Errorf("InsufficientMaterial = %v, want %v", got, tc.want)
			}
			ref := NewReferee(p, asian)
			if got := ref.Last().Status == engine.InsufficientMaterial; got != tc.want {
				t.Errorf("referee at ply 0: %v", ref.Last())
			}
		})
	}
	// A capture that leaves dead material is ruled at its ply.
	checkVerdicts(t, []verdictCase{
		{name: "after a capture", fen: "5k3/9/9/9/9/9/9/9/3Kr4/5C3 w - - 0 1", moves: "d1e1", rules: asian,
			want: "1/2-1/2:insufficient_material", firstPly: 1},
	})
}

// RULES X13 allowance (seed 000): under vn a violator is ruled against only
// once it has checked or chased continuously (checks and chases counted
// together) for 6 moves with one piece, 12 with two, 18 with three or more;
// asian rules at the 3rd occurrence.
func TestAllowance(t *testing.T) {
	for _, tc := range []struct {
		name, fen, entry, cycle string
		pieces, asianPly        int
		want                    string
		skip                    int // red moves before the run (a capture resets it)
	}{
		// orange_L335: one chariot checks.
		{"check with one piece", "9/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w - - 0 1", "", "f0e0 e8f8 e0f0 f8e8", 1, 8, "0-1:perpetual_check", 0},
		// The cannon moving checks over the advisor, and going back
		// uncovers the cannon behind it.
		{"check with two pieces", "4k4/4a4/9/9/9/5C3/6R2/5C3/4N4/4K4 w - - 0 1", "", "f4e4 e9f9 e4f4 f9e9", 2, 8, "0-1:perpetual_check", 0},
		// The chariot checks with the cannon behind it (a double check),
		// then going back uncovers the horse.
		{"check with three pieces", "4N4/3k2C2/9/9/4R4/9/9/9/5K3/5C3 w - - 0 1", "", "e5e8 d8d7 e8e5 d7d8", 3, 8, "0-1:perpetual_check", 0},
		// fsf_L1160: one cannon chases the chariot.
		{"chase with one piece", "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1", "c2a2", "a7b7 a2b2 b7a7 b2a2", 1, 9, "0-1:perpetual_chase", 0},
		// fsf_L1164: the soldier and the cannon behind it chase in turn.
		// The entry a4a5 is a capture: the run starts with red's 2nd move.
		{"chase with two pieces", "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/CC1AKA3 w - - 0 1", "a4a5", "a6b6 a5b5 b6a6 b5a5", 2, 9, "0-1:perpetual_chase", 1},
		// orange_L355: one chariot checks (h9, h8) and chases the cannon
		// (h0, h1) in turn: checks and chases count together.
		{"check and chase with one piece", "2ba1k3/4a4/b8/7R1/9/9/1r2p4/9/4A4/2B1KAB1c w - - 0 1",
			"h6h9 f9f8 h9h0 i0i1 h0h8 f8f9 h8h1 i1i0", "h1h9 f9f8 h9h0 i0i1 h0h8 f8f9 h8h1 i1i0", 1, 17, "0-1:perpetual_chase", 0},
		// fsf_L1168: the cannon on f4 checks from there; the one on f6
		// chases the soldier on f1 each time the other leaves or returns.
		{"check and chase with two pieces", "5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1", "", "f4d4 f5d5 d4f4 d5f5", 2, 8, "0-1:perpetual_chase", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Red moves first: its k-th move is ply 2k-1.
			need := allowance(tc.pieces)
			ply := 2*(need+tc.skip) - 1
			moves := strings.TrimSpace(tc.entry + " " + repeatMoves(tc.cycle, need/2+2))
			ref := replay(t, tc.fen, moves, Rules{})
			first := firstDecided(ref)
			if got := refereeCaseVerdict(first); got != tc.want || first.Ply != ply {
				t.Fatalf("vn: first ruling %v, want %s at ply %d (red's move %d)", first, tc.want, ply, need+tc.skip)
			}
			for _, r := range ref.Rulings() {
				if refereeCaseVerdict(r) != tc.want {
					t.Fatalf("vn: later ruling %v differs", r)
				}
			}
			if n := len(ref.Rulings()); n != ref.Ply()-first.Ply+1 {
				t.Errorf("vn: %d rulings from ply %d to %d, want one at every ply", n, first.Ply, ref.Ply())
			}
			ref = replay(t, tc.fen, moves, asian)
			if first := firstDecided(ref); refereeCaseVerdict(first) != tc.want || first.Ply != tc.asianPly {
				t.Errorf("asian: first ruling %v, want %s at ply %d", first, tc.want, tc.asianPly)
			}
		})
	}
}

// TestRefereePlayDoesNotAllocate checks that the common path — a move that
// ends nothing and repeats nothing — allocates nothing.
func TestRefereePlayDoesNotAllocate(t *testing.T) {
	var ms []engine.Move
	for _, mv := range strings.Fields("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 h0h4 h7i7 h4h9 g7h9 b0c2 b7b3 e2e6") {
		m, _ := ParseICCSMove(mv)
		ms = append(ms, m)
	}
	setup := func() *Referee { return NewReferee(NewStart(), Rules{}) }
	base := testing.AllocsPerRun(5, func() { setup() })
	all := testing.AllocsPerRun(5, func() {
		ref := setup()
		for _, m := range ms {
			ref.Play(m)
		}
	})
	if all != base {
		t.Errorf("%v allocations for %d plies beyond the %v of setting up, want none", all-base, len(ms), base)
	}
}
