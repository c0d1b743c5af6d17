// Package replay turns a raw record into a validated game: every move
// checked through the rules engine, a key per position, and the final
// status — or a GameError that says exactly where and why the record is
// wrong (file, game, offset, line, ply, move text, reason).
//
//	file        what
//	errors.go   GameError, the sentinel reasons and their report kinds
//	replay.go   Replayer: game and notation detection, the move loop
package replay
