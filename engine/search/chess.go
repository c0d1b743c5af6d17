package search

import (
	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/chess"
)

// chessBoard is the chess adapter.
type chessBoard struct {
	p *chess.Position
}

func (b *chessBoard) key() uint64                              { return b.p.Key() }
func (b *chessBoard) side() engine.Color                       { return b.p.SideToMove() }
func (b *chessBoard) inCheck() bool                            { return b.p.InCheck() }
func (b *chessBoard) moves(dst []engine.Move) []engine.Move    { return b.p.AppendLegalMoves(dst) }
func (b *chessBoard) captures(dst []engine.Move) []engine.Move { return b.p.AppendLegalCaptures(dst) }
func (b *chessBoard) doMove(m engine.Move)                     { b.p.Make(m) }
func (b *chessBoard) undoMove()                                { b.p.Unmake() }
func (b *chessBoard) doNull()                                  { b.p.MakeNull() }
func (b *chessBoard) undoNull()                                { b.p.UnmakeNull() }
func (b *chessBoard) historyLen() int                          { return b.p.Ply() }
func (b *chessBoard) evaluate() int                            { return evalChess(b.p) }
func (b *chessBoard) startSearch()                             {}

// chessOrderValue ranks victims and attackers for MVV-LVA.
var chessOrderValue = [8]int{chess.Pawn: 100, chess.Knight: 320, chess.Bishop: 330, chess.Rook: 500, chess.Queen: 950, chess.King: 2000}

func (b *chessBoard) victim(m engine.Move) int {
	v := chessOrderValue[b.p.PieceAt(chess.To(m)).Type()]
	if pr := chess.Promotion(m); pr != chess.NoPieceType {
		v += chessOrderValue[pr] - 100
	} else if v == 0 && chess.To(m) == b.p.EPSquare() && b.p.PieceAt(chess.From(m)).Type() == chess.Pawn {
		v = 100 // en passant
	}
	return v
}

// see: chess has no exchange evaluator here, so a capture counts its
// victim and a quiet move 0, and nothing is ordered last or pruned by it;
// the quiescence search keeps its piece-value test instead (qsearch).
func (b *chessBoard) see(m engine.Move) int { return b.victim(m) }

func (b *chessBoard) to(m engine.Move) int { return int(chess.To(m)) }

func (b *chessBoard) attacker(m engine.Move) int {
	return chessOrderValue[b.p.PieceAt(chess.From(m)).Type()]
}

// noMoves: RULES C4, checkmate loses and stalemate draws.
func (b *chessBoard) noMoves(ply int, inCheck bool) int {
	if inCheck {
		return -Mate + ply
	}
	return 0
}

// canNull: with pawns and king alone zugzwang is common; no null move.
func (b *chessBoard) canNull() bool {
	c := b.p.SideToMove()
	return b.p.Occupied(c)&^(b.p.Pieces(chess.NewPiece(c, chess.Pawn))|b.p.Pieces(chess.NewPiece(c, chess.King))) != 0
}

// rule applies RULES C5 in the search: the fifty-move rule, a dead
// position, and repetition. A position repeated inside the search tree
// draws (the side repeating could repeat again); one that occurred before
// the root must have occurred twice (a threefold repetition).
func (b *chessBoard) rule(ply, rootPly int) (int, bool) {
	p := b.p
	hm := p.HalfmoveClock()
	if hm >= 100 || p.InsufficientMaterial() {
		return 0, true
	}
	n := p.Ply()
	w := min(hm, n)
	key := p.Key()
	count := 0
	for i := n - 4; i >= n-w; i -= 2 {
		if p.HistoryKey(i) == key {
			if i >= rootPly {
				return 0, true
			}
			if count++; count >= 2 {
				return 0, true
			}
		}
	}
	return 0, false
}
