package cbl

import (
	"encoding/binary"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/xqdb/xqdb/importer/internal/board"
)

// Record layout (see the package comment).
const (
	offTitle  = 0x0B4
	offResult = 0x81C
	offSide   = 0x840
	offBoard  = 0x848
	offMoves  = 0x8A6
)

// textField is one fixed-size UTF-16LE field of a record and the tag it
// becomes. always marks the fields written even when empty, as the XQF
// reader writes its header's.
type textField struct {
	off, size int
	tag       string
	always    bool
}

// textFields are the record's text fields in the order they become tags.
var textFields = []textField{
	{0x2B4, 64, "Event", true},
	{0x2F4, 64, "Round", false},
	{0x374, 64, "Date", true},
	{0x3B4, 64, "Site", true},
	{0x434, 64, "Red", true},
	{0x474, 64, "RedTeam", false},
	{0x514, 64, "Black", true},
	{0x554, 64, "BlackTeam", false},
	{offTitle, 128, "Title", false},
	{0x134, 256, "Opening", false},
	{0x234, 64, "Source", false},
	{0x274, 64, "EventType", false},
	{0x334, 32, "Group", false},
	{0x354, 32, "Board", false},
	{0x3F4, 64, "TimeControl", false},
	{0x4B4, 64, "RedTime", false},
	{0x4F4, 32, "RedScore", false},
	{0x594, 64, "BlackTime", false},
	{0x5D4, 32, "BlackScore", false},
	{0x5F4, 64, "Referee", false},
	{0x634, 64, "Recorder", false},
	{0x674, 64, "Annotator", false},
	{0x6B4, 64, "AnnotatorEmail", false},
	{0x6F4, 64, "Author", false},
	{0x734, 64, "AuthorEmail", false},
	{0x774, 40, "Created", false},
	{0x7B4, 40, "Modified", false},
}

// results maps the result byte (0x81C) to a PGN result.
var results = [...]string{0: "*", 1: "1-0", 2: "0-1", 3: "1/2-1/2"}

// pieceLetters maps a board byte's low nibble to its FEN letter (Red's).
const pieceLetters = "?RNBAKCP"

// appendUTF16 appends the UTF-16LE text of b, up to its first NUL unit,
// as UTF-8. An odd last byte is dropped; an unpaired surrogate becomes
// U+FFFD.
func appendUTF16(dst, b []byte) []byte {
	for i := 0; i+1 < len(b); i += 2 {
		u := rune(binary.LittleEndian.Uint16(b[i:]))
		if u == 0 {
			break
		}
		if utf16.IsSurrogate(u) {
			if i+3 < len(b) {
				if r := utf16.DecodeRune(u, rune(binary.LittleEndian.Uint16(b[i+2:]))); r != utf8.RuneError {
					dst = utf8.AppendRune(dst, r)
					i += 2
					continue
				}
			}
			u = utf8.RuneError
		}
		dst = utf8.AppendRune(dst, u)
	}
	return dst
}

// field returns the text of a fixed field, white space trimmed
// (CCBridge indents titles to draw its tree: "    第一轮 …").
func field(data []byte, off, size int) []byte {
	var tmp [256]byte
	v := appendUTF16(tmp[:0], data[off:off+size])
	return []byte(strings.TrimSpace(string(v)))
}

// headerTags collects the fields as tags: Game, the text fields, Result.
func (p *parser) headerTags(data []byte) {
	p.tags.Add("Game", []byte("Chinese Chess"))
	for _, f := range textFields {
		v := field(data, f.off, f.size)
		if len(v) == 0 && !f.always {
			continue
		}
		p.tags.Add(f.tag, v)
	}
	res := "*"
	if r := data[offResult]; int(r) < len(results) {
		res = results[r]
	}
	p.tags.Add("Result", []byte(res))
}

// readBoard places the board's pieces on b and returns how many there
// are, and the first square holding a byte that is no piece (−1 if none).
func readBoard(data []byte, b *board.Board) (pieces, bad int) {
	bad = -1
	for i, v := range data[offBoard : offBoard+90] {
		if v == 0 {
			continue
		}
		colour, kind := v>>4, v&0x0F
		if colour < 1 || colour > 2 || kind < 1 || kind > 7 {
			if bad < 0 {
				bad = i
			}
			continue
		}
		c := pieceLetters[kind]
		if colour == 2 {
			c += 'a' - 'A'
		}
		file, rank := i%9, 9-i/9
		b[file][rank] = c
		pieces++
	}
	return pieces, bad
}
