package xiangqi

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// randomPositions walks random legal games from the start and yields every
// position met.
func randomPositions(t *testing.T, games, plies int, fn func(p *Position)) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range games {
		p := NewStart()
		var buf [MaxMoves]engine.Move
		for range plies {
			fn(p)
			moves := p.AppendLegalMoves(buf[:0])
			if len(moves) == 0 {
				break
			}
			p.Make(moves[rng.IntN(len(moves))])
		}
	}
}

func TestAppendLegalCapturesAreTheLegalCaptures(t *testing.T) {
	randomPositions(t, 40, 150, func(p *Position) {
		var all, caps [MaxMoves]engine.Move
		var want []engine.Move
		for _, m := range p.AppendLegalMoves(all[:0]) {
			if p.IsCapture(m) {
				want = append(want, m)
			}
		}
		got := p.AppendLegalCaptures(caps[:0])
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: captures %v, want %v", p.FEN(), got, want)
		}
	})
}

func TestMakeNullPassesTheMove(t *testing.T) {
	randomPositions(t, 10, 100, func(p *Position) {
		if p.InCheck() {
			return
		}
		fen, key, n, side := p.FEN(), p.Key(), p.Ply(), p.SideToMove()
		p.MakeNull()
		if p.SideToMove() == side || p.Key() == key || p.Key() != p.RecomputeKey() {
			t.Fatalf("%s: null move key %x, recomputed %x", fen, p.Key(), p.RecomputeKey())
		}
		if p.HalfmoveClock() != 0 || p.HistoryMove(n) != engine.NoMove || p.HistoryKey(n) != key {
			t.Fatalf("%s: null move history wrong", fen)
		}
		p.UnmakeNull()
		if p.FEN() != fen || p.Key() != key || p.Ply() != n {
			t.Fatalf("UnmakeNull: %s, want %s", p.FEN(), fen)
		}
	})
}
