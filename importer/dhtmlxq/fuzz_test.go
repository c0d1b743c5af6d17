package dhtmlxq_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/xqdb/xqdb/importer/dhtmlxq"
	"github.com/xqdb/xqdb/importer/record"
)

// FuzzDhtmlXQ: no page panics or loops; spans lie in the text; raw bytes
// are the input's at the record's offset.
func FuzzDhtmlXQ(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "testdata", "dhtmlxq", "wukong-44.html")); err == nil {
		f.Add(b)
	}
	for _, s := range []string{
		"[DhtmlXQ][DhtmlXQ_binit]0919293949596979891777062646668600102030405060708012720323436383[/DhtmlXQ_binit][DhtmlXQ_movelist]77477967[/DhtmlXQ_movelist][/DhtmlXQ]",
		"[DhtmlXQ][DhtmlXQ_movelist]774772427967[/DhtmlXQ_movelist][DhtmlXQ_move_0_2_1]7062[/DhtmlXQ_move_0_2_1][DhtmlXQ_move_1_3_2]7967[/DhtmlXQ_move_1_3_2][DhtmlXQ_comment1_2]a||\\u4e2d[/DhtmlXQ_comment1_2][/DhtmlXQ]",
		"[DHJHtmlXQ][DHJHtmlXQ_34]4041[/DHJHtmlXQ_34][DHJHtmlXQ_31]****k****[/DHJHtmlXQ_31]",
		"[DhtmlXQ][DhtmlXQ_move_1_1_2]77[DhtmlXQ_move_2_1_1]7747[/DhtmlXQ]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		r := dhtmlxq.NewReader(bytes.NewReader(in), "fuzz.html")
		for n := 0; ; n++ {
			if n > len(in) {
				t.Fatalf("%d records from %d bytes", n, len(in))
			}
			rec, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil && !errors.As(err, new(*record.ParseError)) {
				t.Fatal(err)
			}
			if rec == nil {
				continue
			}
			off := rec.Source.Offset
			if off+int64(len(rec.Raw)) > int64(len(in)) || !bytes.Equal(in[off:off+int64(len(rec.Raw))], rec.Raw) {
				t.Fatalf("raw is not the input at %d", off)
			}
			for _, e := range rec.Elements {
				if e.Start < 0 || e.End < e.Start || int(e.End) > len(rec.Text) {
					t.Fatalf("element [%d,%d) outside %d bytes", e.Start, e.End, len(rec.Text))
				}
			}
		}
	})
}
