package cbl

import (
	"errors"
	"fmt"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/importer/internal/board"
	"github.com/xqdb/xqdb/importer/internal/movetree"
	"github.com/xqdb/xqdb/importer/record"
)

// parser keeps the buffers reused from record to record.
type parser struct {
	tree movetree.Linker
	rec  *record.Record // the record emit writes
	text []byte
	tags record.TagBuilder
	data []byte
	base int64 // file offset of the record
	err  error // first defect found while emitting
}

// parse decodes one record. last says the file ends with it: a move
// stream that runs past its bytes is then a file cut short (a ReadError),
// otherwise a broken record (a ParseError) and reading goes on.
func (p *parser) parse(data []byte, src record.Source, rec *record.Record, reuse, last bool) (*record.Record, error) {
	fail := func(err error) (*record.Record, error) {
		return nil, &record.ParseError{Source: src, Err: err}
	}
	if len(data) < len(RecordMagic) || string(data[:len(RecordMagic)]) != string(RecordMagic) {
		return fail(fmt.Errorf("cbl: %w: record does not start with %q", record.ErrBadMagic, RecordMagic[:15]))
	}
	if len(data) < offMoves+4 {
		err := fmt.Errorf("cbl: %w: record header is %d of %d bytes", record.ErrTruncated, len(data), offMoves+4)
		if last {
			src.Offset += int64(len(data))
			return nil, &record.ReadError{Source: src, Cut: true, Err: err}
		}
		return fail(err)
	}
	var b board.Board
	pieces, bad := readBoard(data, &b)
	p.tree.Reset(p.tree.Nodes)
	treeErr := readTree(data, &p.tree)
	if treeErr != nil && len(p.tree.Nodes) == 0 || errors.Is(treeErr, record.ErrRecordTooLarge) {
		return fail(treeErr)
	}
	if errors.Is(treeErr, record.ErrTruncated) {
		if last {
			src.Offset += int64(len(data))
			return nil, &record.ReadError{Source: src, Cut: true, Err: treeErr}
		}
		return fail(treeErr)
	}
	if pieces == 0 && len(p.tree.Nodes) <= 1 {
		// A board without a piece and no moves is no game;
		// CCBridge uses such records as the section titles of its tree.
		title := field(data, offTitle, 128)
		return fail(fmt.Errorf("cbl: %w: section title %q of the library", record.ErrNotAGame, title))
	}

	rec.Reset()
	rec.Source = src
	rec.Format = "cbl"
	rec.Game = engine.Xiangqi
	rec.NotationHint = engine.ICCS
	rec.Encoding = "utf-16le"
	p.data, p.base = data, src.Offset

	// CCBridge stores who moves first (0x840), but the first move's piece
	// is what the XQF and DhtmlXQ readers trust too.
	side := byte('w')
	if data[offSide] == 2 {
		side = 'b'
	}
	if nodes := p.tree.Nodes; len(nodes) > 1 && nodes[0].Child > 0 {
		first := nodes[nodes[0].Child]
		side = b.Side(int(first.From%9), 9-int(first.From/9))
	}
	rec.FEN = b.FEN(side)

	p.text = p.text[:0]
	p.tags.Reset()
	p.err = nil
	p.headerTags(data)
	if rec.FEN != board.Start {
		p.tags.Add("FEN", []byte(rec.FEN))
	}
	rec.Tags = p.tags.AppendTo(rec.Tags)
	p.emit(rec)
	if treeErr == nil {
		treeErr = p.err
	}
	if treeErr == nil && bad >= 0 {
		treeErr = fmt.Errorf("cbl: %w: board byte %#x at square %d is no piece; left empty",
			record.ErrBadValue, data[offBoard+bad], bad)
	}
	rec.Raw = data
	rec.Text = p.text
	if !reuse {
		// A record that is not reused must not share the reader's buffers.
		rec.Raw = append([]byte(nil), data...)
		rec.Text = append([]byte(nil), p.text...)
	}
	if treeErr != nil {
		return rec, &record.ParseError{Source: src, Err: treeErr}
	}
	return rec, nil
}

// emit writes the tree as movetext elements over p.text: the opening
// comment, then the main line with each move's alternatives as variations
// right after it, PGN style (movetree.Walk; the parser is its Writer).
func (p *parser) emit(rec *record.Record) {
	p.rec = rec
	if err := movetree.Walk(p.tree.Nodes, p, "cbl"); err != nil && p.err == nil {
		p.err = err
	}
	p.rec = nil
}

// Move writes n, a move at depth.
func (p *parser) Move(n *movetree.Node, depth int) {
	rec := p.rec
	start := len(p.text)
	p.text = board.AppendICCS(p.text, int(n.From%9), 9-int(n.From/9), int(n.To%9), 9-int(n.To/9))
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
	start := len(p.text)
	p.text = appendUTF16(p.text, p.data[n.Cmt0:n.Cmt1])
	for len(p.text) > start {
		c := p.text[len(p.text)-1]
		if c != ' ' && c != '\r' && c != '\n' && c != '\t' {
			break
		}
		p.text = p.text[:len(p.text)-1]
	}
	if len(p.text) == start {
		return
	}
	rec.Elements = append(rec.Elements, p.token(record.Comment, depth, int64(n.Cmt0), start))
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
	return record.Token{Kind: k, Depth: uint16(depth), Start: int32(start), End: int32(len(p.text)), Offset: p.base + at}
}
