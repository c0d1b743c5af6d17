package xqf

import (
	"strconv"

	"github.com/xqdb/xqdb/importer/internal/board"
	"github.com/xqdb/xqdb/importer/internal/movetree"
	"github.com/xqdb/xqdb/importer/record"
	"github.com/xqdb/xqdb/importer/textenc"
)

// headerTags collects the header fields as tags: Game, the text fields,
// Result from byte 0x33, and the XQF version and type bytes.
func (p *parser) headerTags(h []byte) {
	p.addTag("Game", []byte("Chinese Chess"), textenc.UTF8)
	for _, f := range textFields {
		n := int(h[f.off])
		v := h[f.off+1 : f.off+1+min(n, f.max)]
		if p.enc.IsDBCS() {
			// XQStudio cuts text longer than a field at the field's size,
			// inside a character when it falls so: drop the half character.
			v = wholeChars(v)
		}
		if f.tag == "Title" && n == 0 {
			continue
		}
		p.addTag(f.tag, v, p.enc)
	}
	res := "*"
	if r := h[offResult]; int(r) < len(results) {
		res = results[r]
	}
	p.addTag("Result", []byte(res), textenc.UTF8)
	p.addTag("XQFVersion", strconv.AppendInt(nil, int64(h[offVersion]), 10), textenc.UTF8)
	if t := h[offType]; int(t) < len(types) {
		p.addTag("XQFType", []byte(types[t]), textenc.UTF8)
	}
}

// wholeChars drops a double-byte character's lead byte left alone at the
// end of v.
func wholeChars(v []byte) []byte {
	for i := 0; i < len(v); i++ {
		if v[i] == 0 {
			return v[:i]
		}
		if textenc.IsLead(v[i]) {
			if i+1 == len(v) {
				return v[:i]
			}
			i++
		}
	}
	return v
}

// addTag appends a tag whose value is v in encoding e. Values stop at a
// NUL: fixed-size fields are often NUL-padded inside their length.
func (p *parser) addTag(name string, v []byte, e textenc.Encoding) {
	for i, c := range v {
		if c == 0 {
			v = v[:i]
			break
		}
	}
	p.tags.AddFunc([]byte(name), func(dst []byte) []byte { return e.AppendUTF8(dst, v) })
}

// emit writes the tree as movetext elements over p.text: the opening
// comment, then the main line with each move's alternatives as variations
// right after it, PGN style (movetree.Walk; the parser is its Writer).
func (p *parser) emit(rec *record.Record) {
	p.rec = rec
	if err := movetree.Walk(p.tree.Nodes, p, "xqf"); err != nil && p.err == nil {
		p.err = err
	}
	p.rec = nil
}

// Move writes n, a move at depth.
func (p *parser) Move(n *movetree.Node, depth int) {
	rec := p.rec
	start := len(p.text)
	p.text = board.AppendICCS(p.text, int(n.From/10), int(n.From%10), int(n.To/10), int(n.To%10))
	t := p.token(record.Move, depth, n.At, start)
	rec.Elements = append(rec.Elements, t)
	if depth == 0 {
		rec.Moves = append(rec.Moves, t)
	}
	p.text = append(p.text, ' ')
}

// Comment writes n's comment, if it has one.
func (p *parser) Comment(n *movetree.Node, depth int) {
	rec := p.rec
	c := p.area[n.Cmt0:n.Cmt1]
	for len(c) > 0 && (c[len(c)-1] == 0 || c[len(c)-1] == ' ' || c[len(c)-1] == '\r' || c[len(c)-1] == '\n') {
		c = c[:len(c)-1]
	}
	if len(c) == 0 {
		return
	}
	start := len(p.text)
	p.text = p.enc.AppendUTF8(p.text, c)
	rec.Elements = append(rec.Elements, p.token(record.Comment, depth, headerSize+int64(n.Cmt0), start))
	p.text = append(p.text, ' ')
}

// Mark writes a variation's parenthesis.
func (p *parser) Mark(k record.Kind, depth int, at int64, text string) {
	start := len(p.text)
	p.text = append(p.text, text...)
	p.rec.Elements = append(p.rec.Elements, p.token(k, depth, at, start))
	p.text = append(p.text, ' ')
}

func (p *parser) token(k record.Kind, depth int, at int64, start int) record.Token {
	return record.Token{Kind: k, Depth: uint16(depth), Start: int32(start), End: int32(len(p.text)), Offset: at}
}
