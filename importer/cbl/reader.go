// Package cbl reads the files of CCBridge (象棋桥): .cbl libraries of many
// games and .cbr single records, which share the record layout. Each game
// record becomes one record: its header fields as tags, the start
// position from its board, and its move tree with the main line as ICCS
// move tokens ("h2e2"), variations and comments kept as movetext
// elements, as the XQF reader keeps them.
//
// The layout below was established from the bytes of the five
// CCBridgeLibrary files and the two .cbr files of ../shared/data
// (walker8088's archive and tests), with walker8088/cchess read_cbr.py and
// a public Kaitai description for orientation; where they disagree, the
// bytes decide (noted "[checked]"). All integers are little-endian; all
// text is UTF-16LE in fixed-size fields, ended by a NUL unit: the rest of
// a field, and every gap between fields, holds uninitialised memory of the
// program that wrote it (stack garbage, file paths), never zero-filled, so
// nothing may be read past a field's NUL.
//
// Library (.cbl):
//
//	0x00000  16  magic "CCBridgeLibrary\0"
//	0x00010   4  version (3 in every sample)
//	0x00014  16  GUID of the library
//	0x00034   4  0x7FFFFFFF
//	0x00038   4  1 when some index entry has state 5 (below)
//	0x0003C   4  slots: the capacity of the index (128 or 1024 seen), not
//	             the number of games [checked: 93 games in 128 slots]
//	0x00040 512  library name
//	0x00240 256  source;  0x340 64 creator; 0x380 64 creator's e-mail
//	0x003C0  64  created; 0x400 64 modified (text dates)
//	0x00440 64K  remarks (the book's preface)
//	0x10440      index: slots × 276-byte entries, one per record in file
//	             order: u32 state (7; 5 seen on a copy of the record
//	             before it and on an appendix of 26 distinct records, so
//	             not a deletion mark: every record is read), u32 display
//	             order, u32 slots the record takes, u32 its size in bytes,
//	             then its GUID and title
//	66624 + slots×276   the records, each on a 4096-byte boundary from
//	             there; a record longer than 4096 bytes runs on into the
//	             next slots, which do not start with the record magic
//	             [checked: 3 of 784 records in 残局全书.CBL take 2 slots]
//
// Record (.cbr, or a record of a library), offsets from its start:
//
//	0x000  16  magic "CCBridge Record\0"
//	0x013   1  2 in every sample
//	0x0B4 128  title              0x134 256 opening (飞相局, 挺兵对飞象)
//	0x234  64  source             0x274  64 event type
//	0x2B4  64  event              0x2F4  64 round
//	0x334  32  group              0x354  32 board (table) number
//	0x374  64  date (1956年12月17日) 0x3B4  64 site
//	0x3F4  64  time control
//	0x434  64  red player         0x474  64 red team
//	0x4B4  64  red time           0x4F4  32 red score
//	0x514  64  black player       0x554  64 black team
//	0x594  64  black time         0x5D4  32 black score
//	0x5F4  64  referee            0x634  64 recorder
//	0x674  64  commentator        0x6B4  64 commentator's e-mail
//	0x6F4  64  creator            0x734  64 creator's e-mail
//	0x774  40  created            0x7B4  40 modified
//	0x7F8   1  kind: 1 game, 4 composed endgame (残局全书) [checked]
//	0x81C   1  result: 0 unknown, 1 Red wins, 2 Black wins, 3 draw
//	           [checked against 先胜/先负/先和 in the 35-game titles]
//	0x840   1  side to move first, 1 Red, 2 Black (1 in every sample;
//	           the first move's piece decides, as for XQF)
//	0x848  90  board: byte row×9+file, row 0 Black's back rank (ICCS rank
//	           9 − row); high nibble colour (1 Red, 2 Black), low nibble
//	           piece 1 chariot, 2 horse, 3 elephant, 4 advisor, 5 general,
//	           6 cannon, 7 soldier; 0 empty
//	0x8A2   4  −1
//	0x8A6      move stream
//
// The move stream is a preorder walk of the move tree, as in XQF
// (NOTATIONS §7): 4 bytes per node, flags, 0, from, to (squares as on the
// board above), then, when flags&4, a u32 byte length and that much
// UTF-16LE comment. flags&1 ends the line (no continuation), flags&2 says
// an alternative to this move follows once its own subtree is done. The
// first node is the start position's: its from and to are 0, its comment
// is the game's opening comment, and flags&1 on it means no moves.
//
// A record whose board is empty and which has no moves is not a game but a
// section title of the library's tree (龙化杯…对局（男子组20局）, 前言): it
// is reported with record.ErrNotAGame, numbered like the other records.
// Records are numbered (Source.Game) in file order, section titles
// included, so a number names the same record in CCBridge's index.
//
//	file        what
//	reader.go   the layout (this comment), Reader and Parse: libraries,
//	            slots, single records
//	header.go   header fields to tags, the board
//	tree.go     the preorder move tree
//	emit.go     tree to movetext elements (main line, variations, comments)
package cbl

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/xqdb/xqdb/importer/record"
)

