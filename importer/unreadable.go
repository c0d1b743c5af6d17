package importer

import "errors"

// Reasons an UnreadableError wraps; test them with errors.Is. Known
// formats xqdb does not read wrap ErrUnsupportedFormat, an XQF file
// without its magic ErrBadMagic.
var (
	// ErrEmptyFile is returned for a file (or archive member, or gzip
	// stream) of no bytes.
	ErrEmptyFile = errors.New("empty file")
	// ErrNoGames is returned for a file that was read to its end and held
	// no game record: prose, a page without a DhtmlXQ block, an archive
	// without a game file.
	ErrNoGames = errors.New("no game found")
	// ErrBinary is returned for binary data of no format xqdb knows.
	ErrBinary = errors.New("binary data of no known format")
	// ErrBadArchive is returned for a gzip, tar or zip archive that
	// cannot be read.
	ErrBadArchive = errors.New("archive cannot be read")
)

// UnreadableError reports a file, or a member of an archive, from which
// no game could be read at all: empty, of a format xqdb does not read,
// garbage, an archive that cannot be opened, or text holding no game. It
// concerns the file, not a game: reading it ends there (in an archive,
// the next member is read).
type UnreadableError struct {
	File   string // the path, "archive!member" inside an archive
	Reason string // what a person reads: why the file gave nothing
	Err    error  // one of the reasons above, maybe wrapping an I/O error
}

// Error formats the error as "file: unreadable: reason".
func (e *UnreadableError) Error() string { return e.File + ": unreadable: " + e.Reason }

// Unwrap returns the reason.
func (e *UnreadableError) Unwrap() error { return e.Err }
