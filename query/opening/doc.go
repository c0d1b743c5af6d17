// Package opening names the opening of a game: the ECO code of a chess
// game and the ECCO code of a Xiangqi game, with the opening's name. It
// holds the tables as generated data and knows nothing of storage.
//
// Chess is classified by position (eco.go): every line of lichess's CC0
// opening table (lichess-org/chess-openings) is replayed through
// engine/chess and keyed with xqdb's key (Polyglot's), and a game gets the
// name of the deepest named position it reaches, so transpositions land
// on the same name and the side to move counts.
//
// Xiangqi is classified by move order (ecco.go), as xqbase's classifier
// does from the first 20 plies: a game whose Red opens on files a–d is
// mirrored first, then a decision tree learned from the 29,023 labelled
// games of the CCPD (CC BY 4.0, ecco_learn.go) answers. The tree asks
// "which move at ply N" (the longest known prefix) and "did this side play
// this move within its first N moves" (what generalises to move orders
// the labels never played). A game from any other start is A00.
//
//	file            what
//	opening.go      Opening, Classify for both games
//	eco.go          the chess table: load, position lookup
//	ecco.go         the Xiangqi tree: format, mirroring, lookup; ECCO names
//	ecco_learn.go   reading the labelled games, growing the tree
//	gen.go          rebuilds eco.tsv.gz, ecco_tree.txt and ecco_names.tsv
//	eco.tsv.gz      lichess's a.tsv–e.tsv, concatenated (CC0)
//	ecco_tree.txt   the learned tree (derived from CCPD, CC BY 4.0)
//	ecco_names.tsv  ECCO code → opening, variation (xqbase's names, via vschess)
package opening

//go:generate go run gen.go -shared ../../../shared/data
