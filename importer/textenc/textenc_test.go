package textenc_test

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"

	"github.com/xqdb/xqdb/importer/textenc"
)

func encode(t testing.TB, e encoding.Encoding, s string) []byte {
	t.Helper()
	b, err := e.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDetect(t *testing.T) {
	trad := "[Event \"全國象棋個人賽\"]\n1. 炮二平五 馬８進７\n2. 馬二進三 車９平８\n"
	simp := "[Event \"全国象棋个人赛\"]\n1. 炮二平五 马８进７\n2. 马二进三 车９平８\n"
	tests := []struct {
		name  string
		in    []byte
		prior textenc.Encoding
		want  textenc.Encoding
	}{
		{"ascii", []byte("[Event \"x\"] 1. e4 *"), textenc.UTF8, textenc.UTF8},
		{"utf-8", []byte(trad), textenc.UTF8, textenc.UTF8},
		{"big5 (CCPD)", encode(t, traditionalchinese.Big5, trad), textenc.UTF8, textenc.Big5},
		{"gbk (walker8088)", encode(t, simplifiedchinese.GBK, simp), textenc.UTF8, textenc.GBK},
		{"traditional text in GBK", encode(t, simplifiedchinese.GBK, trad), textenc.UTF8, textenc.GBK},
		{"cp437 é (pgnmentor Kasparov)", []byte("[Black \"Quadros,Andr\x82\"]"), textenc.UTF8, textenc.CP437},
		{"latin-1 ä (pgnmentor PolgarJ)", []byte("[Black \"W\xe4lbers, W.\"]"), textenc.UTF8, textenc.Windows1252},
		{"cp1252 NBSP (pgnmentor Karpov)", []byte("[Black \"Bidjukov\xa0\"]"), textenc.UTF8, textenc.Windows1252},
		{"utf-8 with a stray byte", []byte("[White \"Müller\"] [Black \"Andr\xe9\"] [Site \"Zürich\"] [Annotator \"Ré\"]"), textenc.UTF8, textenc.UTF8Mixed},
		{"ambiguous short Chinese follows the prior", encode(t, traditionalchinese.Big5, "呂"), textenc.Big5, textenc.Big5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := textenc.Detect(tt.in, tt.prior); got != tt.want {
				t.Errorf("Detect = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestAppendUTF8(t *testing.T) {
	tests := []struct {
		name string
		enc  textenc.Encoding
		in   []byte
		want string
	}{
		{"big5", textenc.Big5, encode(t, traditionalchinese.Big5, "馬８進７ 功也"), "馬８進７ 功也"},
		{"gbk", textenc.GBK, encode(t, simplifiedchinese.GBK, "马８进７ 〇"), "马８进７ 〇"},
		{"gb18030 four-byte", textenc.GBK, encode(t, simplifiedchinese.GB18030, "a€😀b"), "a€😀b"},
		{"cp437", textenc.CP437, []byte("Andr\x82"), "André"},
		{"windows-1252", textenc.Windows1252, []byte("W\xe4lbers \x80"), "Wälbers €"},
		{"mixed", textenc.UTF8Mixed, []byte("Zürich Andr\xe9"), "Zürich André"},
		{"lone lead byte", textenc.GBK, []byte("a\xb0"), "a\ufffd"},
		{"invalid pair", textenc.Big5, []byte{0x81, 0x40}, "\ufffd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(tt.enc.AppendUTF8(nil, tt.in)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestSegmentedDecoding: decoding at any boundary that the pairing rule
// allows gives the same text as decoding in one piece — what the PGN
// reader relies on to map token spans.
func TestSegmentedDecoding(t *testing.T) {
	raw := encode(t, traditionalchinese.Big5, "[Event \"全國\"] 1. 炮二平五 {中炮} 馬８進７ *")
	whole := textenc.Big5.AppendUTF8(nil, raw)
	var cuts []int
	for i := 0; i < len(raw); i++ {
		cuts = append(cuts, i)
		if textenc.IsLead(raw[i]) && i+1 < len(raw) && textenc.IsTrail(raw[i+1]) {
			i++
		}
	}
	for _, c := range cuts {
		got := textenc.Big5.AppendUTF8(textenc.Big5.AppendUTF8(nil, raw[:c]), raw[c:])
		if !bytes.Equal(got, whole) {
			t.Fatalf("cut at %d: %q, whole %q", c, got, whole)
		}
	}
}

func TestValidUTF8Prefix(t *testing.T) {
	s := []byte("炮二平五")
	for i := 0; i <= len(s); i++ {
		if !textenc.ValidUTF8Prefix(s[:i]) {
			t.Errorf("prefix of %d bytes rejected", i)
		}
	}
	if textenc.ValidUTF8Prefix([]byte("a\xb0b")) {
		t.Error("invalid byte inside accepted")
	}
}

// FuzzDetect: detection and conversion accept any bytes; converted text
// is valid UTF-8 for every encoding but UTF8 (which passes bytes through).
func FuzzDetect(f *testing.F) {
	f.Add([]byte("[Event \"x\"] 1. e4 *"))
	f.Add(encode(f, traditionalchinese.Big5, "1. 炮二平五 馬８進７ {也}"))
	f.Add(encode(f, simplifiedchinese.GBK, "1. 炮二平五 马８进７"))
	f.Add([]byte("Andr\x82 W\xe4lbers \xa0 \x81\x30\x81\x30"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, prior := range []textenc.Encoding{textenc.UTF8, textenc.Big5} {
			e := textenc.Detect(b, prior)
			out := e.AppendUTF8(nil, b)
			if e != textenc.UTF8 && !utf8.Valid(out) {
				t.Fatalf("%v output is not UTF-8: %q", e, out)
			}
			if e == textenc.UTF8 && !utf8.Valid(b) {
				t.Fatalf("invalid UTF-8 detected as UTF-8: %q", b)
			}
		}
	})
}

// TestParse: the names a user may give --encoding, and the zero value.
func TestParse(t *testing.T) {
	tests := []struct {
		in      string
		want    textenc.Encoding
		wantErr bool
	}{
		{"auto", textenc.Auto, false},
		{"", textenc.Auto, true},
		{"UTF-8", textenc.UTF8, false},
		{"utf8", textenc.UTF8, false},
		{"gbk", textenc.GBK, false},
		{"GB18030", textenc.GBK, false},
		{"gb2312", textenc.GBK, false},
		{"big5", textenc.Big5, false},
		{"latin1", textenc.Windows1252, false},
		{"iso-8859-1", textenc.Windows1252, false},
		{"cp1252", textenc.Windows1252, false},
		{"windows-1252", textenc.Windows1252, false},
		{"cp437", textenc.CP437, false},
		{"utf-8+windows-1252", textenc.Auto, true}, // a detection result, not a choice
		{"ebcdic", textenc.Auto, true},
	}
	for _, tt := range tests {
		got, err := textenc.Parse(tt.in)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("Parse(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
	var zero textenc.Encoding
	if zero != textenc.Auto || zero.String() != "auto" {
		t.Errorf("zero value %v, want auto", zero)
	}
}
