package xiangqi

import (
	"errors"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

func TestParseFENRejectsImpossiblePositions(t *testing.T) {
	tests := []struct {
		name, fen, why string
	}{
		{"empty", "", "empty"},
		{"nine ranks", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "ranks"},
		{"short rank", "rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "files"},
		{"long rank", "rnbakabnr/91/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "10 files"},
		{"bad letter", "rnbakabnx/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "unknown piece"},
		{"missing red general", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w", "no red general"},
		{"missing black general", "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "no black general"},
		{"two red generals", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w", "more than 1"},
		{"three chariots", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/RNBAKABNR w", "more than 2"},
		{"six soldiers", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/P8/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "more than 5"},
		{"general off palace", "3k5/9/9/9/9/9/9/9/9/2K6 w", "outside its palace"},
		{"advisor off its points", "3k5/9/9/9/9/9/9/9/4K4/3A5 w", "ok"},
		{"advisor on rank 1 file d", "3k5/9/9/9/9/9/9/9/3A5/4K4 w", "advisor points"},
		{"elephant off its points", "3k5/9/9/9/9/9/9/9/9/1B2K4 w", "elephant points"},
		{"elephant across the river", "3k5/9/9/2B6/9/9/9/9/9/4K4 w", "elephant points"},
		{"soldier behind start", "3k5/9/9/9/9/9/9/4P4/9/4K4 w", "behind its start"},
		{"soldier sideways before river", "3k5/9/9/9/9/9/1P7/9/9/4K4 w", "sideways before the river"},
		{"black soldier behind start", "3k5/9/4p4/9/9/9/9/9/9/5K3 w", "behind its start"},
		{"generals facing", "4k4/9/9/9/9/9/9/9/9/4K4 w", "face each other"},
		{"side not to move in check", "3k5/3R5/9/9/9/9/9/9/9/4K4 w", "not to move, is in check"},
		{"bad side", "3k5/9/9/9/9/9/9/9/9/4K4 x", "side to move"},
		{"bad clock", "3k5/9/9/9/9/9/9/9/9/4K4 w - - x 1", "half-move"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFEN(tt.fen)
			if tt.why == "ok" {
				if err != nil {
					t.Fatalf("rejected a possible position: %v", err)
				}
				return
			}
			if !errors.Is(err, engine.ErrBadFEN) {
				t.Fatalf("err = %v, want ErrBadFEN", err)
			}
			if !strings.Contains(err.Error(), tt.why) {
				t.Errorf("err %q does not say %q", err, tt.why)
			}
		})
	}
}

func TestParseFENAcceptsVariants(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"start", StartFEN, StartFEN},
		{"E and H aliases", "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1", StartFEN},
		{"red as r", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r", StartFEN},
		{"board only", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR", StartFEN},
		{"black to move", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
			"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"},
		{"empty ranks written empty", "3k5//9/9/9/9/9/9/9/4K4 w - - 0 1", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseFEN(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.FEN(); got != tt.want {
				t.Errorf("FEN() = %q, want %q", got, tt.want)
			}
		})
	}
}

func FuzzParseFEN(f *testing.F) {
	for _, s := range []string{StartFEN, "3k5/9/9/9/9/9/9/9/9/4K4 w", "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r",
		"4k4/9/9/9/9/9/9/9/9/4K4 w", "3k5//9/9/9/9/9/9/9/4K4 b - - 3 7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFEN(s)
		if err != nil {
			return
		}
		q, err := ParseFEN(p.FEN())
		if err != nil {
			t.Fatalf("FEN() output %q does not parse: %v", p.FEN(), err)
		}
		if q.FEN() != p.FEN() || q.Key() != p.Key() {
			t.Fatalf("round trip changed %q into %q", p.FEN(), q.FEN())
		}
		var buf [MaxMoves]engine.Move
		for _, m := range p.AppendLegalMoves(buf[:0]) {
			p.Make(m)
			p.Unmake()
		}
		if p.FEN() != q.FEN() {
			t.Fatalf("make/unmake changed the position")
		}
	})
}
