// Package pgn reads PGN game records, chess and Xiangqi ("XQ PGN",
// NOTATIONS §6) alike, from a stream in constant memory per record. It
// splits the stream into records, lexes tags and movetext into spans of
// one buffer, detects the encoding and the game, and knows nothing of the
// rules.
//
//	file        what
//	reader.go   Reader: buffering, record boundaries, Next
//	lexer.go    the line lexer: comments, variations, tokens, boundaries
//	tags.go     tag pairs, and when a tag section starts a new record
//	word.go     classifying a movetext word (move, number, NAG, result)
//	build.go    turning lexed spans into a record.Record (encoding, tags,
//	            game detection)
//
// Tolerated quirks, each with a test: BOM, CRLF and "\r\r\n", NUL bytes,
// "%" escape lines, doubled blank lines between tags and movetext (one
// record, not two), tags immediately followed by movetext or on the same
// line, header-only records (one record per tag section), text after a
// result (xqbase adverts) ignored, move numbers glued to moves ("1.e4"),
// "1...", Black in the first slot, the XQ PGN continuation "3.   马８进７",
// header-less movetext, unterminated tag strings, escaped quotes.
package pgn

import (
	"bytes"
	"io"

	"github.com/xqdb/xqdb/importer/record"
	"github.com/xqdb/xqdb/importer/textenc"
)

const (
	// firstChunk is the first buffer; a stream that outgrows it reads in
	// chunkSize pieces. Archives of one small game per file (CCPD: 58,468
	// files) then cost little per file.
	firstChunk = 16 << 10
	chunkSize  = 256 << 10
	// sniffSize is how much of the stream decides whether the file is
	// double-byte encoded (its delimiters must then be found pair-wise).
	sniffSize = 64 << 10
)

// Reader reads PGN records from a stream. It is modelled on encoding/csv:
// Next returns one record at a time and io.EOF at the end; a *ParseError
// concerns one record only and the next call continues with the following
// one; I/O errors are sticky.
type Reader struct {
	// ReuseRecord makes Next return the same *Record every time, its
	// slices reused and pointing into the reader's buffer: no allocation
	// per move or per record beyond one string for the tags. The record
	// is valid only until the next call.
	ReuseRecord bool
	// MainLineOnly keeps, of the movetext, only the main line's moves and
	// its result (in Elements as in Moves): what an import stores. Reading
	// is then faster; comments, NAGs and variations are still checked.
	MainLineOnly bool
	// NoMoveNumbers keeps every movetext element but the move numbers
	// (comments, NAGs, variations, moves, result): what an import stores,
	// since an export numbers the moves again. For a record without
	// annotations the elements are then those MainLineOnly keeps.
	NoMoveNumbers bool
	// MaxRecordSize bounds one record's bytes (default
	// record.DefaultMaxRecordSize); a larger record is skipped with
	// ErrRecordTooLarge.
	MaxRecordSize int
	// Encoding, when not textenc.Auto, is the encoding of every record,
	// whatever detection would say: for files that are not what they
	// seem (a GBK name that is valid UTF-8, a Latin file read as GBK).
	Encoding textenc.Encoding

	src  io.Reader
	name string

	buf    []byte // buf[:n] holds data read; buf[0] is at file offset base
	n      int
	base   int64
	eof    bool
	ioErr  error
	sniffd bool
	// enc is the file's double-byte encoding when it has one: delimiters
	// are then looked for pair-wise (textenc.IsLead/IsTrail).
	dbcs  bool
	prior textenc.Encoding
	utf16 string // "utf-16le"/"utf-16be" when the stream was converted

	pos  int // next byte to lex
	line int // line number of buf[pos]
	lx   lexer

	scratch     []byte // a word decoded to UTF-8 (utf8Word)
	tooManyTags bool   // the too-large record had more than MaxTags tags
	// tooManyElems: the too-large record had more than maxElements
	// movetext elements.
	tooManyElems bool
	scanned      int // bytes after pos already searched for '\n'

	games int // records returned so far
	rec   *record.Record
	b     builder
}

// NewReader returns a reader of r; name is reported in every Source.
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{src: r, name: name, line: 1}
}

