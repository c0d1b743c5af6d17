package importer_test

import (
	"bytes"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"

	"github.com/xqdb/xqdb/importer"
	"github.com/xqdb/xqdb/importer/textenc"
)

// TestEncodingOverride: Reader.Encoding (--encoding) decodes every record
// of every format from the encoding given, for files that are not what
// detection thinks: a short GBK name that is valid UTF-8, GBK text that
// looks like Big5.
func TestEncodingOverride(t *testing.T) {
	gbk := func(s string) string { b, _ := simplifiedchinese.GBK.NewEncoder().String(s); return b }
	big5 := func(s string) string { b, _ := traditionalchinese.Big5.NewEncoder().String(s); return b }
	tests := []struct {
		name, file, data string
		enc              textenc.Encoding
		want             string
		wantEnc          string
	}{
		{"PGN, GBK valid as UTF-8, detected", "a.pgn", "[Red \"" + gbk("谢小然") + "\"]\n\n1. h2e2 *\n", textenc.Auto, "\xd0\xbb\xd0\xa1\xc8\xbb", "utf-8"},
		{"PGN, GBK valid as UTF-8, --encoding gbk", "a.pgn", "[Red \"" + gbk("谢小然") + "\"]\n\n1. h2e2 *\n", textenc.GBK, "谢小然", "gbk"},
		{"PGN, Big5, --encoding big5", "a.pgn", "[Red \"" + big5("呂欽") + "\"]\n\n1. h2e2 *\n", textenc.Big5, "呂欽", "big5"},
		{"PGN, Latin-1, --encoding latin1", "a.pgn", "[Red \"W\xe4lbers\"]\n\n1. e4 *\n", textenc.Windows1252, "Wälbers", "windows-1252"},
		{"DhtmlXQ, GBK valid as UTF-8, --encoding gbk", "a.html", "[DhtmlXQ][DhtmlXQ_red]" + gbk("谢小然") + "[/DhtmlXQ_red][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]", textenc.GBK, "谢小然", "gbk"},
		{"DhtmlXQ, UTF-8 read as --encoding utf-8", "a.html", "[DhtmlXQ][DhtmlXQ_red]谢小然[/DhtmlXQ_red][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]", textenc.UTF8, "谢小然", "utf-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := importer.NewReader(bytes.NewReader([]byte(tt.data)), tt.file)
			r.Encoding = tt.enc
			rec, err := r.Next()
			if err != nil {
				t.Fatal(err)
			}
			if rec.Tag("Red") != tt.want || rec.Encoding != tt.wantEnc {
				t.Errorf("Red %q in %s, want %q in %s", rec.Tag("Red"), rec.Encoding, tt.want, tt.wantEnc)
			}
		})
	}
}