// Magics of the two file kinds (a record of a library starts with the
// record magic too).
var (
	LibraryMagic = []byte("CCBridgeLibrary\x00")
	RecordMagic  = []byte("CCBridge Record\x00")
)

const (
	slotSize     = 4096
	indexOffset  = 0x10440 // 66624: header and remarks end here
	indexEntry   = 276
	offSlots     = 0x3C
	libHeaderLen = 0x40
	// maxSlots bounds the index a library may announce: CCBridge writes
	// 128 to 1024; more than a million would skip 276 MB before the first
	// record, which no library does.
	maxSlots = 1 << 20
)

// MaxRecordSize bounds one record: the limit of one record of every
// reader. The largest real ones take two 4096-byte slots.
const MaxRecordSize = record.DefaultMaxRecordSize

// Reader reads the records of a CCBridge library or of a single .cbr
// record.
type Reader struct {
	// ReuseRecord makes Next return the reader's own *Record, valid until
	// the next call.
	ReuseRecord bool

	src     *bufio.Reader
	name    string
	started bool
	library bool
	done    bool
	eof     bool  // the file has ended (a slot came back short)
	off     int64 // file offset of the next slot to read
	next    [slotSize]byte
	nextLen int   // next[:nextLen], read ahead, starts the next record
	nextAt  int64 // its file offset
	hasNext bool
	game    int
	buf     []byte
	rec     *record.Record
	p       parser
}

// NewReader returns a reader of the CCBridge file r; name is reported in
// every record's Source.
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{src: bufio.NewReaderSize(r, slotSize), name: name}
}

// Next returns the next record, then io.EOF. A *record.ParseError with a
// nil record concerns one record (a section title, record.ErrNotAGame; a
// record that cannot be decoded) and reading goes on; with a non-nil one
// it describes a tolerated defect. A library cut short in a record gives
// a *record.ReadError naming it, and ends there.
func (r *Reader) Next() (*record.Record, error) {
	if r.done {
		return nil, io.EOF
	}
	if !r.started {
		r.started = true
		if err := r.start(); err != nil {
			r.done = true
			return nil, err
		}
	}
	if !r.library {
		r.done = true
		data, err := io.ReadAll(io.LimitReader(r.src, MaxRecordSize+1))
		if err != nil {
			return nil, err
		}
		r.game = 1
		src := record.Source{File: r.name, Game: 1}
		if len(data) > MaxRecordSize {
			return nil, &record.ParseError{Source: src, Err: fmt.Errorf("cbl: %w (limit %d bytes)", record.ErrRecordTooLarge, MaxRecordSize)}
		}
		return r.parse(data, src, true)
	}
	return r.nextInLibrary()
}

// start reads the magic; for a library, the header up to the slot count,
// then skips the remarks and the index to the first record.
func (r *Reader) start() error {
	head, err := r.src.Peek(len(RecordMagic))
	switch {
	case bytes.Equal(head, RecordMagic):
		return nil
	case !bytes.Equal(head, LibraryMagic):
		if err == nil || err == io.EOF || err == io.ErrUnexpectedEOF {
			return &record.ParseError{Source: record.Source{File: r.name},
				Err: fmt.Errorf("cbl: %w: file does not start with %q or %q", record.ErrBadMagic, LibraryMagic[:15], RecordMagic[:15])}
		}
		return err
	}
	r.library = true
	var h [libHeaderLen]byte
	if _, err := io.ReadFull(r.src, h[:]); err != nil {
		return r.cutHeader(err)
	}
	slots := int64(binary.LittleEndian.Uint32(h[offSlots:]))
	if slots == 0 || slots > maxSlots {
		return &record.ParseError{Source: record.Source{File: r.name, Offset: offSlots},
			Err: fmt.Errorf("cbl: %w: index of %d slots", record.ErrBadValue, slots)}
	}
	first := indexOffset + slots*indexEntry
	n, err := io.CopyN(io.Discard, r.src, first-libHeaderLen)
	r.off = libHeaderLen + n
	if err == io.EOF {
		r.eof = true
		return nil // a library whose index is cut short holds no record
	}
	if err != nil {
		return r.cutHeader(err)
	}
	return nil
}

