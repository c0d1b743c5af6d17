// Package xqf reads XQF files, the binary game format of XQStudio
// (象棋演播室), versions 10 to 18, encrypted ones included (NOTATIONS §7).
// Each file is one record: header tags, the start position from the piece
// table, and the variation tree with the main line as ICCS move tokens
// ("h2e2"), variations and comments kept as movetext elements.
//
//	file        what
//	reader.go   Reader and Parse: header, board, record assembly
//	header.go   header layout, keys and piece-table decoding
//	tree.go     the preorder variation tree of move records
//	emit.go     tree to movetext elements (main line, variations, comments)
package xqf

import (
	"errors"
	"fmt"
	"io"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/importer/internal/board"
	"github.com/xqdb/xqdb/importer/internal/movetree"
	"github.com/xqdb/xqdb/importer/record"
	"github.com/xqdb/xqdb/importer/textenc"
)

// MaxFileSize bounds what one XQF file may hold: the limit of one record.
// The largest real ones (classical manuals with thousands of variations)
// are well under 1 MB.
const MaxFileSize = record.DefaultMaxRecordSize

// Reader reads the one record of an XQF stream.
type Reader struct {
	// ReuseRecord makes Next return the reader's own *Record, valid
	// until the next call.
	ReuseRecord bool
	// Encoding, when not textenc.Auto, is the encoding of the header
	// strings and comments instead of GBK, the format's (NOTATIONS §7):
	// for files written by a tool that did not follow it.
	Encoding textenc.Encoding

	src  io.Reader
	name string
	done bool
	rec  *record.Record
	p    parser
}

// NewReader returns a reader of the XQF file r; name is reported in the
// record's Source.
func NewReader(r io.Reader, name string) *Reader { return &Reader{src: r, name: name} }

// Next returns the file's record, then io.EOF. A *ParseError with a
// non-nil record means the file was read up to a defect (a square off the
// board); with a nil record, nothing usable was found. A file cut short
// gives a *record.ReadError and no record (see Parse).
func (r *Reader) Next() (*record.Record, error) {
	if r.done {
		return nil, io.EOF
	}
	r.done = true
	data, err := io.ReadAll(io.LimitReader(r.src, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	src := record.Source{File: r.name, Game: 1}
	if len(data) > MaxFileSize {
		return nil, &record.ParseError{Source: src, Err: fmt.Errorf("xqf: %w (limit %d bytes)", record.ErrRecordTooLarge, MaxFileSize)}
	}
	rec := r.rec
	if rec == nil || !r.ReuseRecord {
		rec = &record.Record{}
		if r.ReuseRecord {
			r.rec = rec
		}
	}
	r.p.force = r.Encoding
	return r.p.parse(data, src, rec, r.ReuseRecord)
}

// Parse reads one XQF file held in data into a new record; its Raw is
// data itself. A file that ends before its header or its move tree does
// (a broken download or copy) gives a *record.ReadError wrapping
// record.ErrTruncated, Cut, at the offset where the data ends, and no
// record: the moves read up to there would make a shorter game that keeps
// the header's result, a game that was never played.
func Parse(data []byte, name string) (*record.Record, error) {
	var p parser
	return p.parse(data, record.Source{File: name, Game: 1}, &record.Record{}, false)
}

// parser keeps the buffers reused from file to file.
type parser struct {
	area  []byte
	tree  movetree.Linker
	rec   *record.Record // the record emit writes
	text  []byte
	tags  record.TagBuilder
	force textenc.Encoding // the caller's choice, Auto for the format's
	enc   textenc.Encoding // the text's encoding: force, or GBK
	err   error            // first defect found while emitting
}

func (p *parser) parse(data []byte, src record.Source, rec *record.Record, reuse bool) (*record.Record, error) {
	fail := func(err error) (*record.Record, error) {
		return nil, &record.ParseError{Source: src, Err: err}
	}
	if len(data) < 2 || data[0] != 'X' || data[1] != 'Q' {
		return fail(fmt.Errorf("xqf: %w: file does not start with \"XQ\"", record.ErrBadMagic))
	}
	cut := func(err error) (*record.Record, error) {
		src.Offset = int64(len(data))
		return nil, &record.ReadError{Source: src, Cut: true, Err: err}
	}
	if len(data) < headerSize {
		return cut(fmt.Errorf("xqf: %w: header is %d of %d bytes", record.ErrTruncated, len(data), headerSize))
	}
	h := data[:headerSize]
	version := h[offVersion]
	var k keys
	if version >= firstVersion {
		k = newKeys(h)
	}
	var b board.Board
	readBoard(h, version, &k, &b)

	// Decrypt the move area: every byte minus the cycling key stream.
	p.area = append(p.area[:0], data[headerSize:]...)
	if version >= firstVersion {
		for i := range p.area {
			p.area[i] -= k.stream[i%32]
		}
	}
	p.tree.Reset(p.tree.Nodes)
	treeErr := readTree(p.area, version, &k, &p.tree)
	if errors.Is(treeErr, record.ErrTruncated) {
		return cut(treeErr)
	}
	if errors.Is(treeErr, record.ErrRecordTooLarge) {
		return fail(treeErr)
	}

	rec.Reset()
	rec.Source = src
	rec.Format = "xqf"
	rec.Game = engine.Xiangqi
	rec.NotationHint = engine.ICCS
	// Header strings and comments are GBK by format (NOTATIONS §7), not
	// guessed: a short GBK name is often valid UTF-8 or looks like Big5
	// (谢小然, D0BB D0A1 C8BB, read as UTF-8 is "лСȻ").
	p.enc = textenc.GBK
	if p.force != textenc.Auto {
		p.enc = p.force
	}

	side := byte('w')
	if nodes := p.tree.Nodes; len(nodes) > 1 && nodes[0].Child > 0 {
		first := nodes[nodes[0].Child]
		side = b.Side(int(first.From/10), int(first.From%10))
	}
	rec.FEN = b.FEN(side)

	p.text = p.text[:0]
	p.tags.Reset()
	p.err = nil
	p.headerTags(h)
	if rec.FEN != board.Start {
		p.addTag("FEN", []byte(rec.FEN), textenc.UTF8)
	}
	rec.Tags = p.tags.AppendTo(rec.Tags)
	p.emit(rec)
	if treeErr == nil {
		treeErr = p.err
	}

	rec.Encoding = p.enc.String()
	rec.Raw = data
	rec.Text = p.text
	if !reuse {
		// A record that is not reused must not share the parser's buffers.
		rec.Text = append([]byte(nil), p.text...)
	}
	if treeErr != nil {
		return rec, &record.ParseError{Source: src, Err: treeErr}
	}
	return rec, nil
}