// Next returns the next record, or io.EOF after the last. A *ParseError
// returned with a non-nil record describes a tolerated defect (the record
// holds what was read); with a nil record it means the record was
// unusable and skipped.
func (r *Reader) Next() (*record.Record, error) {
	for {
		if r.pos >= r.n && r.eof {
			if re, ok := r.ioErr.(*record.ReadError); ok {
				return nil, re
			}
			if r.ioErr != nil {
				// Sticky; a record it cut is lost, and the error says which.
				err := &record.ReadError{Source: record.Source{File: r.name, Game: r.games + 1, Offset: r.base + int64(r.pos), Line: r.line}, Err: r.ioErr}
				if r.lx.open() {
					err.Source.Offset, err.Source.Line, err.Cut = r.lx.recOffset, r.lx.recLine, true
				}
				r.ioErr = err
				return nil, err
			}
			if r.lx.open() && r.closeAtEOF() {
				return r.finish()
			}
			return nil, io.EOF
		}
		lineEnd, ok := r.nextLine()
		if !ok {
			continue // filled the buffer, or hit EOF or an I/O error
		}
		if r.lx.open() && !r.lx.tooLarge && lineEnd-r.lx.recStart > r.maxRecord() {
			r.lx.tooLarge = true
		}
		for r.pos < lineEnd {
			if r.lexLine(lineEnd) {
				return r.finish()
			}
		}
	}
}

// nextLine returns the end (just past '\n', or the end of data at EOF) of
// the line starting at r.pos, reading more data when needed.
func (r *Reader) nextLine() (int, bool) {
	from := r.pos + r.scanned
	if from > r.n {
		from = r.n
	}
	if i := bytes.IndexByte(r.buf[from:r.n], '\n'); i >= 0 {
		r.scanned = 0
		return from + i + 1, true
	}
	// Remember how far the search went: a long line arriving in many
	// chunks is then searched once, not once per chunk.
	r.scanned = r.n - r.pos
	if r.eof {
		return r.n, true
	}
	limit := r.maxRecord()
	if r.n-r.keepFrom() > limit {
		// A line longer than any record may be: lex what there is so
		// the record is marked too large and its bytes can go.
		r.lx.tooLarge = true
		return r.n, true
	}
	r.fill()
	return 0, false
}

// maxElements bounds a record's movetext elements: their tokens take
// (24 bytes each, doubled while growing) no more than the record limit.
func (r *Reader) maxElements() int { return r.maxRecord() / 64 }

func (r *Reader) maxRecord() int {
	if r.MaxRecordSize > 0 {
		return r.MaxRecordSize
	}
	return record.DefaultMaxRecordSize
}

// keepFrom is the first buffered byte still needed: the open record's
// start, or the lexing position.
func (r *Reader) keepFrom() int {
	if r.lx.open() && !r.lx.tooLarge {
		return r.lx.recStart
	}
	return r.pos
}

// fill reads more data, first moving the bytes still needed to the front
// of the buffer. Moving happens only here, inside Next, so a reused record
// returned by the previous call was valid until this call began.
func (r *Reader) fill() {
	keep := r.keepFrom()
	if keep > 0 && (r.n == len(r.buf) || keep >= len(r.buf)/2) {
		copy(r.buf, r.buf[keep:r.n])
		r.shift(keep)
	}
	if r.n == len(r.buf) {
		size := 2 * len(r.buf)
		switch {
		case len(r.buf) == 0:
			size = firstChunk
		case size < chunkSize:
			size = chunkSize
		}
		// What is kept never exceeds the record limit (nextLine marks a
		// longer record too large): doubling past it would only waste.
		size = max(min(size, r.maxRecord()+chunkSize), len(r.buf)+chunkSize)
		nb := make([]byte, size)
		copy(nb, r.buf[:r.n])
		r.buf = nb
	}
	// Read until the buffer is full: fewer, larger lexing rounds. Only
	// io.EOF ends the stream cleanly; a truncated gzip stream reports
	// io.ErrUnexpectedEOF, which is an I/O error like any other.
	for r.n < len(r.buf) {
		m, err := r.src.Read(r.buf[r.n:])
		r.n += m
		if err == io.EOF {
			r.eof = true
			break
		}
		if err != nil {
			r.ioErr = err
			r.eof = true // lex what was read, then report the error
			break
		}
		if m == 0 {
			break
		}
	}
	if !r.sniffd {
		r.sniff()
	}
}

// shift drops the first k buffered bytes.
func (r *Reader) shift(k int) {
	r.n -= k
	r.pos -= k
	r.base += int64(k)
	r.lx.shift(k)
}
