package xqf

import (
	"fmt"
	"strconv"

	"github.com/xqdb/xqdb/importer/internal/board"
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

// emit writes the tree as movetext elements over p.text: the root
// comment, then the main line with each move's alternatives as
// variations right after it, PGN style.
func (p *parser) emit(rec *record.Record) {
	if len(p.nodes) == 0 {
		return
	}
	p.comment(rec, &p.nodes[0], 0)
	p.line(rec, p.nodes[0].child, 0)
}

// line emits the moves from node i on at the given depth. The first
// move's own alternatives are the caller's business.
func (p *parser) line(rec *record.Record, i int32, depth int) {
	for first := true; i >= 0; first = false {
		n := &p.nodes[i]
		p.move(rec, n, depth)
		p.comment(rec, n, depth)
		if !first || depth == 0 {
			p.alternatives(rec, n, depth)
		}
		i = n.child
	}
}

// alternatives emits the moves that could replace n, each as a variation.
func (p *parser) alternatives(rec *record.Record, n *node, depth int) {
	if n.sib < 0 {
		return
	}
	if depth+1 > record.MaxDepth {
		if p.err == nil {
			p.err = fmt.Errorf("xqf: %w (more than %d)", record.ErrTooDeep, record.MaxDepth)
		}
		return
	}
	for a := n.sib; a >= 0; a = p.nodes[a].sib {
		p.add(rec, record.VariationStart, depth+1, n.at, []byte("("))
		p.line(rec, a, depth+1)
		p.add(rec, record.VariationEnd, depth+1, n.at, []byte(")"))
	}
}

func (p *parser) move(rec *record.Record, n *node, depth int) {
	start := len(p.text)
	p.text = board.AppendICCS(p.text, int(n.src/10), int(n.src%10), int(n.dst/10), int(n.dst%10))
	t := p.token(record.Move, depth, n.at, start)
	rec.Elements = append(rec.Elements, t)
	if depth == 0 {
		rec.Moves = append(rec.Moves, t)
	}
	p.text = append(p.text, ' ')
}

func (p *parser) comment(rec *record.Record, n *node, depth int) {
	c := p.area[n.cmt0:n.cmt1]
	for len(c) > 0 && (c[len(c)-1] == 0 || c[len(c)-1] == ' ' || c[len(c)-1] == '\r' || c[len(c)-1] == '\n') {
		c = c[:len(c)-1]
	}
	if len(c) == 0 {
		return
	}
	start := len(p.text)
	p.text = p.enc.AppendUTF8(p.text, c)
	rec.Elements = append(rec.Elements, p.token(record.Comment, depth, headerSize+int64(n.cmt0), start))
	p.text = append(p.text, ' ')
}

func (p *parser) add(rec *record.Record, k record.Kind, depth int, at int64, text []byte) {
	start := len(p.text)
	p.text = append(p.text, text...)
	rec.Elements = append(rec.Elements, p.token(k, depth, at, start))
	p.text = append(p.text, ' ')
}

func (p *parser) token(k record.Kind, depth int, at int64, start int) record.Token {
	return record.Token{Kind: k, Depth: uint16(depth), Start: int32(start), End: int32(len(p.text)), Offset: at}
}
