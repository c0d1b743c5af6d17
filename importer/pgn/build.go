package pgn

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/importer/record"
	"github.com/xqdb/xqdb/importer/textenc"
)

// builder holds the buffers finish reuses from record to record.
type builder struct {
	text  []byte
	tags  record.TagBuilder
	marks []*int32
}

// sniff looks at the start of the stream once: a UTF-8 BOM is skipped, a
// UTF-16 stream is converted to UTF-8 from here on, and a double-byte
// encoded file (GBK, Big5) switches the lexer to pairing bytes.
func (r *Reader) sniff() {
	r.sniffd = true
	b := r.buf[:r.n]
	if len(b) >= 2 && (b[0] == 0xFF && b[1] == 0xFE || b[0] == 0xFE && b[1] == 0xFF) {
		r.utf16 = "utf-16le"
		if b[0] == 0xFE {
			r.utf16 = "utf-16be"
		}
		head := append([]byte(nil), b...)
		dec := unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder()
		r.src = transform.NewReader(io.MultiReader(bytes.NewReader(head), r.src), dec)
		r.n, r.eof = 0, false
		r.fill()
		b = r.buf[:r.n]
	}
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		r.pos = 3
		r.lx.lineStart = 3
	}
	prefix := b
	if len(prefix) > sniffSize {
		prefix = prefix[:sniffSize]
	}
	if r.Encoding != textenc.Auto {
		r.dbcs, r.prior = r.Encoding.IsDBCS(), r.Encoding
	} else if !textenc.ValidUTF8Prefix(prefix) {
		if e := textenc.Detect(prefix, textenc.UTF8); e.IsDBCS() {
			r.dbcs = true
			r.prior = e
		}
	}
}

// closeAtEOF ends the record still open when the stream ends. It reports
// false when there is nothing worth returning (a comment after the last
// result, with no moves).
func (r *Reader) closeAtEOF() bool {
	lx := &r.lx
	if lx.inComment {
		r.closeComment(r.n, true)
	}
	keep := !lx.tentative
	lx.state = stBetween
	return keep
}

// finish turns the lexed record into a record.Record.
func (r *Reader) finish() (*record.Record, error) {
	lx := &r.lx
	r.games++
	src := record.Source{File: r.name, Game: r.games, Offset: lx.recOffset, Line: lx.recLine}
	if int(lx.contentEnd) > r.maxRecord() {
		lx.tooLarge = true // opened inside a line longer than the limit
	}
	if lx.tooLarge {
		err := fmt.Errorf("pgn: %w (limit %d bytes)", record.ErrRecordTooLarge, r.maxRecord())
		if r.tooManyTags {
			err = fmt.Errorf("pgn: %w (more than %d tags)", record.ErrRecordTooLarge, record.MaxTags)
		}
		if r.tooManyElems {
			err = fmt.Errorf("pgn: %w (more than %d movetext elements)", record.ErrRecordTooLarge, r.maxElements())
		}
		r.tooManyTags, r.tooManyElems = false, false
		return nil, &record.ParseError{Source: src, Err: err}
	}
	if lx.depth > 0 {
		r.fail(fmt.Errorf("pgn: %w: %d variation(s) not closed", record.ErrUnbalancedVariation, lx.depth), lx.recStart+lx.contentEnd)
	}
	// Raw runs to the end of the record's last line.
	end := lx.recStart + lx.contentEnd
	for e := end; e < r.n; e++ {
		c := r.buf[e]
		if c == '\n' {
			end = e + 1
			break
		}
		if c != ' ' && c != '\t' && c != '\r' && c != 0 {
			break
		}
	}
	raw := r.buf[lx.recStart:end]

	rec := r.rec
	if rec == nil || !r.ReuseRecord {
		// A fresh record gets its slices at their final size at once.
		rec = &record.Record{Tags: make([]record.Tag, 0, len(lx.tags)), Moves: make([]record.Token, 0, lx.moves)}
		if r.ReuseRecord {
			r.rec = rec
		}
	}
	rec.Reset()
	rec.Source = src
	rec.Format = "pgn"

	enc := textenc.UTF8
	if r.Encoding != textenc.Auto {
		enc = r.Encoding
	} else if hasHigh(raw) && !utf8.Valid(raw) {
		enc = textenc.Detect(raw, r.prior)
		if enc.IsDBCS() {
			r.prior = enc
		}
	}
	rec.Encoding = enc.String()
	if r.utf16 != "" {
		rec.Encoding = r.utf16
	}
	text := raw
	if enc != textenc.UTF8 {
		text = r.convert(raw, enc)
	}
	r.buildTags(rec, text)

	if r.ReuseRecord {
		rec.Raw = raw
		rec.Text = text
		rec.Elements = lx.elems
	} else {
		rec.Raw = append([]byte(nil), raw...)
		if enc == textenc.UTF8 {
			rec.Text = rec.Raw
		} else {
			rec.Text = append([]byte(nil), text...)
		}
		rec.Elements = append([]record.Token(nil), lx.elems...)
	}
	for _, t := range rec.Elements {
		switch {
		case t.Depth != 0:
		case t.Kind == record.Move:
			rec.Moves = append(rec.Moves, t)
		case t.Kind == record.Result:
			rec.Result = resultText(rec.Text[t.Start:t.End])
		}
	}
	record.Detect(rec)
	if fen, ok := rec.TagValue("FEN"); ok {
		if rec.Game == engine.Xiangqi && record.FENRanks(fen) == 10 {
			rec.FEN = record.NormalizeXiangqiFEN(fen)
		} else {
			rec.FEN = strings.TrimSpace(fen)
		}
	}
	if lx.prob.err != nil {
		return rec, &record.ParseError{Source: src, Line: lx.prob.line, Offset: lx.prob.offset, Err: lx.prob.err}
	}
	return rec, nil
}

