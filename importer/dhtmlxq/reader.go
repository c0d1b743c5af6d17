// Package dhtmlxq reads DhtmlXQ records (东萍象棋 dpxq.com "UBB" format,
// NOTATIONS §8): [DhtmlXQ]…[/DhtmlXQ] blocks in HTML pages or text files,
// and the DHJHtmlXQ dialect with numeric tags. Each block is one record:
// metadata mapped to PGN tag names, the start position from binit (or the
// standard start), the main line from movelist as ICCS tokens ("h2e2"),
// and the variation branches move_A_B_C and comments kept as movetext
// elements.
//
//	file        what
//	reader.go   Reader: blocks, fields, record assembly
//	scan.go     finding blocks and fields; name and result tables
//	board.go    binit and the DHJHtmlXQ board, move lists
//	emit.go     branches to movetext elements
//	text.go     value decoding: encodings, "||", \uXXXX, HTML entities
package dhtmlxq

import (
	"fmt"
	"io"
	"strings"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/importer/internal/board"
	"github.com/xqdb/xqdb/importer/record"
	"github.com/xqdb/xqdb/importer/textenc"
)

// MaxFileSize bounds the file a Reader accepts: DhtmlXQ pages are read
// whole, so the file is held to the limit of one record. The largest
// known record (vschess dhtmlxq.txt, 1,446 branches) is 546 KB.
const MaxFileSize = record.DefaultMaxRecordSize

// maxMoves bounds the moves of a record, all branches together: each
// takes 24 bytes, and so at most the record limit when the slices grow.
const maxMoves = record.DefaultMaxRecordSize / 64

// Reader reads the DhtmlXQ records of one file.
type Reader struct {
	// ReuseRecord makes Next return the reader's own *Record, valid
	// until the next call.
	ReuseRecord bool
	// Encoding, when not textenc.Auto, is the page's encoding, whatever
	// detection would say.
	Encoding textenc.Encoding

	src    io.Reader
	name   string
	loaded bool
	data   []byte
	enc    textenc.Encoding
	blocks []block
	next   int
	lines  lineIndex
	rec    *record.Record
	p      parser
}

// NewReader returns a reader of the DhtmlXQ records in r; name is
// reported in every Source.
func NewReader(r io.Reader, name string) *Reader { return &Reader{src: r, name: name} }

// Next returns the next record, or io.EOF after the last. A *ParseError
// with a non-nil record means the record was read around a defect (an
// unclosed block, a bad square, a branch that attaches nowhere).
func (r *Reader) Next() (*record.Record, error) {
	if !r.loaded {
		r.loaded = true
		data, err := io.ReadAll(io.LimitReader(r.src, MaxFileSize+1))
		if err != nil {
			return nil, err
		}
		if len(data) > MaxFileSize {
			r.next = -1
			return nil, &record.ParseError{Source: record.Source{File: r.name},
				Err: fmt.Errorf("dhtmlxq: %w (limit %d bytes)", record.ErrRecordTooLarge, MaxFileSize)}
		}
		r.data = data
		r.enc = r.Encoding
		if r.enc == textenc.Auto {
			r.enc = textenc.Detect(data, textenc.GBK)
		}
		r.blocks = findBlocks(data)
		r.lines = newLineIndex(data)
	}
	if r.next < 0 || r.next >= len(r.blocks) {
		return nil, io.EOF
	}
	b := r.blocks[r.next]
	r.next++
	rec := r.rec
	if rec == nil || !r.ReuseRecord {
		rec = &record.Record{}
		if r.ReuseRecord {
			r.rec = rec
		}
	}
	src := record.Source{File: r.name, Game: r.next, Offset: int64(b.start), Line: r.lines.line(b.start)}
	err := r.p.parse(r, b, src, rec)
	if r.p.tooLarge {
		return nil, &record.ParseError{Source: src, Err: fmt.Errorf("dhtmlxq: %w (more than %d moves)", record.ErrRecordTooLarge, maxMoves)}
	}
	if !r.ReuseRecord {
		rec.Text = append([]byte(nil), rec.Text...)
		rec.Raw = append([]byte(nil), rec.Raw...)
	}
	if err != nil {
		return rec, &record.ParseError{Source: src, Err: err}
	}
	return rec, nil
}

// parser keeps buffers reused from record to record.
type parser struct {
	text     []byte
	tags     record.TagBuilder
	branches []branch
	err      error
	moves    int  // moves read in the record
	tooLarge bool // more than maxMoves
}

// fail keeps the record's first defect.
func (p *parser) fail(err error) {
	if p.err == nil {
		p.err = err
	}
}

func (p *parser) parse(r *Reader, b block, src record.Source, rec *record.Record) error {
	rec.Reset()
	rec.Source = src
	rec.Format = "dhtmlxq"
	rec.Game = engine.Xiangqi
	rec.NotationHint = engine.ICCS
	rec.Encoding = r.enc.String()
	rec.Raw = r.data[b.start:b.end]
	p.text, p.err = p.text[:0], nil
	p.moves, p.tooLarge = 0, false
	p.tags.Reset()
	if !b.closed {
		p.fail(fmt.Errorf("dhtmlxq: %w: block not closed", record.ErrTruncated))
	}

	var (
		bd         board.Board
		haveBd     bool
		fen        string
		blackFirst bool
		comments   = map[[2]int]field{}
	)
	p.addTag("Game", "Chinese Chess")
	p.branches = p.branches[:0]
	p.branches = append(p.branches, branch{id: 0, parent: -1, ply: 1})
	for _, f := range fields(r.data, b) {
		name := f.name
		if b.dhj {
			if n, ok := dhjNames[name]; ok {
				name = n
			}
		}
		raw := r.data[f.val0:f.val1]
		switch {
		case name == "binit":
			haveBd = p.readBinit(raw, &bd)
		case name == "board":
			haveBd = p.readBoardArray(raw, &bd)
		case name == "fen":
			fen = strings.TrimSpace(string(raw))
		case name == "startplayer":
			blackFirst = strings.TrimSpace(string(raw)) == "1"
		case name == "movelist", name == "movelist_up":
			p.branches[0].moves = p.readMoves(raw, f.val0, name == "movelist_up", &r.lines, p.branches[0].moves[:0])
		default:
			if bi, ply, ok := commentKey(name); ok {
				comments[[2]int{bi, ply}] = f
				continue
			}
			if a, ply, c, ok := branchKey(name); ok {
				p.branches = append(p.branches, branch{id: c, parent: a, ply: ply,
					moves: p.readMoves(raw, f.val0, false, &r.lines, nil)})
				continue
			}
			p.metaTag(name, r.decode(raw))
		}
	}
	if !haveBd {
		bd = startBoard()
	}
	switch {
	case fen != "":
		rec.FEN = record.NormalizeXiangqiFEN(fen)
	default:
		side := byte('w')
		if m := p.firstMove(); m != nil {
			side = bd.Side(int(m.f1), int(m.r1))
		} else if blackFirst {
			side = 'b'
		}
		rec.FEN = bd.FEN(side)
	}
	if rec.FEN != board.Start {
		p.addTag("FEN", rec.FEN)
	}
	rec.Tags = p.tags.AppendTo(rec.Tags)
	p.emit(r, rec, comments)
	rec.Text = p.text
	return p.err
}
