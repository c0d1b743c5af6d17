package main

import (
	"bufio"
	"io"
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
