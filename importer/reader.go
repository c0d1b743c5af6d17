package importer

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strings"

	"github.com/xqdb/xqdb/importer/cbl"
	"github.com/xqdb/xqdb/importer/dhtmlxq"
	"github.com/xqdb/xqdb/importer/pgn"
	"github.com/xqdb/xqdb/importer/textenc"
	"github.com/xqdb/xqdb/importer/xqf"
)

// Format names, as Reader.Format and Record.Format report them.
const (
	FormatPGN     = "pgn"
	FormatXQF     = "xqf"
	FormatDhtmlXQ = "dhtmlxq"
	// FormatCBL is a CCBridge (象棋桥) library (.cbl) or record (.cbr).
	FormatCBL         = "cbl"
	FormatUnsupported = "unsupported"
	// FormatArchive is a tar or zip archive (gzipped or not), whose
	// members are read as files.
	FormatArchive = "archive"
)

// sniffSize is how far into a text file the DhtmlXQ markers are looked
// for (files named .html or .htm are DhtmlXQ whatever their head says).
const sniffSize = 16 << 10

// unsupported lists record formats met in real archives that xqdb does
// not read (NOTATIONS §9). A file of one of these yields one
// UnreadableError wrapping ErrUnsupportedFormat instead of silence.
var unsupported = map[string]string{
	".cbf": "CCBridge (象棋桥) XML record",
	".mxq": "象棋魔法师 record", ".ccm": "中国游戏中心 record", ".che": "CHE record", ".chn": "CHN record",
	".pfc": "鹏飞象棋 record", ".cbh": "ChessBase database", ".cbv": "ChessBase archive",
	".si4": "Scid database", ".si5": "Scid database", ".pgi": "PGN index",
	".rar": "rar archive", ".7z": "7z archive",
}

// recordReader is what the format readers have in common.
type recordReader interface {
	Next() (*Record, error)
}

// Reader reads the records of one file or stream, whatever its format.
type Reader struct {
	// ReuseRecord makes Next return the same *Record every time, valid
	// until the next call (see pgn.Reader.ReuseRecord).
	ReuseRecord bool
	// MainLineOnly tells the readers that only the main line's moves,
	// its result and the tags are wanted (see pgn.Reader.MainLineOnly).
	MainLineOnly bool
	// Encoding, when not textenc.Auto, is the encoding every record is
	// decoded from, whatever detection (or, for XQF, the format) says.
	Encoding textenc.Encoding
	// NoMoveNumbers tells the readers that every element but the move
	// numbers is wanted (see pgn.Reader.NoMoveNumbers).
	NoMoveNumbers bool
	// Format is the detected format, set by the first call to Next.
	Format string

	src       io.Reader
	name      string
	closer    io.Closer
	r         recordReader
	configure func() // passes ReuseRecord and MainLineOnly on
	err       error
	found     bool // a record or an error was returned
}

// NewReader returns a reader of r; name (a path or an archive member
// name) is reported in every record's Source and its extension helps
// the format sniffing.
func NewReader(r io.Reader, name string) *Reader { return &Reader{src: r, name: name} }

// Open opens the file at path for reading. Close it when done.
func Open(path string) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r := NewReader(f, path)
	r.closer = f
	return r, nil
}

// Close closes the file Open opened; it is a no-op for NewReader.
func (r *Reader) Close() error {
	if r.closer == nil {
		return nil
	}
	err := r.closer.Close()
	r.closer = nil
	return err
}

// Next returns the next record, or io.EOF after the last. A *ParseError
// concerns one record: with a non-nil record it describes a tolerated
// defect, with a nil one a record that could not be read; either way the
// next call goes on. An *UnreadableError says the file gave no game at all
// (empty, garbage, a format xqdb does not read, no game in it), a
// *ReadError that it ends early; they and other errors (I/O) are sticky,
// see Err. In an archive, a member's errors end that member only.
func (r *Reader) Next() (*Record, error) {
	if r.err != nil {
		return nil, r.err
	}
	if r.r == nil {
		if err := r.sniff(); err != nil {
			r.err = err
			return nil, err
		}
	}
	r.configure()
	rec, err := r.r.Next()
	switch err.(type) {
	case nil, *ParseError:
		r.found = true
	default:
		if err == io.EOF {
			if !r.found && r.Format != FormatArchive {
				// Read to its end without a record or an error: say so.
				r.err = &UnreadableError{File: r.name, Reason: "no game found in it", Err: ErrNoGames}
				return nil, r.err
			}
			return nil, io.EOF
		}
		r.found = true
		if a, ok := r.r.(*archiveReader); !ok || a.failed {
			r.err = err
		}
	}
	return rec, err
}

// Err returns the sticky error that ended the file, nil while Next may
// give more.
func (r *Reader) Err() error { return r.err }

// All returns an iterator over the remaining records and their errors;
// it stops after io.EOF or a sticky error (which it yields).
func (r *Reader) All() iter.Seq2[*Record, error] {
	return func(yield func(*Record, error) bool) {
		for {
			rec, err := r.Next()
			if err == io.EOF {
				return
			}
			if !yield(rec, err) {
				return
			}
			if err != nil && r.err != nil {
				return
			}
		}
	}
}

