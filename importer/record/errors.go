package record

import (
	"errors"
	"fmt"
)

// Sentinel reasons carried by ParseError. Test them with errors.Is; the
// wrapping text says which format and where (e.g. "pgn: unterminated tag").
var (
	// ErrUnterminatedTag is returned when a tag pair is not closed on its
	// line (missing quote or bracket). The record is still returned, with
	// the tag value read up to the end of the line.
	ErrUnterminatedTag = errors.New("unterminated tag")
	// ErrUnterminatedComment is returned when a brace comment is still
	// open at the end of the record.
	ErrUnterminatedComment = errors.New("unterminated comment")
	// ErrUnbalancedVariation is returned when a record ends inside a
	// variation or closes one that was never opened.
	ErrUnbalancedVariation = errors.New("unbalanced variation")
	// ErrTooDeep is returned when variations nest deeper than MaxDepth.
	ErrTooDeep = errors.New("variations nested too deep")
	// ErrTagTooLong is returned when a tag name or value exceeds
	// MaxTagLen bytes; the value is cut there.
	ErrTagTooLong = errors.New("tag too long")
	// ErrRecordTooLarge is returned when a record exceeds the reader's
	// size limit. Its bytes are skipped up to the next record, which is
	// read normally.
	ErrRecordTooLarge = errors.New("record too large")
	// ErrUnsupportedFormat is returned for files of a known record format
	// that xqdb does not read (.cbl, .cbr, .mxq, …) and for binary data
	// that no reader recognises.
	ErrUnsupportedFormat = errors.New("unsupported format")
	// ErrBadMagic is returned when a file announced as XQF does not start
	// with the XQ magic.
	ErrBadMagic = errors.New("bad magic")
	// ErrTruncated is returned when a binary record or a DhtmlXQ block
	// ends before its announced content.
	ErrTruncated = errors.New("truncated")
	// ErrBadSquare is returned when a move or piece square is outside the
	// board.
	ErrBadSquare = errors.New("square out of range")
	// ErrNotAGame is returned for a record that holds no game by its
	// format's own account, such as the section titles of a CCBridge
	// library (an empty board and no moves). Reading goes on.
	ErrNotAGame = errors.New("not a game")
	// ErrBadValue is returned when a field holds a value the format does
	// not allow (odd-length move list, non-digit square, …).
	ErrBadValue = errors.New("bad value")
)

// Limits shared by the readers; they bound memory on hostile input.
const (
	// MaxTagLen is the longest tag name or value kept, in bytes.
	MaxTagLen = 64 << 10
	// MaxTags is the most tags kept in one record; more make the record
	// ErrRecordTooLarge.
	MaxTags = 4096
	// MaxDepth is the deepest variation nesting kept.
	MaxDepth = 1000
	// DefaultMaxRecordSize is the default limit of one record's bytes.
	DefaultMaxRecordSize = 32 << 20
)

// ParseError reports a problem with one record. It does not stop reading:
// the next call to Next continues with the following record. When a
// reader returns a ParseError together with a non-nil record, the record
// holds what could be read.
type ParseError struct {
	// Source is the record the error belongs to (Game 0 when it concerns
	// the file as a whole).
	Source Source
	// Line and Offset locate the problem itself when known (0 otherwise).
	Line   int
	Offset int64
	// Err is the reason, wrapping one of the sentinel errors.
	Err error
}

// Error formats the error as "file:line: game N: reason".
func (e *ParseError) Error() string {
	line := e.Line
	if line == 0 {
		line = e.Source.Line
	}
	loc := e.Source.File
	if line > 0 {
		loc = fmt.Sprintf("%s:%d", loc, line)
	} else if e.Offset > 0 {
		loc = fmt.Sprintf("%s@%d", loc, e.Offset)
	}
	if e.Source.Game > 0 {
		return fmt.Sprintf("%s: game %d: %v", loc, e.Source.Game, e.Err)
	}
	return fmt.Sprintf("%s: %v", loc, e.Err)
}

// Unwrap returns the reason.
func (e *ParseError) Unwrap() error { return e.Err }

// ReadError is an I/O error that ends a file early (a truncated or corrupt
// gzip stream, a failing disk) and where it struck: the record being read
// then, which is lost (Cut), or the place after the last complete one.
// Unlike a ParseError it ends the file.
type ReadError struct {
	Source Source // the cut record, or Game = the next record's index
	Cut    bool
	Err    error
}

// Error formats the error as "file:line: game N is cut off: reason" (or
// "file:line: after game N: reason").
func (e *ReadError) Error() string {
	loc := e.Source.File
	if e.Source.Line > 0 {
		loc = fmt.Sprintf("%s:%d", loc, e.Source.Line)
	}
	if e.Cut {
		return fmt.Sprintf("%s: game %d is cut off: %v", loc, e.Source.Game, e.Err)
	}
	return fmt.Sprintf("%s: after game %d: %v", loc, e.Source.Game-1, e.Err)
}

// Unwrap returns the I/O error.
func (e *ReadError) Unwrap() error { return e.Err }
