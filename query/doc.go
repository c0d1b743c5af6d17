// Package query answers users' questions over a store: the move tree of a
// position (what was played next and how it scored), the games that reached
// a position, metadata searches, and their combinations, with Xiangqi
// mirror images folded in on request. It knows the index's API, not how
// the store lays out bytes.
//
//	file       what
//	tree.go    Tree: per-next-move statistics of a position
//	games.go   Games: game lists for a position and/or a metadata query
//	hits.go    gathering and filtering the games that reached a position
package query
