package xiangqi

import (
	"math/rand/v2"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// walkChecked walks the legal move tree to depth and, after every make and
// every unmake, checks that the incremental key equals the key recomputed
// from scratch and that unmake restores the FEN exactly.
func walkChecked(t *testing.T, p *Position, depth int) {
	t.Helper()
	if depth == 0 {
		return
	}
	before := p.FEN()
	var buf [MaxMoves]engine.Move
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		p.Make(m)
		if p.Key() != p.RecomputeKey() {
			t.Fatalf("after %s from %s: key %016x, recomputed %016x", ICCS(m), before, p.Key(), p.RecomputeKey())
		}
		if p.kingAttacked(p.sq[generalID(p.side.Other())], p.side) {
			t.Fatalf("after %s from %s the mover's general can be captured", ICCS(m), before)
		}
		walkChecked(t, p, depth-1)
		p.Unmake()
		if got := p.FEN(); got != before {
			t.Fatalf("unmake %s: FEN %s, want %s", ICCS(m), got, before)
		}
		if p.Key() != p.RecomputeKey() {
			t.Fatalf("unmake %s from %s: key mismatch", ICCS(m), before)
		}
	}
}

func TestMakeUnmakeKeepsKeyAndFEN(t *testing.T) {
	fens := []string{
		StartFEN,
		"r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
		"1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
		"CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
		"C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
		"1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
	}
	for _, fen := range fens {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		walkChecked(t, p, 3)
	}
}

func TestRandomPlayoutsKeepInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for game := 0; game < 300; game++ {
		p := NewStart()
		var fens []string
		var buf [MaxMoves]engine.Move
		for ply := 0; ply < 200; ply++ {
			moves := p.AppendLegalMoves(buf[:0])
			if len(moves) == 0 {
				if st := p.Status(); st == engine.Ongoing {
					t.Fatalf("no moves but status %v", st)
				}
				break
			}
			fens = append(fens, p.FEN())
			p.Make(moves[rng.IntN(len(moves))])
			if p.Key() != p.RecomputeKey() {
				t.Fatalf("game %d ply %d: key mismatch", game, ply)
			}
			if _, err := ParseFEN(p.FEN()); err != nil {
				t.Fatalf("game %d ply %d: reached position fails ParseFEN: %v", game, ply, err)
			}
		}
		for i := len(fens) - 1; i >= 0; i-- {
			p.Unmake()
			if p.FEN() != fens[i] {
				t.Fatalf("game %d: unmake to ply %d gives %s, want %s", game, i, p.FEN(), fens[i])
			}
		}
	}
}

func TestMakeUnmakeDoesNotAllocate(t *testing.T) {
	p := NewStart()
	var buf [MaxMoves]engine.Move
	moves := p.AppendLegalMoves(buf[:0])
	allocs := testing.AllocsPerRun(100, func() {
		for _, m := range p.AppendLegalMoves(buf[:0]) {
			p.Make(m)
			p.Unmake()
		}
		_ = p.Perft(2)
	})
	if allocs != 0 || len(moves) != 44 {
		t.Fatalf("allocs per run = %v (want 0), moves %d", allocs, len(moves))
	}
}
