package importer

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// readable are the extensions Walk reads inside folders (case-insensitive;
// ".gz" whatever it wraps).
var readable = map[string]bool{".pgn": true, ".xqf": true, ".txt": true, ".html": true, ".htm": true, ".gz": true,
	".zip": true, ".tar": true, ".tgz": true, ".cbl": true, ".cbr": true}

// SkipFile, returned by a WalkFunc, skips the rest of the current file.
var SkipFile = errors.New("skip this file")

// WalkFunc is called for every record (err nil or a *ParseError with a
// record) and every error (rec nil) that Walk meets. Returning SkipFile
// skips the rest of the file; any other non-nil error stops the walk and
// Walk returns it.
type WalkFunc func(rec *Record, err error) error

// Files lists the files Walk would read under paths, in lexical order per
// folder: files named directly are always listed; inside folders, files
// with a readable extension (.pgn .xqf .txt .html .htm .gz .zip .tar
// .tgz .cbl .cbr) and files of a known unsupported format (.cbf .mxq …, which Walk
// reports as unreadable, ErrUnsupportedFormat). Other files are left out
// silently.
func Files(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return out, err
		}
		if !fi.IsDir() {
			out = append(out, p)
			continue
		}
		var files []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() && wanted(path) {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return out, err
		}
		sort.Strings(files)
		out = append(out, files...)
	}
	return out, nil
}

func wanted(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return readable[ext] || unsupported[ext] != ""
}

// Walk reads every record of every file under paths (see Files) and calls
// fn with each. Records are not reused: fn may keep them.
func Walk(paths []string, fn WalkFunc) error {
	files, err := Files(paths)
	if err != nil {
		if ferr := fn(nil, err); ferr != nil && ferr != SkipFile {
			return ferr
		}
	}
	for _, f := range files {
		if err := walkFile(f, fn); err != nil {
			return err
		}
	}
	return nil
}

func walkFile(path string, fn WalkFunc) error {
	r, err := Open(path)
	if err != nil {
		return skip(fn(nil, &UnreadableError{File: path, Reason: fmt.Sprintf("cannot be opened (%v)", err), Err: err}))
	}
	defer r.Close()
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if ferr := fn(rec, err); ferr != nil {
			return skip(ferr)
		}
		if err != nil && r.err != nil {
			return nil // sticky: nothing more from this file
		}
	}
}

// skip maps SkipFile to "go on with the next file".
func skip(err error) error {
	if err == SkipFile {
		return nil
	}
	return err
}
