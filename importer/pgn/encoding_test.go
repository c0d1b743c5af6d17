package pgn_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// TestDoubleByteDelimiters: in Big5 and GBK the second byte of a
// character can be ']', '[', '\\' or '}' (也 = A4 5D, 久 = A4 5B,
// 功 = A5 5C, 囚 = A5 7D in Big5). The lexer pairs bytes in double-byte
// files, so none of them ends a tag, a string or a comment.
func TestDoubleByteDelimiters(t *testing.T) {
	text := "[Event \"功也\"]\n[Site \"久\"]\n\n1. 炮二平五 {囚} 馬８進７\n2. 車一平二 *\n"
	tests := []struct {
		name string
		enc  encoding.Encoding
		want string
	}{
		{"big5", traditionalchinese.Big5, "big5"},
		{"gbk", simplifiedchinese.GBK, "gbk"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := tt.enc.NewEncoder().Bytes([]byte(text))
			if err != nil {
				t.Fatal(err)
			}
			if tt.name == "big5" && !bytes.Contains(raw, []byte{0xA5, 0x7D}) {
				t.Fatal("test text lost its '}' trail byte")
			}
			recs, errs := readStream(t, bytes.NewReader(raw), tt.name)
			if len(recs) != 1 || errs[0] != nil {
				t.Fatalf("%d records, %v", len(recs), errs)
			}
			rec := recs[0]
			if rec.Encoding != tt.want || rec.Tag("Event") != "功也" || rec.Tag("Site") != "久" {
				t.Errorf("encoding %s, Event %q, Site %q", rec.Encoding, rec.Tag("Event"), rec.Tag("Site"))
			}
			var got []string
			for _, e := range rec.Elements {
				got = append(got, string(rec.TokenText(e)))
			}
			if strings.Join(got, " ") != "1. 炮二平五 囚 馬８進７ 2. 車一平二 *" {
				t.Errorf("elements %q", got)
			}
			if string(rec.Raw) != string(raw) {
				t.Errorf("raw bytes changed")
			}
		})
	}
}

func TestWebAndTextQuirks(t *testing.T) {
	tests := []struct {
		name, input string
		want        []got
	}{
		{"HTML line breaks between tags and moves (chess.js 0.pgn)",
			"[Event \"?\"]<br />[White \"J\"]<br /><br />1. d4 d5 2. Nf3 Nc6<br />3. e3 e6 1-0</p>",
			[]got{{tags: "Event=?;White=J", moves: "d4 d5 Nf3 Nc6 e3 e6", result: "1-0", game: engine.Chess}}},
		{"Chinese move list ending in a result word (walker8088 test1_move.txt)",
			"兵七进一\n马８进７\n红胜\n",
			[]got{{moves: "兵七进一 马８进７", result: "1-0", game: engine.Xiangqi}}},
		{"numbered prose is not a game",
			"6. 特别注意，不要急于求成。\n7. 局面不利时\n",
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, errs := readAll(t, tt.input, false)
			if len(recs) != len(tt.want) {
				t.Fatalf("%d records, want %d", len(recs), len(tt.want))
			}
			for i, rec := range recs {
				if g := summary(rec, errs[i]); g.tags != tt.want[i].tags || g.moves != tt.want[i].moves ||
					g.result != tt.want[i].result || g.game != tt.want[i].game {
					t.Errorf("record %d\n got %+v\nwant %+v", i+1, g, tt.want[i])
				}
			}
		})
	}
}
