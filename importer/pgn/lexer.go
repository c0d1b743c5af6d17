package pgn

import (
	"fmt"

	"github.com/xqdb/xqdb/importer/record"
	"github.com/xqdb/xqdb/importer/textenc"
)

// Byte classes for the lexer's first look at a byte.
const (
	clWord = iota
	clSpace
	clNewline
	clHigh
	clPercent
)

var class = func() (t [256]uint8) {
	for _, c := range []byte(" \t\r\x00\f\v") {
		t[c] = clSpace
	}
	t['\n'] = clNewline
	t['%'] = clPercent
	for c := 0x80; c < 0x100; c++ {
		t[c] = clHigh
	}
	return t
}()

// Lexer states: outside any record, in a record's tag section, in its
// movetext.
const (
	stBetween = iota
	stTags
	stMoves
)

// tagSpan is one lexed tag pair; positions are relative to the record's
// start so they survive buffer compaction.
type tagSpan struct {
	name0, name1, val0, val1 int32
	escaped                  bool // the value holds backslash escapes
}

// problem is the first defect found in the open record.
type problem struct {
	err    error
	line   int
	offset int64
}

// lexer is the state carried from line to line (and across buffer
// refills) while a record is lexed.
type lexer struct {
	state int
	// tentative marks a record opened by a comment outside any record: it
	// is kept only if moves follow (a comment after a result and before
	// the next tags is dropped with the text around it).
	tentative bool
	// tooLarge marks a record past MaxRecordSize: lexing goes on to find
	// its end, but nothing is kept.
	tooLarge bool

	recStart  int // buffer index of the record's first byte
	recLine   int
	recOffset int64

	inComment bool
	cmtStart  int // buffer index of the open comment's first content byte
	cmtLine   int32

	depth      int
	moves      int  // main-line moves so far
	blank      bool // a blank line since the last tag or token
	prevBlank  bool // the previous line was blank
	hasContent bool // the current line has a non-blank byte
	lineStart  int  // buffer index of the current line's first byte
	contentEnd int  // end of the record's last element, relative to recStart

	elems []record.Token
	tags  []tagSpan
	prob  problem
}

func (lx *lexer) open() bool { return lx.state != stBetween }

func (lx *lexer) shift(k int) {
	lx.recStart -= k
	lx.cmtStart -= k
	lx.lineStart -= k
}

// openRecord starts a record at buffer index p.
func (r *Reader) openRecord(p, state int) {
	lx := &r.lx
	lx.state = state
	lx.tentative = false
	lx.tooLarge = false
	lx.recStart = p
	lx.recLine = r.line
	lx.recOffset = r.base + int64(p)
	lx.inComment = false
	lx.depth = 0
	lx.moves = 0
	lx.blank = false
	lx.contentEnd = 0
	lx.elems = lx.elems[:0]
	lx.tags = lx.tags[:0]
	lx.prob = problem{}
}

// fail records the record's first defect.
func (r *Reader) fail(err error, p int) {
	if r.lx.prob.err == nil {
		r.lx.prob = problem{err: err, line: r.line, offset: r.base + int64(p)}
	}
}

// add appends a movetext element spanning buffer indexes [start, end).
func (r *Reader) add(k record.Kind, start, end int, line int) {
	lx := &r.lx
	if lx.tooLarge {
		return
	}
	if len(lx.elems) >= r.maxElements() {
		// Elements take more memory than their text: bound them too, so
		// a record of tiny moves costs no more than the record limit.
		lx.tooLarge, r.tooManyElems = true, true
		return
	}
	if r.MainLineOnly && (lx.depth != 0 || k != record.Move && k != record.Result) || r.NoMoveNumbers && k == record.MoveNumber {
		lx.contentEnd = end - lx.recStart
		return
	}
	d := lx.depth
	if d > 0xFFFF {
		d = 0xFFFF
	}
	lx.elems = append(lx.elems, record.Token{
		Kind:   k,
		Depth:  uint16(d),
		Start:  int32(start - lx.recStart),
		End:    int32(end - lx.recStart),
		Line:   int32(line),
		Offset: r.base + int64(start),
	})
	if k == record.Move && lx.depth == 0 {
		lx.moves++
	}
	lx.contentEnd = end - lx.recStart
}

