package search

import "github.com/xqdb/xqdb/engine"

// board is what the search needs of a game. Each game has one
// implementation over its concrete position type (xiangqi.go, chess.go);
// none of the methods allocates.
type board interface {
	key() uint64
	side() engine.Color
	inCheck() bool
	// moves appends the legal moves; captures the legal captures (and
	// promotions) alone, for the quiescence search.
	moves(dst []engine.Move) []engine.Move
	captures(dst []engine.Move) []engine.Move
	doMove(m engine.Move)
	undoMove()
	doNull()
	undoNull()
	// evaluate scores the position for the side to move, in centipawns
	// (a Xiangqi soldier before the river is 100).
	evaluate() int
	// victim is the value m captures (a promotion's gain included), 0 for a
	// quiet move; attacker is the value of the piece that moves.
	victim(m engine.Move) int
	attacker(m engine.Move) int
	// see is the static exchange evaluation of m: the material it wins
	// (negative: loses) if both sides go on capturing on its destination,
	// 0 for a quiet move that lands safely.
	see(m engine.Move) int
	// to is m's destination square.
	to(m engine.Move) int
	// noMoves scores a position without a legal move: a loss in Xiangqi
	// (RULES X12), mate or a stalemate draw in chess (RULES C4).
	noMoves(ply int, inCheck bool) int
	// canNull says whether a null move is sound here: the side to move has
	// pieces that keep zugzwang unlikely.
	canNull() bool
	// rule scores the position by the rules over its history (repetition,
	// perpetual check or chase, move limits), or reports false when none
	// applies. rootPly is the history length at the search's root.
	rule(ply, rootPly int) (int, bool)
	// historyLen is the number of moves made on the position.
	historyLen() int
	// startSearch is told that a search starts at the bound position, to
	// learn what the rules need of the history before the root.
	startSearch()
}
