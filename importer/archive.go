package importer

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode/utf8"

	"github.com/xqdb/xqdb/importer/textenc"
)

// MaxZipInMemory bounds a zip archive read from a stream (a zip inside a
// tar, a gzipped zip): zip needs random access, so such an archive is read
// into memory first. A zip file on disk is read in place.
const MaxZipInMemory = 64 << 20

// memberSniff is how much of a member whose name says nothing is looked
// at for a game format's magic (a tar header's is at byte 257).
const memberSniff = 512

// archiveReader reads the members of a tar or zip archive as the files of
// a folder: each member with a name Walk would read, or with the magic of
// a binary game format (XQF without its extension, a nested archive), gets
// its own Reader, sniffed by content and name, named "archive!member". A
// member that cannot be read is reported and the next one read; only an
// archive that cannot be read further ends the whole.
type archiveReader struct {
	parent *Reader
	kind   string // "tar" or "zip"
	next   func() (name string, data io.Reader, done func(), err error)

	cur      *Reader
	curDone  func()
	curFound bool // the current member gave a record or an error
	members  int  // regular files met
	found    int  // members that gave a record or an error
	lastCut  bool // the last member ended with a ReadError (the archive is cut)
	failed   bool // the archive itself cannot be read further
}

func (a *archiveReader) Next() (*Record, error) {
	for {
		if a.cur == nil {
			name, data, done, err := a.next()
			if err == io.EOF {
				if a.found == 0 {
					a.failed = true
					return nil, &UnreadableError{File: a.parent.name, Err: ErrNoGames,
						Reason: fmt.Sprintf("no game file among its %d members", a.members)}
				}
				return nil, io.EOF
			}
			if err != nil {
				a.failed = true
				if a.lastCut {
					return nil, io.EOF // the member cut off said so already
				}
				reason := fmt.Sprintf("not a readable %s archive (%v)", a.kind, err)
				if a.members > 0 {
					reason = fmt.Sprintf("the %s archive cannot be read past its member %d (%v)", a.kind, a.members, err)
				}
				return nil, &UnreadableError{File: a.parent.name, Reason: reason, Err: fmt.Errorf("%w: %w", ErrBadArchive, err)}
			}
			a.members++
			br := bufio.NewReaderSize(data, sniffSize)
			if !wanted(name) {
				head, _ := br.Peek(memberSniff)
				if !binaryGame(head) {
					done()
					continue // left out, as in a folder
				}
			}
			a.cur = NewReader(br, a.parent.name+"!"+name)
			a.curDone, a.curFound = done, false
		}
		a.cur.ReuseRecord, a.cur.MainLineOnly, a.cur.Encoding = a.parent.ReuseRecord, a.parent.MainLineOnly, a.parent.Encoding
		rec, err := a.cur.Next()
		if err == io.EOF {
			a.endMember()
			continue
		}
		if !a.curFound {
			a.curFound = true
			a.found++
		}
		if err != nil && a.cur.err != nil { // the member is done
			var re *ReadError
			a.lastCut = errors.As(err, &re)
			a.endMember()
		}
		return rec, err
	}
}

func (a *archiveReader) endMember() {
	if a.curDone != nil {
		a.curDone()
	}
	a.cur, a.curDone = nil, nil
}

// binaryGame reports whether a member's first bytes are those of a format
// read by content whatever the name: XQF, gzip, tar, zip.
func binaryGame(head []byte) bool {
	return isXQF(head) || isGzip(head) || isTar(head) || isZip(head)
}

func isXQF(head []byte) bool {
	return len(head) >= 3 && head[0] == 'X' && head[1] == 'Q' && head[2] < 0x20
}
func isGzip(head []byte) bool { return len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b }
func isZip(head []byte) bool  { return bytes.HasPrefix(head, []byte("PK\x03\x04")) }

// isTar: POSIX and GNU tar headers say "ustar" at byte 257.
func isTar(head []byte) bool { return len(head) >= 262 && string(head[257:262]) == "ustar" }

// useTar reads br as a tar stream.
func (r *Reader) useTar(br *bufio.Reader) {
	tr := tar.NewReader(br)
	nop := func() {}
	r.useArchive("tar", func() (string, io.Reader, func(), error) {
		for {
			h, err := tr.Next()
			if err != nil {
				return "", nil, nil, err
			}
			if h.FileInfo().Mode().IsRegular() {
				return memberName(h.Name), tr, nop, nil
			}
		}
	})
}

// useZip reads a zip archive: in place when it is the file Open opened,
// else from memory. It reports false, having set r.err, when the archive
// cannot be opened.
func (r *Reader) useZip(br *bufio.Reader, gz bool) error {
	var ra io.ReaderAt
	var size int64
	if f, ok := r.src.(*os.File); ok && !gz {
		fi, err := f.Stat()
		if err != nil {
			return err
		}
		ra, size = f, fi.Size()
	} else {
		data, err := io.ReadAll(io.LimitReader(br, MaxZipInMemory+1))
		if err != nil {
			return r.unreadable(fmt.Sprintf("not a readable zip archive (%v)", err), fmt.Errorf("%w: %w", ErrBadArchive, err))
		}
		if len(data) > MaxZipInMemory {
			return r.unreadable(fmt.Sprintf("a zip archive inside a stream larger than %d MiB", MaxZipInMemory>>20), ErrBadArchive)
		}
		ra, size = bytes.NewReader(data), int64(len(data))
	}
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		return r.unreadable(fmt.Sprintf("not a readable zip archive (%v)", err), fmt.Errorf("%w: %w", ErrBadArchive, err))
	}
	i := 0
	r.useArchive("zip", func() (string, io.Reader, func(), error) {
		for i < len(zr.File) {
			f := zr.File[i]
			i++
			if !f.Mode().IsRegular() {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				// The member is reported unreadable when its reader reads.
				return memberName(f.Name), errReader{err}, func() {}, nil
			}
			return memberName(f.Name), rc, func() { rc.Close() }, nil
		}
		return "", nil, nil, io.EOF
	})
	return nil
}

func (r *Reader) useArchive(kind string, next func() (string, io.Reader, func(), error)) {
	r.Format = FormatArchive
	a := &archiveReader{parent: r, kind: kind, next: next}
	r.r = a
	r.configure = func() {}
}

// memberName returns an archive member's name as UTF-8: old Chinese
// archives store GBK or Big5 names without saying so.
func memberName(name string) string {
	if utf8.ValidString(name) {
		return name
	}
	b := []byte(name)
	return string(textenc.Detect(b, textenc.GBK).AppendUTF8(nil, b))
}

// errReader fails every read with err.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
