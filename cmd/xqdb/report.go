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

func (r *reportWriter) flush() error {
	if r == nil {
		return nil
	}
	return r.w.Flush()
}