// convert decodes raw from enc into the builder's text buffer and moves
// every tag and element span from raw positions to text positions. The
// spans' ends lie on character boundaries (the lexer paired the bytes the
// way textenc does), so each segment decodes on its own.
func (r *Reader) convert(raw []byte, enc textenc.Encoding) []byte {
	lx := &r.lx
	b := &r.b
	b.marks = b.marks[:0]
	ti, ei := 0, 0
	for ti < len(lx.tags) || ei < len(lx.elems) {
		if ti < len(lx.tags) && (ei == len(lx.elems) || lx.tags[ti].name0 <= lx.elems[ei].Start) {
			t := &lx.tags[ti]
			b.marks = append(b.marks, &t.name0, &t.name1, &t.val0, &t.val1)
			ti++
			continue
		}
		e := &lx.elems[ei]
		b.marks = append(b.marks, &e.Start, &e.End)
		ei++
	}
	text := b.text[:0]
	prev := int32(0)
	for _, m := range b.marks {
		at := *m
		if at < prev { // never for spans the lexer made; keep monotone anyway
			at = prev
		}
		text = enc.AppendUTF8(text, raw[prev:at])
		prev = at
		*m = int32(len(text))
	}
	text = enc.AppendUTF8(text, raw[prev:])
	b.text = text
	return text
}

// buildTags fills rec.Tags from the lexed spans over text.
func (r *Reader) buildTags(rec *record.Record, text []byte) {
	tb := &r.b.tags
	tb.Reset()
	for _, t := range r.lx.tags {
		v := text[t.val0:t.val1]
		if t.escaped {
			tb.AddFunc(text[t.name0:t.name1], func(dst []byte) []byte { return appendUnescaped(dst, v) })
		} else {
			tb.AddFunc(text[t.name0:t.name1], func(dst []byte) []byte { return append(dst, v...) })
		}
	}
	rec.Tags = tb.AppendTo(rec.Tags)
}

// appendUnescaped appends v with PGN's \" and \\ escapes resolved.
func appendUnescaped(dst, v []byte) []byte {
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) && (v[i+1] == '"' || v[i+1] == '\\') {
			i++
		}
		dst = append(dst, v[i])
	}
	return dst
}

// hasHigh reports whether b has a byte ≥ 0x80, eight bytes at a time.
func hasHigh(b []byte) bool {
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return true
		}
		b = b[8:]
	}
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}
