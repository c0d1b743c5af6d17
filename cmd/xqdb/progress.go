package main

import (
	"io"
	"os"

	"github.com/schollz/progressbar/v3"
)

// newProgress returns a byte-count progress function that draws a bar on
// stderr when stderr is a terminal, and nothing otherwise (scripts, CI).
func newProgress(stderr io.Writer, total int64, what string) (progress func(int64), finish func()) {
	f, ok := stderr.(*os.File)
	if !ok {
		return nil, func() {}
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return nil, func() {}
	}
	bar := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(f),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowBytes(true),
		progressbar.OptionShowCount(),
		progressbar.OptionThrottle(100_000_000),
		progressbar.OptionClearOnFinish(),
	)
	return func(n int64) { _ = bar.Add64(n) }, func() { _ = bar.Finish() }
}

// totalSize sums the sizes of files (the progress bar's end).
func totalSize(files []string) int64 {
	var n int64
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			n += fi.Size()
		}
	}
	return n
}
