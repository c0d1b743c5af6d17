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

	"github.com/xqdb/xqdb/importer/dhtmlxq"
	"github.com/xqdb/xqdb/importer/pgn"
	"github.com/xqdb/xqdb/importer/textenc"
	"github.com/xqdb/xqdb/importer/xqf"
)

// Format names, as Reader.Format and Record.Format report them.
const (
	FormatPGN         = "pgn"
	FormatXQF         = "xqf"
	FormatDhtmlXQ     = "dhtmlxq"
	FormatUnsupported = "unsupported"
)

// sniffSize is how far into a text file the DhtmlXQ markers are looked
// for (files named .html or .htm are DhtmlXQ whatever their head says).
const sniffSize = 16 << 10

// unsupported lists record formats met in real archives that xqdb does
// not read (NOTATIONS §9). A file of one of these yields one
// ErrUnsupportedFormat error instead of silence.
var unsupported = map[string]string{
	".cbl": "CCBridge (象棋桥) library", ".cbr": "CCBridge (象棋桥) record", ".cbf": "CCBridge (象棋桥) record",
	".mxq": "象棋魔法师 record", ".ccm": "中国游戏中心 record", ".che": "CHE record", ".chn": "CHN record",
	".pfc": "鹏飞象棋 record", ".cbh": "ChessBase database", ".cbv": "ChessBase archive",
	".si4": "Scid database", ".si5": "Scid database", ".pgi": "PGN index",
	".zip": "zip archive", ".rar": "rar archive", ".7z": "7z archive", ".tar": "tar archive", ".tgz": "tar archive",
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
	// Format is the detected format, set by the first call to Next.
	Format string

	src       io.Reader
	name      string
	closer    io.Closer
	r         recordReader
	configure func() // passes ReuseRecord and MainLineOnly on
	err       error
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
// next call goes on. Other errors (I/O, corrupt gzip) are sticky.
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
	if err != nil {
		if _, ok := err.(*ParseError); !ok {
			r.err = err
		}
	}
	return rec, err
}

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

// sniff picks the format reader: gzip is unwrapped by its magic bytes,
// then XQF by its "XQ" magic (or a .xqf name), DhtmlXQ by an opener in the
// first 64 KB (or an .html name), a known unsupported extension yields
// ErrUnsupportedFormat, and everything else is read as PGN.
func (r *Reader) sniff() error {
	name := r.name
	br := bufio.NewReaderSize(r.src, sniffSize)
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return fmt.Errorf("importer: %s: %w", r.name, err)
		}
		br = bufio.NewReaderSize(zr, sniffSize)
		name = strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".GZ")
	}
	ext := strings.ToLower(filepath.Ext(name))
	head, _ := br.Peek(sniffSize)
	switch {
	case len(head) >= 3 && head[0] == 'X' && head[1] == 'Q' && head[2] < 0x20, ext == ".xqf":
		r.use(FormatXQF, xqf.NewReader(br, r.name))
	case ext == ".html" || ext == ".htm" || bytes.Contains(head, []byte("[DhtmlXQ")) || bytes.Contains(head, []byte("[DHJHtmlXQ")):
		r.use(FormatDhtmlXQ, dhtmlxq.NewReader(br, r.name))
	case unsupported[ext] != "":
		r.use(FormatUnsupported, &unsupportedReader{name: r.name, what: unsupported[ext] + " (" + ext + ")"})
	default:
		r.use(FormatPGN, pgn.NewReader(br, r.name))
	}
	return nil
}

func (r *Reader) use(format string, rr recordReader) {
	r.Format = format
	r.r = rr
	switch x := rr.(type) {
	case *pgn.Reader:
		r.configure = func() { x.ReuseRecord, x.MainLineOnly, x.Encoding = r.ReuseRecord, r.MainLineOnly, r.Encoding }
	case *xqf.Reader:
		r.configure = func() { x.ReuseRecord, x.Encoding = r.ReuseRecord, r.Encoding }
	case *dhtmlxq.Reader:
		r.configure = func() { x.ReuseRecord, x.Encoding = r.ReuseRecord, r.Encoding }
	default:
		r.configure = func() {}
	}
}

// unsupportedReader yields one ErrUnsupportedFormat error.
type unsupportedReader struct {
	name, what string
	done       bool
}

func (u *unsupportedReader) Next() (*Record, error) {
	if u.done {
		return nil, io.EOF
	}
	u.done = true
	return nil, &ParseError{Source: Source{File: u.name},
		Err: fmt.Errorf("importer: %w: %s", ErrUnsupportedFormat, u.what)}
}
