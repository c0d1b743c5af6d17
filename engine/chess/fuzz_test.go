package chess

import (
	"errors"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

var fuzzFENs = append(append([]string{}, perftPositions...),
	"8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1",
	"1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 0 1",
	"3r3k/4P3/8/8/8/8/8/K7 w - - 0 1",
	"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
	"R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
	"kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
)

// FuzzParseFEN: no input panics; an accepted FEN re-serialises and
// re-parses to the same position; its moves make and unmake cleanly.
func FuzzParseFEN(f *testing.F) {
	for _, s := range fuzzFENs {
		f.Add(s)
	}
	f.Add("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1")
	f.Add("8/8/8/8/8/8/8/8 w - - 0 1")
	f.Add("4k3/8/8/8/8/8/8/4K3 w - - 65535 65535")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFEN(s)
		if err != nil {
			if !errors.Is(err, engine.ErrBadFEN) {
				t.Fatalf("ParseFEN(%q) error %v does not wrap ErrBadFEN", s, err)
			}
			return
		}
		fen := p.FEN()
		q, err := ParseFEN(fen)
		if err != nil {
			t.Fatalf("ParseFEN(%q) ok, but its FEN %q does not parse: %v", s, fen, err)
		}
		if q.FEN() != fen || q.b != p.b {
			t.Fatalf("%q: re-parsed FEN %q differs from %q", s, q.FEN(), fen)
		}
		if p.Key() != p.b.computeKey() {
			t.Fatalf("%q: key mismatch", s)
		}
		moves := p.AppendLegalMoves(nil)
		if len(moves) != p.CountLegalMoves() {
			t.Fatalf("%q: %d moves listed, %d counted", fen, len(moves), p.CountLegalMoves())
		}
		_ = p.Status()
		_ = p.InsufficientMaterial()
		_ = p.KeyLegalEP()
		for _, m := range moves {
			san := p.FormatMove(m, engine.SAN)
			if back, err := p.ParseMove(san, engine.SAN); err != nil || back != m {
				t.Fatalf("%s: %s reads back as %s, %v", fen, san, UCI(back), err)
			}
			p.Make(m)
			if p.Key() != p.b.computeKey() {
				t.Fatalf("%s: key mismatch after %s", fen, UCI(m))
			}
			p.Unmake()
			if p.FEN() != fen {
				t.Fatalf("%s: unmake %s gives %s", fen, UCI(m), p.FEN())
			}
		}
	})
}

// FuzzParseMove: no token panics in any notation; a move read is legal and
// its SAN reads back to it; errors wrap one of the three sentinels.
func FuzzParseMove(f *testing.F) {
	for _, tok := range []string{"e4", "Nf3", "O-O", "0-0-0", "exd6 e.p.", "e8=Q+", "e7e8q", "Ng1-f3", "bxc3", "Kxh1", "♘f3", "ed", "e8(Q)", "Bb4xNc3"} {
		for i := range fuzzFENs {
			f.Add(uint8(i), tok)
		}
	}
	f.Fuzz(func(t *testing.T, i uint8, tok string) {
		p := mustFEN(t, fuzzFENs[int(i)%len(fuzzFENs)])
		for _, n := range []engine.Notation{engine.Auto, engine.SAN, engine.UCI, engine.WXF} {
			m, err := p.ParseMove(tok, n)
			if err != nil {
				if !errors.Is(err, engine.ErrBadMove) && !errors.Is(err, engine.ErrIllegalMove) && !errors.Is(err, engine.ErrAmbiguousMove) {
					t.Fatalf("ParseMove(%q, %v): error %v wraps no sentinel", tok, n, err)
				}
				continue
			}
			if !p.IsLegal(m) {
				t.Fatalf("ParseMove(%q, %v) = %s, not legal", tok, n, UCI(m))
			}
			if back, err := p.ParseMove(p.FormatMove(m, engine.SAN), engine.SAN); err != nil || back != m {
				t.Fatalf("%q: SAN %s reads back as %s, %v", tok, p.FormatMove(m, engine.SAN), UCI(back), err)
			}
		}
	})
}