// cutHeader reports a library that ends (or fails) inside its header.
func (r *Reader) cutHeader(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		r.eof = true
		return nil // nothing but a header: no record, which the caller says
	}
	return &record.ReadError{Source: record.Source{File: r.name, Game: 1}, Err: err}
}

// readSlot reads the next 4096-byte slot (shorter at the end of the
// file); nil at the end.
func (r *Reader) readSlot(dst []byte) ([]byte, int64, error) {
	at := r.off
	start := len(dst)
	dst = append(dst, make([]byte, slotSize)...)
	n, err := io.ReadFull(r.src, dst[start:])
	r.off += int64(n)
	dst = dst[:start+n]
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		r.eof, err = true, nil
	}
	return dst, at, err
}

// nextInLibrary gathers the slots of the next record: a slot that starts
// with the record magic, and the slots after it that do not.
func (r *Reader) nextInLibrary() (*record.Record, error) {
	for {
		r.buf = r.buf[:0]
		var at int64
		if r.hasNext {
			r.buf, at = append(r.buf, r.next[:r.nextLen]...), r.nextAt
			r.hasNext = false
		} else {
			if r.eof {
				r.done = true
				return nil, io.EOF
			}
			var err error
			if r.buf, at, err = r.readSlot(r.buf); err != nil {
				r.done = true
				return nil, &record.ReadError{Source: record.Source{File: r.name, Game: r.game + 1, Offset: at}, Err: err}
			}
			if len(r.buf) == 0 {
				r.done = true
				return nil, io.EOF
			}
			if !bytes.HasPrefix(r.buf, RecordMagic) {
				continue // a slot of no record (left over after an edit)
			}
		}
		r.game++
		src := record.Source{File: r.name, Game: r.game, Offset: at}
		tooLarge := false
		for !r.eof {
			mark := len(r.buf)
			slotBuf, slotAt, err := r.readSlot(r.buf)
			r.buf = slotBuf
			if err != nil {
				r.done = true
				return nil, &record.ReadError{Source: src, Cut: true, Err: err}
			}
			slot := r.buf[mark:]
			if len(slot) == 0 {
				break
			}
			if bytes.HasPrefix(slot, RecordMagic) {
				// The next record starts here: keep its first slot aside.
				r.nextLen = copy(r.next[:], slot)
				r.nextAt, r.hasNext = slotAt, true
				r.buf = r.buf[:mark]
				break
			}
			if len(r.buf) > MaxRecordSize {
				// Skip the rest of an oversized record, holding no more
				// than one slot of it.
				tooLarge = true
				r.buf = r.buf[:0]
			}
		}
		if tooLarge {
			return nil, &record.ParseError{Source: src, Err: fmt.Errorf("cbl: %w (limit %d bytes)", record.ErrRecordTooLarge, MaxRecordSize)}
		}
		return r.parse(r.buf, src, r.eof && !r.hasNext)
	}
}

// parse decodes one record's bytes into the reader's record (or a new
// one).
func (r *Reader) parse(data []byte, src record.Source, last bool) (*record.Record, error) {
	rec := r.rec
	if rec == nil || !r.ReuseRecord {
		rec = &record.Record{}
		if r.ReuseRecord {
			r.rec = rec
		}
	}
	return r.p.parse(data, src, rec, r.ReuseRecord, last)
}

// Parse reads one record (a .cbr file, or one record of a library) held
// in data into a new record; its Raw is data itself. A record whose move
// stream runs past the end of data gives a *record.ReadError wrapping
// record.ErrTruncated, Cut, and no record (as for a cut XQF file, the
// moves up to there would make a shorter game that keeps the header's
// result).
func Parse(data []byte, name string) (*record.Record, error) {
	var p parser
	return p.parse(data, record.Source{File: name, Game: 1}, &record.Record{}, false, true)
}
