// Package record defines the raw game record that every importer reader
// yields, and the errors they report. It knows nothing of the rules: a
// record holds tags, a start position and move tokens exactly as written.
//
// Package importer re-exports these types (importer.Record is
// record.Record); the format packages (importer/pgn, importer/xqf,
// importer/dhtmlxq) import this leaf package so that importer can import
// them in turn without a cycle.
//
//	file        what
//	record.go   Record, Source, Tag, Token, Kind and their accessors
//	errors.go   ParseError and the sentinel errors
//	detect.go   game and notation detection from tags, FEN and move shapes
//	fen.go      FEN shape checks and Xiangqi FEN normalisation
//	tags.go     TagBuilder: a record's tags sharing one string
package record

import (
	"strings"

	"github.com/xqdb/xqdb/engine"
)

// Source says where a record came from.
type Source struct {
	// File is the name given to the reader (a path, or an archive member).
	File string
	// Game is the 1-based index of the record in its file.
	Game int
	// Offset is the byte offset of the record's first byte in the file
	// (after gzip decompression, if any).
	Offset int64
	// Line is the 1-based line of the record's first byte (0 for binary
	// formats such as XQF).
	Line int
}

// Tag is one name/value pair as written (PGN tag, XQF header field,
// DhtmlXQ metadata mapped to its PGN name).
type Tag struct {
	Name, Value string
}

// Kind says what a movetext element is.
type Kind uint8

const (
	// Move is a move token exactly as written (SAN, ICCS, WXF, Chinese…).
	Move Kind = iota + 1
	// MoveNumber is a move number indication such as "12." or "3...".
	MoveNumber
	// Comment is a brace comment; the span excludes the braces. XQF and
	// DhtmlXQ comments are Comments too.
	Comment
	// LineComment is a ";" comment; the span runs to the end of its line
	// and excludes the ";".
	LineComment
	// NAG is a numeric annotation glyph ("$14") or a free-standing
	// suffix annotation ("!?").
	NAG
	// VariationStart opens a variation: "(".
	VariationStart
	// VariationEnd closes a variation: ")".
	VariationEnd
	// Result is a game termination marker: "1-0", "0-1", "1/2-1/2", "*".
	Result
)

var kindNames = [...]string{
	Move: "move", MoveNumber: "number", Comment: "comment", LineComment: "line-comment",
	NAG: "nag", VariationStart: "(", VariationEnd: ")", Result: "result",
}

// String returns a short name of the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "kind?"
}

// Token is one movetext element: a span of Record.Text plus where it stood
// in the file. Tokens are small values so that a record's move list is one
// slice, reused across records when the reader is asked to.
type Token struct {
	Kind Kind
	// Depth is the variation nesting depth: 0 on the main line, 1 inside a
	// first-level variation. VariationStart and VariationEnd carry the
	// depth of the variation they open and close (≥ 1).
	Depth uint16
	// Start and End delimit the element's text in Record.Text.
	Start, End int32
	// Line is the 1-based line of the element in the file (0 for binary
	// formats).
	Line int32
	// Offset is the byte offset of the element in the file.
	Offset int64
}

// Record is one game record as read, before any move is checked.
//
// Readers that are asked to reuse records (ReuseRecord) return the same
// *Record from every Next call, so its slices and strings stay valid only
// until the next call; copy what you keep.
type Record struct {
	Source Source
	// Format is the reader that produced the record: "pgn", "xqf",
	// "dhtmlxq" or "cbl" (CCBridge).
	Format string
	// Game is the game detected from tags, FEN shape or move shapes;
	// UnknownGame when nothing tells.
	Game engine.Game
	// Variant is the PGN Variant tag as written ("" when absent). A
	// non-standard chess variant (crazyhouse, chess960, …) is reported by
	// IsVariant so callers can reject it cleanly.
	Variant string
	// Encoding is the character encoding the record was decoded from:
	// "utf-8", "gbk", "big5", "windows-1252", "cp437" or
	// "utf-8+windows-1252" (valid UTF-8 with stray single bytes).
	Encoding string
	// Tags are the record's tags in file order, names as written.
	Tags []Tag
	// FEN is the start position when the record gives one ("" for the
	// standard start). Xiangqi FENs are normalised to the xqbase letters
	// (KABNRCP) with all six fields; chess FENs are kept as written.
	FEN string
	// Result is the termination marker found in the movetext ("1-0",
	// "0-1", "1/2-1/2", "*"), "" when there is none. The Result tag is
	// separate: Tag("Result").
	Result string
	// NotationHint is the move notation announced by the record: ICCS or
	// WXF from a PGN Format tag, ICCS for XQF and DhtmlXQ; engine.Auto
	// otherwise.
	NotationHint engine.Notation
	// Moves are the main-line move tokens in order: Moves[i] is ply i+1.
	Moves []Token
	// Elements is the whole movetext in order (move numbers, moves,
	// comments, NAGs, variations, result), enough for a PGN writer to
	// re-emit the record.
	Elements []Token
	// Raw is the record's bytes exactly as they stood in the file (after
	// gzip), for writing rejected records as they were.
	Raw []byte
	// Text is the record converted to UTF-8; every Token spans it. For
	// UTF-8 input it is Raw itself. For XQF and DhtmlXQ it is a generated
	// movetext (ICCS moves, comments) that the Elements index.
	Text []byte
}

// Reset empties r for reuse, keeping the capacity of its slices.
func (r *Record) Reset() {
	*r = Record{
		Tags:     r.Tags[:0],
		Moves:    r.Moves[:0],
		Elements: r.Elements[:0],
		Raw:      r.Raw[:0],
		Text:     r.Text[:0],
	}
}

// TagValue returns the value of the first tag whose name matches name
// case-insensitively (xqbase readers match tags that way, NOTATIONS §6),
// and whether there was one.
func (r *Record) TagValue(name string) (string, bool) {
	for _, t := range r.Tags {
		if strings.EqualFold(t.Name, name) {
			return t.Value, true
		}
	}
	return "", false
}

// Tag returns the value of the named tag (case-insensitive), "" when absent.
func (r *Record) Tag(name string) string {
	v, _ := r.TagValue(name)
	return v
}

// TokenText returns the text of t, which must belong to r.
func (r *Record) TokenText(t Token) []byte { return r.Text[t.Start:t.End] }

// MoveText returns the text of main-line move i (ply i+1).
func (r *Record) MoveText(i int) []byte {
	m := r.Moves[i]
	return r.Text[m.Start:m.End]
}

// IsVariant reports whether the record names a chess variant whose rules
// differ from standard chess or Xiangqi (PGN Variant tag such as
// "crazyhouse", "chess960", "antichess"). Callers that replay standard
// rules reject such records.
func (r *Record) IsVariant() bool {
	if r.Variant == "" {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(r.Variant)) {
	case "standard", "chess", "normal", "from position", "fromposition", "xiangqi",
		"chinese chess", "chinesechess", "cchess":
		return false
	}
	return true
}
