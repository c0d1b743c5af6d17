package importer

import "github.com/xqdb/xqdb/importer/record"

// The record types live in the leaf package record so that the format
// readers (pgn, xqf, dhtmlxq) can share them while this package imports
// those readers. These aliases are the same types.
type (
	// Record is one game record as read; see record.Record.
	Record = record.Record
	// Source says where a record came from.
	Source = record.Source
	// Tag is one name/value pair.
	Tag = record.Tag
	// Token is one movetext element, a span of Record.Text.
	Token = record.Token
	// Kind says what a Token is.
	Kind = record.Kind
	// ParseError reports a problem with one record; reading goes on.
	ParseError = record.ParseError
	// ReadError reports an I/O error that ends a file, and where.
	ReadError = record.ReadError
)

// Token kinds.
const (
	Move           = record.Move
	MoveNumber     = record.MoveNumber
	Comment        = record.Comment
	LineComment    = record.LineComment
	NAG            = record.NAG
	VariationStart = record.VariationStart
	VariationEnd   = record.VariationEnd
	Result         = record.Result
)

// Sentinel reasons of ParseError; see the record package for when each
// is returned.
var (
	ErrUnterminatedTag     = record.ErrUnterminatedTag
	ErrUnterminatedComment = record.ErrUnterminatedComment
	ErrUnbalancedVariation = record.ErrUnbalancedVariation
	ErrTooDeep             = record.ErrTooDeep
	ErrTagTooLong          = record.ErrTagTooLong
	ErrRecordTooLarge      = record.ErrRecordTooLarge
	ErrUnsupportedFormat   = record.ErrUnsupportedFormat
	ErrBadMagic            = record.ErrBadMagic
	ErrTruncated           = record.ErrTruncated
	ErrBadSquare           = record.ErrBadSquare
	ErrBadValue            = record.ErrBadValue
	ErrNotAGame            = record.ErrNotAGame
)
