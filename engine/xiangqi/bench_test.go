package xiangqi

import (
	"testing"

	"github.com/xqdb/xqdb/engine"
)

var benchPositions = []struct {
	name, fen string
	depth     int
}{
	{"start", StartFEN, 4},
	{"middlegame", "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", 4},
	{"endgame", "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1", 5},
}

// BenchmarkPerft reports leaf nodes per second; it must not allocate.
func BenchmarkPerft(b *testing.B) {
	for _, bp := range benchPositions {
		b.Run(bp.name, func(b *testing.B) {
			p, err := ParseFEN(bp.fen)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			var nodes uint64
			for i := 0; i < b.N; i++ {
				nodes += p.Perft(bp.depth)
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkLegalMoves measures one legal move generation.
func BenchmarkLegalMoves(b *testing.B) {
	for _, bp := range benchPositions {
		b.Run(bp.name, func(b *testing.B) {
			p, _ := ParseFEN(bp.fen)
			var buf [MaxMoves]engine.Move
			b.ReportAllocs()
			b.ResetTimer()
			n := 0
			for i := 0; i < b.N; i++ {
				n += len(p.AppendLegalMoves(buf[:0]))
			}
			b.ReportMetric(float64(n)/float64(b.N), "moves/op")
		})
	}
}

// BenchmarkMakeUnmake measures one make and unmake pair.
func BenchmarkMakeUnmake(b *testing.B) {
	p := NewStart()
	var buf [MaxMoves]engine.Move
	moves := p.AppendLegalMoves(buf[:0])
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m := moves[i%len(moves)]
		p.Make(m)
		p.Unmake()
	}
}