// newline accounts for a consumed '\n' ending the current line.
func (r *Reader) newline(next int) {
	lx := &r.lx
	if !lx.hasContent {
		lx.blank = true
	}
	lx.prevBlank = !lx.hasContent
	lx.hasContent = false
	lx.lineStart = next
	r.line++
}

// skipLine consumes the rest of the line.
func (r *Reader) skipLine(lineEnd int) int {
	if lineEnd > 0 && r.buf[lineEnd-1] == '\n' {
		r.newline(lineEnd)
	}
	return lineEnd
}

// boundary ends the open record before buffer index p, where lexing will
// resume outside any record. It returns true for lexLine to pass on.
func (r *Reader) boundary(p int) bool {
	r.pos = p
	r.lx.state = stBetween
	return true
}

// lexLine lexes from r.pos to lineEnd (just past the line's '\n'). It
// returns true when a record has ended (it ends at contentEnd); r.pos is
// then where lexing resumes.
func (r *Reader) lexLine(lineEnd int) bool {
	lx := &r.lx
	buf := r.buf
	p := r.pos
	for p < lineEnd {
		if lx.inComment {
			if p == lx.lineStart && lx.prevBlank && lx.moves > 0 && r.tagLineAhead(p, lineEnd) {
				// A "{" never closed swallows the rest of the file
				// unless a tag line after a blank line ends it.
				r.closeComment(p, true)
				return r.boundary(p)
			}
			q := r.indexByteDBCS(p, lineEnd, '}')
			if q < 0 {
				for i := p; i < lineEnd; i++ {
					if !isSpace(r.buf[i]) {
						lx.hasContent = true
						break
					}
				}
				p = r.skipLine(lineEnd)
				continue
			}
			lx.hasContent = true
			r.closeComment(q, false)
			p = q + 1
			continue
		}
		c := buf[p]
		switch class[c] {
		case clNewline:
			p++
			r.newline(p)
			continue
		case clSpace:
			p++
			continue
		case clHigh:
			if c == 0xEF && p+2 < lineEnd && buf[p+1] == 0xBB && buf[p+2] == 0xBF && !r.dbcs {
				p += 3 // a BOM where files were concatenated
				continue
			}
			if r.isWideSpace(p, lineEnd) {
				p += r.wideSpaceLen()
				continue
			}
		case clPercent:
			if p == lx.lineStart {
				p = r.skipLine(lineEnd) // PGN §6 escape line
				continue
			}
		}
		contentBefore := lx.hasContent
		lx.hasContent = true
		switch c {
		case '[':
			switch {
			case lx.state == stMoves && !lx.tentative:
				return r.boundary(p)
			case lx.state == stBetween || lx.tentative:
				r.openRecord(p, stTags)
			}
			q, ok := r.lexTag(p, lineEnd)
			if !ok {
				return r.boundary(p) // a repeated tag section: next record
			}
			p = q
		case '{':
			if lx.state == stBetween {
				r.openRecord(p, stMoves)
				lx.tentative = true
			}
			lx.inComment = true
			lx.cmtStart = p + 1
			lx.cmtLine = int32(r.line)
			p++
		case ';':
			if lx.state == stBetween || lx.tentative {
				p = r.skipLine(lineEnd)
				continue
			}
			e := lineEnd
			for e > p+1 && (buf[e-1] == '\n' || buf[e-1] == '\r') {
				e--
			}
			r.add(record.LineComment, p+1, e, r.line)
			p = r.skipLine(lineEnd)
		case '(':
			if lx.state == stBetween || lx.tentative {
				p = r.skipLine(lineEnd)
				continue
			}
			lx.state = stMoves
			lx.depth++
			if lx.depth == record.MaxDepth+1 {
				r.fail(fmt.Errorf("pgn: %w (more than %d)", record.ErrTooDeep, record.MaxDepth), p)
			}
			r.add(record.VariationStart, p, p+1, r.line)
			p++
		case ')':
			if lx.state == stMoves && lx.depth > 0 {
				r.add(record.VariationEnd, p, p+1, r.line)
				lx.depth--
			} else if lx.state != stBetween {
				r.fail(fmt.Errorf("pgn: %w: \")\" without \"(\"", record.ErrUnbalancedVariation), p)
			}
			p++
		case ']', '}':
			p++ // stray closer: nothing to do with it
		case '<':
			if n := htmlTagLen(buf[p:lineEnd]); n > 0 {
				lx.hasContent = contentBefore
				p += n // markup from a web page: a blank
				continue
			}
			p++ // PGN reserves '<'; a stray one means nothing
		default:
			q, done := r.lexWord(p, lineEnd, !contentBefore)
			if done {
				return true
			}
			p = q
		}
	}
	r.pos = p
	return false
}

