package chess

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

func randomChessPositions(games, plies int, fn func(p *Position)) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range games {
		p := NewStart()
		var buf [maxMoves]engine.Move
		for range plies {
			fn(p)
			moves := p.AppendLegalMoves(buf[:0])
			if len(moves) == 0 {
				break
			}
			p.Make(moves[rng.IntN(len(moves))])
		}
	}
}

func TestAppendLegalCapturesAreCapturesAndPromotions(t *testing.T) {
	randomChessPositions(40, 200, func(p *Position) {
		var all, caps [maxMoves]engine.Move
		var want []engine.Move
		for _, m := range p.AppendLegalMoves(all[:0]) {
			pawn := p.PieceAt(From(m)).Type() == Pawn
			if p.PieceAt(To(m)) != NoPiece || Promotion(m) != NoPieceType || pawn && To(m) == p.EPSquare() {
				want = append(want, m)
			}
		}
		got := p.AppendLegalCaptures(caps[:0])
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: captures %v, want %v", p.FEN(), got, want)
		}
	})
}

func TestMakeNullPassesTheMove(t *testing.T) {
	randomChessPositions(10, 100, func(p *Position) {
		if p.InCheck() {
			return
		}
		fen, key, n, side := p.FEN(), p.Key(), p.Ply(), p.SideToMove()
		p.MakeNull()
		if p.SideToMove() == side || p.Key() != p.b.computeKey() || p.EPSquare() != NoSquare {
			t.Fatalf("%s: null move key %x, recomputed %x", fen, p.Key(), p.b.computeKey())
		}
		if p.HistoryMove(n) != engine.NoMove || p.HistoryKey(n) != key {
			t.Fatalf("%s: null move history wrong", fen)
		}
		p.UnmakeNull()
		if p.FEN() != fen || p.Key() != key {
			t.Fatalf("UnmakeNull: %s, want %s", p.FEN(), fen)
		}
	})
}

func TestPiecesAndAttacks(t *testing.T) {
	p := NewStart()
	if got := bits.OnesCount64(p.Pieces(NewPiece(White, Pawn))); got != 8 {
		t.Errorf("white pawns: %d", got)
	}
	if p.Occupied(Black) != 0xffff000000000000 {
		t.Errorf("black pieces %x", p.Occupied(Black))
	}
	occ := p.Occupied(White) | p.Occupied(Black)
	for _, c := range []struct {
		t    PieceType
		s    Square
		want int
	}{{Knight, G1, 3}, {Bishop, C1, 2}, {Rook, A1, 2}, {Queen, D1, 5}, {King, E1, 5}, {Pawn, E2, 2}} {
		if got := bits.OnesCount64(Attacks(c.t, White, c.s, occ)); got != c.want {
			t.Errorf("%v on %v attacks %d squares, want %d", c.t, c.s, got, c.want)
		}
	}
}
