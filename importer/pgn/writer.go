package pgn

import (
	"bufio"
	"bytes"
	"io"
	"strings"

	"github.com/xqdb/xqdb/importer/record"
)

// lineWidth is where movetext lines wrap (the PGN export format says 80).
const lineWidth = 79

// Writer writes games as UTF-8 PGN, one after another, a blank line apart.
type Writer struct {
	w   *bufio.Writer
	col int
	// open holds the "(" of variations begun but not yet written: they
	// are glued to the next word.
	open int
}

// NewWriter returns a Writer on w; call Flush when done.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriterSize(w, 1<<16)} }

// Reset discards buffered data and writes to dst from now on, so one
// Writer can format many games into buffers.
func (w *Writer) Reset(dst io.Writer) {
	w.w.Reset(dst)
	w.col = 0
}

// Flush writes any buffered data.
func (w *Writer) Flush() error { return w.w.Flush() }

// WriteTags writes a tag section, escaping quotes and backslashes.
func (w *Writer) WriteTags(tags []record.Tag) {
	for _, t := range tags {
		w.w.WriteByte('[')
		w.w.WriteString(t.Name)
		w.w.WriteString(` "`)
		for i := 0; i < len(t.Value); i++ {
			if c := t.Value[i]; c == '"' || c == '\\' {
				w.w.WriteByte('\\')
			}
			w.w.WriteByte(t.Value[i])
		}
		w.w.WriteString("\"]\n")
	}
	w.w.WriteByte('\n')
	w.col = 0
}

// Word writes one movetext word, wrapping lines.
func (w *Writer) Word(s string) {
	w.space(w.open + len(s))
	w.writeOpen()
	w.w.WriteString(s)
	w.col += len(s)
}

// WordBytes is Word for a byte slice (no conversion, no allocation).
func (w *Writer) WordBytes(b []byte) {
	w.space(w.open + len(b))
	w.writeOpen()
	w.w.Write(b)
	w.col += len(b)
}

func (w *Writer) writeOpen() {
	for ; w.open > 0; w.open-- {
		w.w.WriteByte('(')
		w.col++
	}
}

// StartVariation begins a variation: its "(" is glued to the next word,
// as pgn-extract writes them ("(1... c5").
func (w *Writer) StartVariation() { w.open++ }

// EndVariation ends a variation: its ")" is glued to the last word.
func (w *Writer) EndVariation() {
	if w.open > 0 { // nothing was written since it began
		w.open--
		w.Word("()")
		return
	}
	w.w.WriteByte(')')
	w.col++
}

// space starts a new line or writes a space before a word of n bytes.
func (w *Writer) space(n int) {
	if w.col > 0 && w.col+1+n > lineWidth {
		w.w.WriteByte('\n')
		w.col = 0
	}
	if w.col > 0 {
		w.w.WriteByte(' ')
		w.col++
	}
}

// Comment writes a brace comment, word by word so that long comments
// wrap like the moves (PGN export format: lines of at most 80
// characters); line breaks inside become spaces. Braces inside become
// parentheses: PGN comments cannot nest.
func (w *Writer) Comment(s string) {
	s = strings.NewReplacer("{", "(", "}", ")").Replace(s)
	words := strings.Fields(s)
	switch len(words) {
	case 0:
		w.Word("{}")
	case 1:
		w.Word("{" + words[0] + "}")
	default:
		w.Word("{" + words[0])
		for _, x := range words[1 : len(words)-1] {
			w.Word(x)
		}
		w.Word(words[len(words)-1] + "}")
	}
}

// EndGame writes the termination marker and the blank line after a game.
func (w *Writer) EndGame(result string) {
	if result == "" {
		result = "*"
	}
	w.Word(result)
	w.w.WriteString("\n\n")
	w.col = 0
}

// WriteRecord writes a record as read: its tags, then its movetext
// re-emitted element by element (moves as written, comments, NAGs,
// variations), in UTF-8. extra tags are appended to the tag section.
func (w *Writer) WriteRecord(rec *record.Record, extra ...record.Tag) {
	tags := rec.Tags
	if len(extra) > 0 {
		tags = append(append([]record.Tag(nil), rec.Tags...), extra...)
	}
	w.WriteTags(tags)
	result := ""
	for _, e := range rec.Elements {
		text := rec.TokenText(e)
		switch e.Kind {
		case record.Comment, record.LineComment:
			w.Comment(string(text))
		case record.Result:
			if e.Depth == 0 {
				result = string(text)
			}
		case record.VariationStart:
			w.Word("(")
		case record.VariationEnd:
			w.Word(")")
		default:
			w.WordBytes(text)
		}
	}
	if result == "" {
		result = rec.Result
	}
	if result == "" {
		result = rec.Tag("Result")
	}
	w.EndGame(result)
}

// WriteRaw writes bytes as they are, then a blank line unless they end
// with one already.
func (w *Writer) WriteRaw(b []byte) {
	w.w.Write(b)
	switch {
	case bytes.HasSuffix(b, []byte("\n\n")):
	case bytes.HasSuffix(b, []byte("\n")):
		w.w.WriteByte('\n')
	default:
		w.w.WriteString("\n\n")
	}
	w.col = 0
}
