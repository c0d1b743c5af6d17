package xiangqi

import (
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// TestParseMoveBytesDoesNotAllocate: reading a move from bytes is the
// replay hot path of imports; it must not allocate when it succeeds, in
// any notation, tandem forms and full-width text included. AppendMove
// must not allocate into a buffer with room.
func TestParseMoveBytesDoesNotAllocate(t *testing.T) {
	fens := []string{StartFEN, fenAfterCentral, fenTwoChariots, fenFiveSoldiers, fenTwoFiles32, fenBlackSoldiers}
	extra := []struct {
		fen, tok string
		n        engine.Notation
	}{
		{StartFEN, "Ｃ２＝５", engine.WXF},
		{StartFEN, "H2-E2", engine.ICCS},
		{fenTwoChariots, "+R.5", engine.WXF},
		{fenTwoChariots, "車前平五", engine.ChineseTraditional},
		{StartFEN, "P2-5", engine.Auto},
		{StartFEN, "炮二平五", engine.Auto},
	}
	check := func(p *Position, tok []byte, n engine.Notation) {
		t.Helper()
		if _, err := p.ParseMoveBytes(tok, n); err != nil {
			t.Fatalf("%s: %v", p.FEN(), err)
		}
		if a := testing.AllocsPerRun(20, func() { p.ParseMoveBytes(tok, n) }); a != 0 {
			t.Errorf("ParseMoveBytes(%q, %v) allocates %v times", tok, n, a)
		}
		if a := testing.AllocsPerRun(20, func() { p.ParseMove(string(tok), n) }); a > 1 {
			t.Errorf("ParseMove(%q, %v) allocates %v times", tok, n, a)
		}
	}
	for _, fen := range fens {
		p := mustFEN(t, fen)
		var buf [MaxMoves]engine.Move
		text := make([]byte, 0, 32)
		for _, m := range p.AppendLegalMoves(buf[:0]) {
			for _, n := range allNotations {
				if a := testing.AllocsPerRun(20, func() { text = p.AppendMove(text[:0], m, n) }); a != 0 {
					t.Errorf("AppendMove(%s, %v) allocates %v times", ICCS(m), n, a)
				}
				check(p, append([]byte(nil), text...), n)
			}
		}
	}
	for _, e := range extra {
		check(mustFEN(t, e.fen), []byte(e.tok), e.n)
	}
}
