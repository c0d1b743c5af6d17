package xiangqi

import (
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// benchTokens writes every legal move of a middlegame position in n.
func benchTokens(b *testing.B, n engine.Notation) (*Position, [][]byte) {
	p := mustFEN(b, benchPositions[1].fen)
	var buf [MaxMoves]engine.Move
	var toks [][]byte
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		toks = append(toks, p.AppendMove(nil, m, n))
	}
	return p, toks
}

// BenchmarkParseMove reads every legal move of a middlegame position from
// bytes, per notation; it must report 0 allocs/op.
func BenchmarkParseMove(b *testing.B) {
	for _, bc := range []struct {
		name  string
		write engine.Notation
		read  engine.Notation
	}{
		{"iccs", engine.ICCS, engine.ICCS},
		{"wxf", engine.WXF, engine.WXF},
		{"chinese", engine.Chinese, engine.Chinese},
		{"chinese-traditional", engine.ChineseTraditional, engine.ChineseTraditional},
		{"vietnamese", engine.Vietnamese, engine.Vietnamese},
		{"auto-wxf", engine.WXF, engine.Auto},
		{"auto-chinese", engine.Chinese, engine.Auto},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p, toks := benchTokens(b, bc.write)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := p.ParseMoveBytes(toks[i%len(toks)], bc.read); err != nil && bc.read != engine.Auto {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFormatMove writes every legal move of a middlegame position,
// per notation, into a reused buffer.
func BenchmarkFormatMove(b *testing.B) {
	for _, n := range allNotations {
		b.Run(n.String(), func(b *testing.B) {
			p := mustFEN(b, benchPositions[1].fen)
			var buf [MaxMoves]engine.Move
			moves := p.AppendLegalMoves(buf[:0])
			text := make([]byte, 0, 32)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				text = p.AppendMove(text[:0], moves[i%len(moves)], n)
			}
		})
	}
}
