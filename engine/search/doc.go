// Package search is xqdb's game-playing engine for both games: iterative
// deepening alpha-beta (principal variation search) with aspiration windows
// and a quiescence search, a transposition table keyed by the position's
// Zobrist key, move ordering by hash move, captures by their static
// exchange (MVV-LVA among those that do not lose material, the losing ones
// after the quiet moves), killers and history, null-move pruning,
// late-move reductions, late-move, futility and exchange pruning, a check
// extension for checks that do not give up material, and an evaluation
// written for each game.
//
// The search runs on the concrete position types of engine/xiangqi and
// engine/chess through a small per-game adapter (board), so a node costs a
// few interface calls and no allocation: moves go into per-ply buffers, the
// principal variation into a triangular table, and everything else is
// preallocated by New.
//
// The rules are part of the search. In Xiangqi a repetition is judged by
// the referee (RULES X13, X14): the search asks engine/xiangqi's Referee
// what it would rule if the cycle went on, so it never walks into a
// perpetual check or chase it would lose, and takes a repetition draw only
// when the draw score (0) beats its alternatives, that is when behind. In
// chess a threefold repetition and the fifty-move rule draw (RULES C5).
//
//	file          what
//	search.go     Searcher, Limits, Info, Result: iterative deepening, limits
//	alphabeta.go  the PVS search, quiescence, move ordering
//	tt.go         the transposition table
//	board.go      the per-game adapter the search runs on
//	xiangqi.go    the Xiangqi adapter and its rules (referee verdicts)
//	evalxq.go     the Xiangqi evaluation
//	evalxq_king.go  its king danger: attacks on the palace's points
//	chess.go      the chess adapter and its rules
//	evalchess.go  the chess evaluation
package search
