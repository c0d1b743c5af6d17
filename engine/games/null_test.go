package games

import (
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// TestNullMove: a null move passes the turn and nothing else (the e.p.
// square lapses, RULES C3; the clocks run), its key is the key of the
// position it leaves, and Unmake restores the position exactly.
func TestNullMove(t *testing.T) {
	tests := []struct {
		name      string
		game      engine.Game
		fen, want string
	}{
		{"chess start", engine.Chess, "", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 1 1"},
		{"chess black to move", engine.Chess, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
			"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"},
		{"chess e.p. lapses", engine.Chess, "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
			"rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 4"},
		{"xiangqi start", engine.Xiangqi, "", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 1 1"},
		{"xiangqi black to move", engine.Xiangqi, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
			"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(tt.game, tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			before, key := p.FEN(), p.Key()
			r, ok := MoveRank(p, engine.NullMove)
			if !ok || r != NullRank || RankLegal(p, engine.NullMove) != NullRank {
				t.Fatalf("MoveRank(null) = %d, %v", r, ok)
			}
			if m, ok := MoveAtRank(p, NullRank); !ok || m != engine.NullMove {
				t.Fatalf("MoveAtRank(NullRank) = %v, %v", m, ok)
			}
			if c := WireCode(tt.game, engine.NullMove); c != NullCode || FromWireCode(tt.game, c) != engine.NullMove {
				t.Fatalf("wire code %#x", c)
			}
			if s := p.FormatMove(engine.NullMove, engine.Auto); s != "--" {
				t.Errorf("FormatMove(null) = %q", s)
			}
			p.Make(engine.NullMove)
			if got := p.FEN(); got != tt.want {
				t.Errorf("after null: %s, want %s", got, tt.want)
			}
			fresh, err := New(tt.game, tt.want)
			if err != nil {
				t.Fatal(err)
			}
			if p.Key() != fresh.Key() {
				t.Errorf("key after null %#x, want %#x (the key of the FEN)", p.Key(), fresh.Key())
			}
			// The position plays on: every legal move makes and unmakes.
			for _, m := range p.AppendLegalMoves(nil) {
				p.Make(m)
				p.Unmake()
			}
			p.Unmake()
			if p.FEN() != before || p.Key() != key {
				t.Errorf("after Unmake: %s %#x, want %s %#x", p.FEN(), p.Key(), before, key)
			}
		})
	}
}

// TestNullMoveNotInCheck: a null move in check would leave a king to be
// taken; it ranks as not allowed.
func TestNullMoveNotInCheck(t *testing.T) {
	for _, c := range []struct {
		game engine.Game
		fen  string
	}{
		{engine.Chess, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"},
		{engine.Xiangqi, "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1"},
	} {
		p, err := New(c.game, c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if !p.InCheck() {
			t.Fatalf("%s: not in check", c.fen)
		}
		if _, ok := MoveRank(p, engine.NullMove); ok {
			t.Errorf("%s: null move allowed in check", c.fen)
		}
		if _, ok := MoveAtRank(p, NullRank); ok {
			t.Errorf("%s: null rank decoded in check", c.fen)
		}
	}
}
