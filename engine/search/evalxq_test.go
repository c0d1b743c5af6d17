package search

import (
	"strings"
	"testing"
	"unicode"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

func flipFEN(fen string) string {
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	for i, j := 0, len(ranks)-1; i < j; i, j = i+1, j-1 {
		ranks[i], ranks[j] = ranks[j], ranks[i]
	}
	b := []rune(strings.Join(ranks, "/"))
	for i, r := range b {
		if unicode.IsUpper(r) {
			b[i] = unicode.ToLower(r)
		} else {
			b[i] = unicode.ToUpper(r)
		}
	}
	side := "b"
	if f[1] == "b" {
		side = "w"
	}
	return string(b) + " " + side + " - - 0 1"
}

// TestEvalSymmetry: the Xiangqi evaluation scores a position and its colour
// flip (ranks reversed, colours swapped, the other side to move) alike.
func TestEvalSymmetry(t *testing.T) {
	p := xiangqi.NewStart()
	var buf [128]engine.Move
	for i := 0; i < 60; i++ {
		q, err := xiangqi.ParseFEN(flipFEN(p.FEN()))
		if err != nil {
			t.Fatal(err)
		}
		if a, b := evalXiangqi(p), evalXiangqi(q); a != b {
			t.Errorf("%s: %d vs flipped %d", p.FEN(), a, b)
		}
		ms := p.AppendLegalMoves(buf[:0])
		p.Make(ms[(i*7)%len(ms)])
	}
}