// sniff picks the format reader: gzip is unwrapped by its magic bytes;
// then a tar or zip archive by its magic (or name), XQF by its "XQ" magic
// (a .xqf name without it is unreadable), CCBridge by its
// "CCBridgeLibrary" or "CCBridge Record" magic (an older, compressed
// CCBridge file and a .cbl or .cbr name without either are unreadable),
// DhtmlXQ by an opener in the
// first 16 KB (or an .html name); a known unsupported extension, binary
// data and an empty stream are unreadable, and everything else is read as
// PGN.
func (r *Reader) sniff() error {
	name := r.name
	br := bufio.NewReaderSize(r.src, sniffSize)
	gz := false
	if head, err := br.Peek(2); isGzip(head) {
		zr, err := gzip.NewReader(br)
		if err == io.EOF {
			return r.unreadable("empty file", ErrEmptyFile)
		}
		if err != nil {
			return r.unreadable(fmt.Sprintf("corrupt gzip stream (%v)", err), fmt.Errorf("%w: %w", ErrBadArchive, err))
		}
		br = bufio.NewReaderSize(zr, sniffSize)
		name = strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".GZ")
		gz = true
	} else if len(head) == 0 && err != nil && err != io.EOF {
		return r.unreadable(fmt.Sprintf("cannot be read (%v)", err), err)
	}
	ext := strings.ToLower(filepath.Ext(name))
	head, err := br.Peek(sniffSize)
	if len(head) == 0 {
		if err == io.EOF {
			return r.unreadable("empty file", ErrEmptyFile)
		}
		return r.unreadable(fmt.Sprintf("cannot be read (%v)", err), err)
	}
	switch {
	case isTar(head) || ext == ".tar" || ext == ".tgz":
		r.useTar(br)
	case isZip(head) || ext == ".zip":
		return r.useZip(br, gz)
	case isXQF(head):
		r.use(FormatXQF, xqf.NewReader(br, r.name))
	case ext == ".xqf":
		r.Format = FormatXQF
		return r.unreadable("not an XQF file: it does not start with \"XQ\"", ErrBadMagic)
	case bytes.HasPrefix(head, cbl.LibraryMagic) || bytes.HasPrefix(head, cbl.RecordMagic):
		r.use(FormatCBL, cbl.NewReader(br, r.name))
	case bytes.HasPrefix(head, []byte("CCBridge")):
		// walker8088's 残局的生死棋型.CBL: "CCBridge", 0x15, 3, a size, then
		// a zlib stream of GBK text in another layout.
		r.Format = FormatUnsupported
		return r.unreadable("CCBridge (象棋桥) file of an older, compressed version: a format xqdb does not read", ErrUnsupportedFormat)
	case ext == ".cbl" || ext == ".cbr":
		r.Format = FormatCBL
		return r.unreadable("not a CCBridge file: it does not start with \"CCBridgeLibrary\" or \"CCBridge Record\"", ErrBadMagic)
	case ext == ".html" || ext == ".htm" || bytes.Contains(head, []byte("[DhtmlXQ")) || bytes.Contains(head, []byte("[DHJHtmlXQ")):
		r.use(FormatDhtmlXQ, dhtmlxq.NewReader(br, r.name))
	case unsupported[ext] != "":
		r.Format = FormatUnsupported
		return r.unreadable(unsupported[ext]+" ("+ext+"): a format xqdb does not read", ErrUnsupportedFormat)
	case isBinary(head):
		return r.unreadable("binary data of no known game format", ErrBinary)
	default:
		r.use(FormatPGN, pgn.NewReader(br, r.name))
	}
	return nil
}

// unreadable returns the UnreadableError of the reader's file.
func (r *Reader) unreadable(reason string, err error) error {
	return &UnreadableError{File: r.name, Reason: reason, Err: err}
}

// isBinary reports whether head is not text: more than one byte in ten a
// control character other than white space (a PGN with a few NULs is
// still text). UTF-16 text starts with its byte order mark.
func isBinary(head []byte) bool {
	if len(head) >= 2 && (head[0] == 0xFF && head[1] == 0xFE || head[0] == 0xFE && head[1] == 0xFF) {
		return false
	}
	n := 0
	for _, c := range head {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0x1A || c == 0x7F {
			n++
		}
	}
	return n*10 > len(head)
}

func (r *Reader) use(format string, rr recordReader) {
	r.Format = format
	r.r = rr
	switch x := rr.(type) {
	case *pgn.Reader:
		r.configure = func() {
			x.ReuseRecord, x.MainLineOnly, x.NoMoveNumbers, x.Encoding = r.ReuseRecord, r.MainLineOnly, r.NoMoveNumbers, r.Encoding
		}
	case *xqf.Reader:
		r.configure = func() { x.ReuseRecord, x.Encoding = r.ReuseRecord, r.Encoding }
	case *dhtmlxq.Reader:
		r.configure = func() { x.ReuseRecord, x.Encoding = r.ReuseRecord, r.Encoding }
	case *cbl.Reader:
		// CCBridge text is UTF-16LE by format: --encoding does not apply.
		r.configure = func() { x.ReuseRecord = r.ReuseRecord }
	default:
		r.configure = func() {}
	}
}
