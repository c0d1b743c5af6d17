package chess

import (
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// The hot paths of replay and perft must not allocate (STYLE: no per-move
// allocation).

func TestMakeUnmakeDoesNotAllocate(t *testing.T) {
	p := mustFEN(t, perftPositions[1])
	moves := p.AppendLegalMoves(nil)
	allocs := testing.AllocsPerRun(100, func() {
		for _, m := range moves {
			p.Make(m)
			p.Unmake()
		}
	})
	if allocs != 0 {
		t.Errorf("Make/Unmake: %v allocs per run, want 0", allocs)
	}
}

func TestAppendLegalMovesDoesNotAllocate(t *testing.T) {
	p := mustFEN(t, perftPositions[1])
	buf := make([]engine.Move, 0, maxMoves)
	allocs := testing.AllocsPerRun(100, func() {
		buf = p.AppendLegalMoves(buf[:0])
		_ = p.CountLegalMoves()
		_ = p.IsLegal(buf[0])
		_ = p.Status()
		_ = p.InCheck()
	})
	if allocs != 0 {
		t.Errorf("move generation: %v allocs per run, want 0", allocs)
	}
}

func TestPerftDoesNotAllocate(t *testing.T) {
	p := mustFEN(t, perftPositions[1])
	if allocs := testing.AllocsPerRun(5, func() { p.Perft(3) }); allocs != 0 {
		t.Errorf("Perft(3): %v allocs per run, want 0", allocs)
	}
}

// TestParseMoveDoesNotAllocate: reading typical SAN and UCI tokens, the
// replay hot path, allocates nothing.
func TestParseMoveDoesNotAllocate(t *testing.T) {
	tests := []struct {
		fen string
		tok []string
	}{
		{StartFEN, []string{"e4", "Nf3", "Nc3", "d4", "g1f3", "e2e4", "Ng1-f3"}},
		{perftPositions[1], []string{"O-O", "O-O-O", "Bxa6", "Nxf7", "dxe6", "Qxh3", "Rb1", "Nxg6+", "a3!?"}},
		{"3r3k/4P3/8/8/8/8/8/K7 w - - 0 1", []string{"e8=Q+", "exd8=N", "e7e8q"}},
	}
	for _, tt := range tests {
		p := mustFEN(t, tt.fen)
		for _, tok := range tt.tok {
			n := engine.SAN
			if tok == "g1f3" || tok == "e2e4" || tok == "e7e8q" {
				n = engine.UCI
			}
			if _, err := p.ParseMove(tok, n); err != nil {
				t.Fatalf("%s: %v", tok, err)
			}
			if allocs := testing.AllocsPerRun(100, func() { p.ParseMove(tok, n) }); allocs != 0 {
				t.Errorf("ParseMove(%q): %v allocs per run, want 0", tok, allocs)
			}
		}
	}
}

// TestAppendSANDoesNotAllocate: writing SAN into a caller's buffer.
func TestAppendSANDoesNotAllocate(t *testing.T) {
	p := mustFEN(t, perftPositions[1])
	moves := p.AppendLegalMoves(nil)
	buf := make([]byte, 0, 16)
	allocs := testing.AllocsPerRun(20, func() {
		for _, m := range moves {
			buf = p.AppendSAN(buf[:0], m)
			buf = AppendUCI(buf[:0], m)
		}
	})
	if allocs != 0 {
		t.Errorf("AppendSAN/AppendUCI: %v allocs per run, want 0", allocs)
	}
}
