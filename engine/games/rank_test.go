package games

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// TestMoveRankIsIndexInSortedLegalMoves plays random games from set-ups
// with castling, e.p. and promotions, and checks that every legal move's
// rank is its index among the legal moves sorted by wire code, which is
// what stored records hold.
func TestMoveRankIsIndexInSortedLegalMoves(t *testing.T) {
	starts := []struct {
		game engine.Game
		fen  string
	}{
		{engine.Chess, ""},
		{engine.Chess, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"}, // kiwipete
		{engine.Chess, "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"},                              // promotions
		{engine.Chess, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"},
		{engine.Xiangqi, ""},
		{engine.Xiangqi, "3k5/4a4/4b4/9/2b6/9/9/4B4/4A4/4K4 w - - 0 1"},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for _, s := range starts {
		for game := 0; game < 20; game++ {
			p, err := New(s.game, s.fen)
			if err != nil {
				t.Fatal(err)
			}
			for ply := 0; ply < 80; ply++ {
				legal := p.AppendLegalMoves(nil)
				if len(legal) == 0 {
					break
				}
				sorted := slices.Clone(legal)
				slices.SortFunc(sorted, func(a, b engine.Move) int {
					return int(WireCode(s.game, a)) - int(WireCode(s.game, b))
				})
				for i, m := range sorted {
					if r, ok := MoveRank(p, m); !ok || r != i {
						t.Fatalf("%s: rank of %s = %d, %v; want %d", p.FEN(), p.FormatMove(m, engine.Auto), r, ok, i)
					}
					if r := RankLegal(p, m); r != i {
						t.Fatalf("%s: RankLegal of %s = %d; want %d", p.FEN(), p.FormatMove(m, engine.Auto), r, i)
					}
					if got, ok := MoveAtRank(p, i); !ok || got != m {
						t.Fatalf("%s: MoveAtRank(%d) = %s, %v; want %s", p.FEN(), i, p.FormatMove(got, engine.Auto), ok, p.FormatMove(m, engine.Auto))
					}
					// The generic way, for engines without the fast one,
					// agrees.
					if r, ok := MoveRank(plain{p}, m); !ok || r != i || RankLegal(plain{p}, m) != i {
						t.Fatalf("%s: generic rank of %s = %d, %v; want %d", p.FEN(), p.FormatMove(m, engine.Auto), r, ok, i)
					}
					if got, ok := MoveAtRank(plain{p}, i); !ok || got != m {
						t.Fatalf("%s: generic MoveAtRank(%d) = %s, %v", p.FEN(), i, p.FormatMove(got, engine.Auto), ok)
					}
					checked++
				}
				for _, q := range []engine.Position{p, plain{p}} {
					if _, ok := MoveAtRank(q, len(legal)); ok {
						t.Fatalf("%s: MoveAtRank(%d) of %d legal moves found one", p.FEN(), len(legal), len(legal))
					}
				}
				// Moves to every square from a square some legal move
				// leaves (pinned pieces, king steps into check, …), and a
				// few random codes: only legal moves are ranked.
				for i := 0; i < 4; i++ {
					c := uint16(rng.IntN(1 << 15))
					if s.game == engine.Xiangqi {
						c = uint16(rng.IntN(90)<<7 | rng.IntN(90))
					}
					checkLegality(t, p, FromWireCode(s.game, c), legal)
				}
				from := WireCode(s.game, legal[rng.IntN(len(legal))])
				if s.game == engine.Xiangqi {
					for to := range uint16(90) {
						checkLegality(t, p, FromWireCode(s.game, from&^127|to), legal)
					}
				} else {
					for to := range uint16(64) {
						checkLegality(t, p, FromWireCode(s.game, from&0x0FC0|to), legal)
					}
				}
				p.Make(legal[rng.IntN(len(legal))])
			}
		}
	}
	if checked < 10_000 {
		t.Fatalf("only %d moves checked", checked)
	}
}

// plain hides an engine's fast ranking methods: only engine.Position's
// methods are promoted, so the generic way runs.
type plain struct{ engine.Position }

func TestMoveRankRejectsIllegalMoves(t *testing.T) {
	for _, g := range []engine.Game{engine.Chess, engine.Xiangqi} {
		p, err := New(g, "")
		if err != nil {
			t.Fatal(err)
		}
		m := p.AppendLegalMoves(nil)[0]
		p.Make(m) // now the other side moves: m's piece is not theirs
		for _, q := range []engine.Position{p, plain{p}} {
			if _, ok := MoveRank(q, m); ok {
				t.Errorf("%v: MoveRank accepts %v, a move of the side not to move", g, m)
			}
		}
	}
}

func checkLegality(t *testing.T, p engine.Position, m engine.Move, legal []engine.Move) {
	t.Helper()
	for _, q := range []engine.Position{p, plain{p}} {
		if _, ok := MoveRank(q, m); ok != slices.Contains(legal, m) {
			t.Fatalf("%s: MoveRank(%v) says legal = %v", p.FEN(), m, ok)
		}
	}
}
