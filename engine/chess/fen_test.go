package chess

import (
	"errors"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

func TestParseFENRejectsImpossiblePositions(t *testing.T) {
	tests := []struct {
		name string
		fen  string
	}{
		{"empty", ""},
		{"three fields", "8/8/8/8/8/8/8/8 w -"},
		{"seven ranks", "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{"rank too long", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{"rank overfull with piece", "rnbqkbnrp/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{"rank short", "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{"unknown piece", "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{"bad side", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"},
		{"bad castling letter", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1"},
		{"repeated castling letter", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1"},
		{"negative halfmove clock", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1"},
		{"fullmove not a number", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x"},
		{"no white king", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1"},
		{"two black kings", "rnbqkbnr/pppppppp/8/8/3k4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{"white pawn on rank 8", "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1"},
		{"black pawn on rank 1", "rnbqkbnr/ppppppp1/8/8/8/8/PPPPPPPP/RNBQKBNp w Qkq - 0 1"},
		{"side not to move in check", "4k3/8/8/8/8/8/8/4K2r b - - 0 1"},
		{"castling K without rook", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1"},
		{"castling Q with king moved", "4k3/8/8/8/8/8/8/R2K3R w Q - 0 1"},
		{"castling q without rook", "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{"e.p. square wrong rank", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1"},
		{"e.p. square rank 6 but black to move", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 2"},
		{"e.p. without the pawn that double-stepped", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1"},
		{"e.p. square occupied", "rnbqkbnr/pppp1ppp/4p3/3Pp3/8/8/PPP1PPPP/RNBQKBNR w KQkq e6 0 3"},
		{"e.p. origin square occupied", "rnbqkbnr/pppppppp/8/3Pp3/8/8/PPP1PPPP/RNBQKBNR w KQkq e6 0 3"},
		{"e.p. not a square", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseFEN(tt.fen)
			if !errors.Is(err, engine.ErrBadFEN) {
				t.Fatalf("ParseFEN(%q) = %v, %v; want ErrBadFEN", tt.fen, p, err)
			}
			if msg := err.Error(); len(msg) < 7 || msg[:7] != "chess: " {
				t.Errorf("error %q lacks the package prefix", msg)
			}
		})
	}
}

func TestFENRoundTrip(t *testing.T) {
	for _, fen := range append(perftPositions,
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
		"8/8/8/8/8/8/8/K6k b - - 99 200",
		"r3k2r/8/8/8/8/8/8/R3K2R b Kq - 3 40",
	) {
		if got := mustFEN(t, fen).FEN(); got != fen {
			t.Errorf("FEN round trip: got %s, want %s", got, fen)
		}
	}
}

func TestFENCanonicalOutput(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"counters default (EPD-like)", "4k3/8/8/8/8/8/8/4K3 w - -", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},
		{"halfmove only", "4k3/8/8/8/8/8/8/4K3 w - - 7", "4k3/8/8/8/8/8/8/4K3 w - - 7 1"},
		{"castling order", "r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"},
		{"fullmove 0 reads as 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 0", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},
		{"extra spaces", "  4k3/8/8/8/8/8/8/4K3   b  -  -  1  2 ", "4k3/8/8/8/8/8/8/4K3 b - - 1 2"},
		{"split empty counts", "4k3/8/8/8/8/8/8/13K12 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseFEN(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.FEN(); got != tt.want {
				t.Errorf("FEN() = %s, want %s", got, tt.want)
			}
		})
	}
}

// TestEPFieldOnlyWhenCapturePossible: the FEN's e.p. field (like the key)
// names the square only when a pawn of the side to move stands beside the
// double-stepped pawn, Polyglot's pseudo-legal rule (see the package doc).
func TestEPFieldOnlyWhenCapturePossible(t *testing.T) {
	p := NewStart()
	play(t, p, "e4")
	if got, want := p.FEN(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"; got != want {
		t.Errorf("after 1.e4 FEN() = %s, want %s", got, want)
	}
	play(t, p, "d5", "e5", "f5")
	if got, want := p.FEN(), "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"; got != want {
		t.Errorf("after 2...f5 FEN() = %s, want %s", got, want)
	}
	play(t, p, "Nf3")
	if p.EPSquare() != NoSquare {
		t.Errorf("e.p. square survives a move: %v (RULES C3)", p.EPSquare())
	}
	// A valid but unusable e.p. square in the input is dropped.
	q := mustFEN(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	if q.EPSquare() != NoSquare || q.Key() != 0x823c9b50fd114196 {
		t.Errorf("unusable e3 kept: FEN %s key %016x", q.FEN(), q.Key())
	}
	// Pinned capturer: still written (pseudo-legal rule).
	r := mustFEN(t, "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 2")
	if r.EPSquare() != D6 {
		t.Errorf("e.p. beside a pinned pawn dropped: %s", r.FEN())
	}
}

func TestParseEPD(t *testing.T) {
	p, ops, err := ParseEPD(`r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - bm e5f7; id "kiwipete"; hmvc 3; fmvn 12;`)
	if err != nil {
		t.Fatal(err)
	}
	if want := `bm e5f7; id "kiwipete"; hmvc 3; fmvn 12;`; ops != want {
		t.Errorf("ops = %q, want %q", ops, want)
	}
	if p.HalfmoveClock() != 3 || p.FullmoveNumber() != 12 {
		t.Errorf("counters %d %d, want 3 12", p.HalfmoveClock(), p.FullmoveNumber())
	}
	if got, want := p.EPD(), "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"; got != want {
		t.Errorf("EPD() = %s, want %s", got, want)
	}
	if _, _, err := ParseEPD("8/8/8 w"); !errors.Is(err, engine.ErrBadFEN) {
		t.Errorf("short EPD: err = %v, want ErrBadFEN", err)
	}
	q, ops, err := ParseEPD("4k3/8/8/8/8/8/8/4K3 b - -")
	if err != nil || ops != "" || q.FEN() != "4k3/8/8/8/8/8/8/4K3 b - - 0 1" {
		t.Errorf("bare EPD: %v %q %v", q, ops, err)
	}
}
