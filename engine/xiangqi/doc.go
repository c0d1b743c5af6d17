// Package xiangqi is the Xiangqi (Chinese chess, cờ tướng) rules engine:
// board, FEN, legal move generation, make/unmake, Zobrist keys, check and
// game status, left-right mirroring and the four move notations.
//
// The rules are RULES.md X1–X12 (digest of the user's documents in
// shared/seeds); each is cited where it is implemented and has a test named
// after it.
//
// Board: a 16×16 mailbox (ElephantEye-style) in which the 9×10 playing area
// sits at files 3–11, rows 3–12, surrounded by wall cells. A square is a
// uint8, so board lookups need no bounds checks, a horse jump or elephant
// step can never leave the array, and sliding stops at the first non-empty
// cell whether piece or wall. Pieces carry an identity (id 16–31 red, 32–47
// black, fixed slots per kind), which the chase rule needs to follow one
// piece through a repetition cycle.
//
//	file          what
//	board.go      squares, pieces, the Position type, accessors
//	fen.go        ParseFEN / FEN and the impossible-position checks
//	zobrist.go    the frozen Zobrist table (seeded generator) and key recompute
//	movegen.go    pseudo-legal generation per piece kind (X2–X9)
//	legal.go      check detection, legality (X10 flying general, X11), status (X12)
//	makemove.go   Make / Unmake with the undo stack
//	perft.go      Perft and Divide
//	mirror.go     left-right mirror of positions and moves
//	iccs.go       ICCS coordinates (h2e2, H2-E2)
//	notation*.go  WXF, Chinese, Vietnamese; detect.go: notation detection
//	referee*.go   game-end adjudication over a game's history (X12–X16)
//	chase.go      X13 what a chase is (seed 000 "đuổi quân")
//	material.go   X16 insufficient material
//	see.go        static exchange evaluation for a search (X2–X8 attacks)
package xiangqi
