package xqf_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/importer/record"
	"github.com/xqdb/xqdb/importer/xqf"
)

// FuzzXQF: no file panics; a record's spans lie in its text, its moves
// are ICCS squares on the board, and its FEN has ten ranks.
func FuzzXQF(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "xqf", "*"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	tree := line("h2e2", "h7e7", "h0g2")
	tree.alts = []*tnode{line("b2e2")}
	for _, v := range []byte{10, 11, 12, 18} {
		f.Add(encode(v, startSquares, "c", tree, 1))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, _ := xqf.Parse(data, "fuzz.xqf")
		if rec == nil {
			return
		}
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
	})
}