// lexWord lexes the word at p. It may end the record (a result on the
// main line, or a move number 1 restarting after a blank line).
func (r *Reader) lexWord(p, lineEnd int, firstOnLine bool) (next int, done bool) {
	lx := &r.lx
	buf := r.buf
	q := r.wordEnd(p, lineEnd)
	w := buf[p:q]
	kind, n := classifyWord(w)
	switch lx.state {
	case stBetween:
		if !startsGame(r.utf8Word(w)) || kind == record.MoveNumber && !r.moveFollows(p+n, lineEnd) {
			return r.skipLine(lineEnd), false // stray text: an advert, prose
		}
		r.openRecord(p, stMoves)
	case stTags:
		lx.state = stMoves
	case stMoves:
		if lx.tentative {
			if kind != record.Result && !startsGame(r.utf8Word(w)) {
				lx.state = stBetween // the comment was stray text too
				return r.skipLine(lineEnd), false
			}
			lx.tentative = false
		} else if kind == record.MoveNumber {
			if firstOnLine && lx.blank && lx.depth == 0 && lx.moves >= 2 && moveNumber(w[:n]) == 1 {
				// "1." after a blank line in a game already under way:
				// header-less games one after another.
				return p, r.boundary(p)
			}
		}
	}
	lx.blank = false
	if kind == record.MoveNumber && n < len(w) {
		r.add(record.MoveNumber, p, p+n, r.line)
		return p + n, false // lex the glued move as a word of its own
	}
	if kind == record.Move && lx.depth == 0 {
		if n, ok := gluedResult(w); ok {
			r.add(record.Move, p, p+n, r.line)
			return p + n, false // lex the result as a word of its own
		}
	}
	r.add(kind, p, q, r.line)
	if kind == record.Result && lx.depth == 0 {
		return q, r.boundary(q)
	}
	return q, false
}

// moveFollows reports whether the next word on the line from p is a move
// ("1. e4", "1.炮二平五"): header-less movetext starts that way, numbered
// prose ("6. 特别注意…") does not.
func (r *Reader) moveFollows(p, lineEnd int) bool {
	for p < lineEnd && class[r.buf[p]] == clSpace {
		p++
	}
	if p >= lineEnd || r.buf[p] == '\n' {
		return false
	}
	q := r.wordEnd(p, lineEnd)
	if q == p {
		return false
	}
	w := r.buf[p:q]
	if k, _ := classifyWord(w); k == record.MoveNumber {
		return false
	}
	return startsGame(r.utf8Word(w))
}

// utf8Word returns w as UTF-8 for the checks that read characters: in a
// double-byte file it is decoded into a scratch buffer.
func (r *Reader) utf8Word(w []byte) []byte {
	if !r.dbcs {
		return w
	}
	r.scratch = r.prior.AppendUTF8(r.scratch[:0], w)
	return r.scratch
}

