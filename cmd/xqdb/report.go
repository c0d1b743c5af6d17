package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/xqdb/xqdb/importer"
)

// reportWriter writes --report lines; a nil one writes nothing.
type reportWriter struct{ w *bufio.Writer }

func newReportWriter(w io.Writer) *reportWriter { return &reportWriter{bufio.NewWriter(w)} }

func (r *reportWriter) write(l reportLine) error {
	if r == nil {
		return nil
	}
	return writeJSON(r.w, l)
}

// unreadableFile reports a file (or archive member) that gave no game at
// all, empty, garbage, of a format xqdb does not read, with one line on
// stderr; it returns its --report line, and false for any other item.
// Such a file counts among the files, not the games.
func unreadableFile(it *item, stderr io.Writer) (reportLine, bool) {
	if it.readErr == nil {
		return reportLine{}, false // the common case, without errors.As's allocation
	}
	var ue *importer.UnreadableError
	if !errors.As(it.readErr, &ue) {
		return reportLine{}, false
	}
	fmt.Fprintf(stderr, "xqdb: %v\n", ue)
	return reportLine{File: ue.File, Kind: "unreadable", Reason: ue.Reason}, true
}

// notAGame reports a record that its format says holds no game, such as
// the section titles of a CCBridge library: it returns its --report line
// (kind "not_a_game"), and false for any other item. Such a record counts
// neither among the games nor among the rejected ones.
func notAGame(it *item) (reportLine, bool) {
	if it.hasRec || !errors.Is(it.readErr, importer.ErrNotAGame) {
		return reportLine{}, false
	}
	return rejectLine(it), true
}

// firstError runs every close function and returns err, or else the
// first error they return: the outputs of a command are all flushed even
// when one fails.
func firstError(err error, closers ...func() error) error {
	for _, c := range closers {
		if cerr := c(); err == nil {
			err = cerr
		}
	}
	return err
}

func (r *reportWriter) flush() error {
	if r == nil {
		return nil
	}
	return r.w.Flush()
}
