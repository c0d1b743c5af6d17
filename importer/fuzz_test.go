package importer_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/xqdb/xqdb/importer"
)

// FuzzReader: whatever the bytes and the name (archives of any depth,
// gzip, XQF, DhtmlXQ, PGN, garbage), reading ends without a panic, every
// error is a known kind, and a sticky one ends the file.
func FuzzReader(f *testing.F) {
	t := &testing.T{}
	f.Add([]byte(nil), "a.pgn")
	f.Add(tarOf(t, member{"a.pgn", "1. e4 *\n"}, member{"b", "XQ\x0a"}), "a.tar")
	f.Add(gzipped(tarOf(t, member{"z.zip", string(zipOf(t, member{"x.pgn", "1. d4 *\n"}))})), "a.tgz")
	f.Add(zipOf(t, member{"x.xqf", "XQ\x12"}, member{"y.html", "[DhtmlXQ][/DhtmlXQ]"}), "a.zip")
	f.Add(gzipped([]byte("1. e4 *")), "a.pgn.gz")
	f.Add(append([]byte("CCBridge Record\x00"), make([]byte, 0x8A0)...), "a.cbr")
	f.Add(tarOf(t, member{"l.cbl", "CCBridgeLibrary\x00\x03"}), "a.tar")
	f.Fuzz(func(t *testing.T, data []byte, name string) {
		r := importer.NewReader(bytes.NewReader(data), name)
		for n := 0; ; n++ {
			if n > 4*len(data)+10 {
				t.Fatalf("%d records or errors from %d bytes", n, len(data))
			}
			_, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil && r.Err() != nil {
				if r.Err() != err {
					t.Fatalf("sticky %v, returned %v", r.Err(), err)
				}
				var ue *importer.UnreadableError
				var re *importer.ReadError
				if !errors.As(err, &ue) && !errors.As(err, &re) && !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Logf("other sticky error: %v", err)
				}
				return
			}
		}
	})
}
