package xiangqi

import (
	"math/rand/v2"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// The referee's shortcuts for RULES X12 must agree with the plain answers:
// checkedBy with InCheck, hasLegalMove with the move generator. Random
// playouts reach every kind of check (discovered, cannon screens, horse
// legs, flying general) and, towards their end, mates and stalemates.
func TestRefereeShortcutsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 13))
	var buf [MaxMoves]engine.Move
	checks, ends := 0, 0
	for game := 0; game < 300; game++ {
		p := NewStart()
		for ply := 0; ply < 300; ply++ {
			moves := p.AppendLegalMoves(buf[:0])
			if got := p.hasLegalMove(); got != (len(moves) > 0) {
				t.Fatalf("%s: hasLegalMove %v with %d legal moves", p.FEN(), got, len(moves))
			}
			if len(moves) == 0 {
				ends++
				break
			}
			m := moves[rng.IntN(len(moves))]
			p.Make(m)
			if got, want := p.checkedBy(m), p.InCheck(); got != want {
				t.Fatalf("after %s (%s): checkedBy %v, InCheck %v", ICCS(m), p.FEN(), got, want)
			}
			if p.InCheck() {
				checks++
			}
		}
	}
	t.Logf("%d checks, %d mates or stalemates", checks, ends)
	if checks < 1000 || ends < 10 {
		t.Errorf("playouts reached %d checks and %d mates or stalemates; too few to test", checks, ends)
	}
}
