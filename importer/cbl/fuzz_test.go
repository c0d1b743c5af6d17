package cbl_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/importer/cbl"
	"github.com/xqdb/xqdb/importer/record"
)

// FuzzCBL: no input panics; reading ends (io.EOF, or a sticky error that
// is not a ParseError); a record's spans lie in its text, its moves are
// ICCS squares on the board, and its FEN has ten ranks.
func FuzzCBL(f *testing.F) {
	for _, name := range []string{"test.cbr", "test2.cbr"} {
		if b, err := os.ReadFile(filepath.Join("..", "testdata", "cbl", name)); err == nil {
			f.Add(b)
		}
	}
	tree := line("h2e2", "h7e7", "h0g2")
	tree.alts = []*tnode{line("b2e2")}
	tree.comment = "评"
	r := encode(rec{board: startBoard(), first: tree, rootComment: "开"})
	f.Add(r)
	f.Add(library(1, r, encode(rec{})))
	f.Fuzz(func(t *testing.T, data []byte) {
		cr := cbl.NewReader(bytes.NewReader(data), "fuzz.cbl")
		for n := 0; ; n++ {
			if n > len(data)/16+2 {
				t.Fatalf("%d records from %d bytes", n, len(data))
			}
			rec, err := cr.Next()
			if err == io.EOF {
				return
			}
			if rec != nil {
				check(t, rec)
			}
			var pe *record.ParseError
			if err != nil && !errors.As(err, &pe) {
				if _, err := cr.Next(); err != io.EOF {
					t.Fatalf("after a sticky error: %v", err)
				}
				return
			}
			if pe != nil && pe.Source.Game == 0 { // the file as a whole
				return
			}
		}
	})
}

func check(t *testing.T, rec *record.Record) {
	if strings.Count(rec.FEN, "/") != 9 {
		t.Fatalf("FEN %q", rec.FEN)
	}
	for _, e := range rec.Elements {
		if e.Start < 0 || e.End < e.Start || int(e.End) > len(rec.Text) {
			t.Fatalf("element [%d,%d) outside %d bytes", e.Start, e.End, len(rec.Text))
		}
		if e.Kind == record.Move {
			m := rec.TokenText(e)
			if len(m) != 4 || m[0] < 'a' || m[0] > 'i' || m[1] < '0' || m[1] > '9' || m[2] < 'a' || m[2] > 'i' || m[3] < '0' || m[3] > '9' {
				t.Fatalf("move %q is not ICCS", m)
			}
		}
	}
}