// wordEnd returns the end of the movetext word starting at p.
func (r *Reader) wordEnd(p, lineEnd int) int {
	buf := r.buf
	for p < lineEnd {
		c := buf[p]
		if c < 0x80 {
			if delim[c] {
				return p
			}
			p++
			continue
		}
		if r.dbcs {
			if textenc.IsLead(c) && p+1 < lineEnd && textenc.IsTrail(buf[p+1]) {
				if r.isWideSpace(p, lineEnd) {
					return p
				}
				p += 2
				continue
			}
			p++
			continue
		}
		if c == 0xE3 && r.isWideSpace(p, lineEnd) {
			return p
		}
		p++
	}
	return p
}

// isWideSpace reports an ideographic space (U+3000) at p, which Chinese
// files use like a blank: UTF-8 E3 80 80, GBK A1 A1, Big5 A1 40.
func (r *Reader) isWideSpace(p, lineEnd int) bool {
	buf := r.buf
	switch {
	case r.dbcs:
		if p+1 >= lineEnd || buf[p] != 0xA1 {
			return false
		}
		if r.prior == textenc.Big5 {
			return buf[p+1] == 0x40
		}
		return buf[p+1] == 0xA1
	default:
		return p+2 < lineEnd && buf[p] == 0xE3 && buf[p+1] == 0x80 && buf[p+2] == 0x80
	}
}

func (r *Reader) wideSpaceLen() int {
	if r.dbcs {
		return 2
	}
	return 3
}

// indexByteDBCS finds c in buf[p:lineEnd], stepping over double-byte
// characters in a double-byte file (their second byte may be '}' or '"').
func (r *Reader) indexByteDBCS(p, lineEnd int, c byte) int {
	buf := r.buf
	if !r.dbcs {
		for i := p; i < lineEnd; i++ {
			if buf[i] == c {
				return i
			}
		}
		return -1
	}
	for i := p; i < lineEnd; i++ {
		b := buf[i]
		if b == c {
			return i
		}
		if textenc.IsLead(b) && i+1 < lineEnd && textenc.IsTrail(buf[i+1]) {
			i++
		}
	}
	return -1
}

// closeComment ends the open brace comment at buffer index q (the '}', or
// where an unterminated comment is cut).
func (r *Reader) closeComment(q int, unterminated bool) {
	lx := &r.lx
	lx.inComment = false
	if unterminated {
		for q > lx.cmtStart && isSpace(r.buf[q-1]) {
			q--
		}
		r.fail(fmt.Errorf("pgn: %w", record.ErrUnterminatedComment), lx.cmtStart-1)
	}
	r.add(record.Comment, lx.cmtStart, q, int(lx.cmtLine))
	if !unterminated && !lx.tooLarge {
		lx.contentEnd = q + 1 - lx.recStart // the record runs to the '}'
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == 0
}

// tagLineAhead reports whether the line at p is a tag pair such as
// `[Event "x"]` (used to recover from a comment that was never closed).
func (r *Reader) tagLineAhead(p, lineEnd int) bool {
	buf := r.buf
	for p < lineEnd && (buf[p] == ' ' || buf[p] == '\t') {
		p++
	}
	if p >= lineEnd || buf[p] != '[' {
		return false
	}
	p++
	n := 0
	for p < lineEnd && isNameByte(buf[p]) {
		p++
		n++
	}
	if n == 0 || p >= lineEnd || buf[p] != ' ' {
		return false
	}
	for p < lineEnd && buf[p] == ' ' {
		p++
	}
	if p >= lineEnd || buf[p] != '"' {
		return false
	}
	e := lineEnd
	for e > p && isSpace(buf[e-1]) {
		e--
	}
	return e-p >= 3 && buf[e-1] == ']' && buf[e-2] == '"'
}

func isNameByte(c byte) bool {
	return c == '_' || (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'z')
}
