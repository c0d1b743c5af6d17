package pgn

import (
	"bytes"
	"fmt"

	"github.com/xqdb/xqdb/importer/record"
	"github.com/xqdb/xqdb/importer/textenc"
)

// lexTag lexes the tag pair at p (a '['). It returns where lexing goes
// on, or ok=false when the tag begins the next record: a name that the
// open tag section already has, after a blank line (scalachess FWWRC.pgn:
// 605 header-only records), or a second Event tag at all. A blank line
// followed by new names is one section (python-chess
// chessbase-empty-line.pgn).
//
// Values are read as PGN §8.1.1 says (backslash escapes quote and
// backslash). A quote that is not followed by the closing bracket is kept
// as part of the value: CCPD writes `[Event "首屆"呂泉杯"象棋精英賽"]`.
// A string not closed on its line runs to the line's end and the record
// reports ErrUnterminatedTag.
func (r *Reader) lexTag(p, lineEnd int) (int, bool) {
	buf := r.buf
	lx := &r.lx
	start := p
	p++
	for p < lineEnd && (buf[p] == ' ' || buf[p] == '\t') {
		p++
	}
	n0 := p
	for p < lineEnd && !isSpace(buf[p]) && buf[p] != '"' && buf[p] != ']' && buf[p] != '[' {
		p++
	}
	n1 := p
	for p < lineEnd && (buf[p] == ' ' || buf[p] == '\t') {
		p++
	}
	if lx.state == stTags && len(lx.tags) > 0 && n1 > n0 {
		name := buf[n0:n1]
		if (lx.blank || bytes.EqualFold(name, []byte("Event"))) && r.hasTag(name) {
			return start, false
		}
	}
	var v0, v1 int
	escaped, closed := false, false
	if p < lineEnd && buf[p] == '"' {
		p++
		v0 = p
		for p < lineEnd {
			c := buf[p]
			if c == '\\' && p+1 < lineEnd && (buf[p+1] == '"' || buf[p+1] == '\\') {
				escaped = true
				p += 2
				continue
			}
			if c == '"' && r.closesTag(p+1, lineEnd) || c == '\n' || c == '\r' {
				break
			}
			if r.dbcs && textenc.IsLead(c) && p+1 < lineEnd && textenc.IsTrail(buf[p+1]) {
				p += 2
				continue
			}
			p++
		}
		v1 = p
		if p < lineEnd && buf[p] == '"' {
			p++
			closed = true
		}
	} else {
		// Unquoted value: tolerated up to the closing bracket.
		v0 = p
		q := r.indexByteDBCS(p, lineEnd, ']')
		if q < 0 {
			q = lineEnd
		}
		p, v1 = q, q
		closed = q < lineEnd
	}
	for p < lineEnd && (buf[p] == ' ' || buf[p] == '\t') {
		p++
	}
	if p < lineEnd && buf[p] == ']' {
		p++
	} else {
		closed = false
	}
	if !closed {
		// The rest of the line belongs to the broken tag, not to movetext.
		for p < lineEnd && buf[p] != '\n' && buf[p] != '\r' {
			p++
		}
		if v1 < p {
			v1 = p
		}
		for v1 > v0 && (isSpace(buf[v1-1]) || buf[v1-1] == ']' || buf[v1-1] == '"') {
			v1--
		}
		r.fail(fmt.Errorf("pgn: %w: %.40q", record.ErrUnterminatedTag, buf[start:p]), start)
	}
	if n1-n0 > record.MaxTagLen {
		n1 = n0 + record.MaxTagLen
		r.fail(fmt.Errorf("pgn: %w", record.ErrTagTooLong), start)
	}
	if v1-v0 > record.MaxTagLen {
		v1 = v0 + record.MaxTagLen
		for r.dbcs && v1 > v0 && !r.pairBoundary(v0, v1) {
			v1--
		}
		r.fail(fmt.Errorf("pgn: %w", record.ErrTagTooLong), start)
	}
	lx.blank = false
	if len(lx.tags) >= record.MaxTags && !lx.tooLarge {
		lx.tooLarge = true // hasTag is linear: keep the tag section bounded
		r.tooManyTags = true
	}
	if !lx.tooLarge {
		base := lx.recStart
		lx.tags = append(lx.tags, tagSpan{
			name0: int32(n0 - base), name1: int32(n1 - base),
			val0: int32(v0 - base), val1: int32(v1 - base),
			escaped: escaped,
		})
		lx.contentEnd = p - base
	}
	return p, true
}

// hasTag reports whether the open record already has a tag named name.
func (r *Reader) hasTag(name []byte) bool {
	lx := &r.lx
	for _, t := range lx.tags {
		if bytes.EqualFold(r.buf[lx.recStart+int(t.name0):lx.recStart+int(t.name1)], name) {
			return true
		}
	}
	return false
}

// pairBoundary reports whether end falls between characters when the
// bytes from start are paired double-byte style.
func (r *Reader) pairBoundary(start, end int) bool {
	i := start
	for i < end {
		if textenc.IsLead(r.buf[i]) && i+1 < len(r.buf) && textenc.IsTrail(r.buf[i+1]) {
			i += 2
			continue
		}
		i++
	}
	return i == end
}

// closesTag reports whether a quote just before p closes the tag value:
// only blanks stand between it and a ']'.
func (r *Reader) closesTag(p, lineEnd int) bool {
	for p < lineEnd && (r.buf[p] == ' ' || r.buf[p] == '\t') {
		p++
	}
	return p < lineEnd && r.buf[p] == ']'
}
