package chess

import (
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
)

// TestStockfishDivide compares PerftDivide(3) with Stockfish's "go perft 3"
// listing, move by move, on positions sampled from master games: every
// 40th ply, plus every position with an e.p. capture, a promotion or a
// castling move available, or the side to move in check (up to 150 of
// those).
func TestStockfishDivide(t *testing.T) {
	sf := enginetest.StartUCI(t, enginetest.FindEngine(t, "stockfish"), nil)
	games := pgnmentorGames(t)
	var fens []string
	special := 0
	n := 0
	var buf [maxMoves]engine.Move
	replayPositions(t, games, func(p *Position, _ string) {
		n++
		interesting := p.EPSquare() != NoSquare || p.InCheck()
		for _, m := range p.AppendLegalMoves(buf[:0]) {
			if movePromo(m) != NoPieceType || p.b.isCastle(m) && n%4 == 0 {
				interesting = true
			}
		}
		switch {
		case interesting && special < 150:
			special++
			fens = append(fens, p.FEN())
		case n%40 == 0:
			fens = append(fens, p.FEN())
		}
	})
	if len(fens) < 300 {
		t.Fatalf("only %d positions sampled, want at least 300", len(fens))
	}
	for _, fen := range fens {
		want, wantTotal := sf.PerftDivide("fen "+fen, 3)
		got := map[string]uint64{}
		var total uint64
		for _, d := range mustFEN(t, fen).PerftDivide(3) {
			got[UCI(d.Move)] = d.Nodes
			total += d.Nodes
		}
		same := total == wantTotal && len(got) == len(want)
		for m, n := range want {
			same = same && got[m] == n
		}
		if same {
			continue
		}
		t.Errorf("%s: perft 3 = %d over %d moves, stockfish %d over %d", fen, total, len(got), wantTotal, len(want))
		for m, n := range want {
			if got[m] != n {
				t.Errorf("  %s: ours %d, stockfish %d", m, got[m], n)
			}
		}
		for m := range got {
			if _, ok := want[m]; !ok {
				t.Errorf("  %s: ours only", m)
			}
		}
	}
	t.Logf("%d positions (%d special) agree with stockfish", len(fens), special)
}
