package xiangqi

import (
	"errors"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// fuzzFENs are the positions FuzzParseMove reads tokens in.
var fuzzFENs = []string{StartFEN, fenAfterCentral, fenTwoSoldiers, fenFourSoldiers, fenFiveSoldiers, fenTwoFiles22, fenTwoFiles32, fenBlackSoldiers, fenTwoChariots, fenTwoAdvisors}

// FuzzParseMove: any bytes in any notation and position. Reading never
// panics; an error wraps a documented sentinel; a move read is legal and
// formats and reads back to itself in every notation.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"C2.5", "C2=5", "C25", "Ｃ２＝５", "＋Ｐ＋１", "+C.5", "++.6", "3+.2", "77.6", "P..6", "Pb.6",
		"h2e2", "H2-E2", "炮二平五", "馬８進７", "前炮平五", "炮前平五", "一兵平六", "P2-5", "M8.7", "X1/1", "Tg5.1", "Pt-5", "2B-6",
		"", "\xff", "炮二平\xe4", "Tg", "++", "前前前前"} {
		for n := range 7 {
			f.Add([]byte(s), uint8(n), uint8(0))
		}
	}
	f.Fuzz(func(t *testing.T, tok []byte, notation, fen uint8) {
		p := mustFEN(t, fuzzFENs[int(fen)%len(fuzzFENs)])
		n := engine.Notation(notation % 8)
		m, err := p.ParseMoveBytes(tok, n)
		ms, errs := p.ParseMove(string(tok), n)
		if m != ms || (err == nil) != (errs == nil) {
			t.Fatalf("ParseMoveBytes %s %v, ParseMove %s %v", ICCS(m), err, ICCS(ms), errs)
		}
		if err != nil {
			if !errors.Is(err, engine.ErrBadMove) && !errors.Is(err, engine.ErrIllegalMove) &&
				!errors.Is(err, engine.ErrAmbiguousMove) && !errors.Is(err, errors.ErrUnsupported) {
				t.Fatalf("error wraps no sentinel: %v", err)
			}
			return
		}
		if !p.IsLegal(m) {
			t.Fatalf("%q in %v reads %s, not legal in %s", tok, n, ICCS(m), p.FEN())
		}
		for _, out := range allNotations {
			s := p.FormatMove(m, out)
			if back, err := p.ParseMove(s, out); err != nil || back != m {
				t.Fatalf("%s written %v as %q reads back as %s, %v", ICCS(m), out, s, ICCS(back), err)
			}
		}
	})
}
