// Package movetext holds what a game record says beside its main line:
// comments, NAGs and variations (recursive annotation variations, PGN
// §8.2.5). replay validates them and builds these values, index stores
// them and cmd/xqdb writes them back as PGN; the readers' raw tokens
// (importer/record) stay on the other side of replay.
//
//	file          what
//	movetext.go   Note, Line and Kind; NAG glyphs
package movetext

import "github.com/xqdb/xqdb/engine"

// Kind says what a Note is.
type Kind uint8

const (
	// Comment is a comment: PGN "{…}" or ";…", XQF and DhtmlXQ comments.
	Comment Kind = iota + 1
	// NAG is a numeric annotation glyph: PGN "$n", or a move suffix
	// ("!", "?!", …) read as its NAG.
	NAG
	// Variation is an alternative line replacing a move of its line.
	Variation
)

// Note is one annotation of a line.
type Note struct {
	// At is how many of its line's moves precede it: 0 before the first
	// move (a game's opening comment), i after the i-th. A Variation
	// replaces move At (1-based), so its At is at least 1.
	At   int
	Kind Kind
	// Text is a Comment's text as written, without its braces.
	Text string
	// NAG is a NAG's number (PGN §10: 1 "!", 2 "?", 14 "+=", …).
	NAG uint8
	// Line holds a Variation's moves and notes.
	Line *Line
}

// Line is a variation: its moves from the position before the move it
// replaces, and its own notes (nested variations among them).
type Line struct {
	Moves []engine.Move
	Notes []Note
}

// MaxDepth bounds how deeply variations nest, in reading and in stored
// records alike (the readers' record.MaxDepth is the same).
const MaxDepth = 1000

// SuffixNAG returns the NAG of a move suffix annotation (PGN §8.2.3.8:
// "!" 1, "?" 2, "!!" 3, "??" 4, "!?" 5, "?!" 6) and false for anything
// else.
func SuffixNAG(s string) (uint8, bool) {
	switch s {
	case "!":
		return 1, true
	case "?":
		return 2, true
	case "!!":
		return 3, true
	case "??":
		return 4, true
	case "!?":
		return 5, true
	case "?!":
		return 6, true
	}
	return 0, false
}
