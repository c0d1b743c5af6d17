package xqf_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/importer/internal/board"
	"github.com/xqdb/xqdb/importer/record"
	"github.com/xqdb/xqdb/importer/textenc"
	"github.com/xqdb/xqdb/importer/xqf"
)

// tnode is a move of a test tree: an ICCS move, a comment, its
// continuation and its alternatives (which replace it).
type tnode struct {
	move    string
	comment string
	next    *tnode
	alts    []*tnode
}

// line builds a chain of moves.
func line(moves ...string) *tnode {
	var head, tail *tnode
	for _, m := range moves {
		n := &tnode{move: m}
		if head == nil {
			head = n
		} else {
			tail.next = n
		}
		tail = n
	}
	return head
}

// startSquares is the standard start in the XQF piece order.
var startSquares = [32]byte{0, 10, 20, 30, 40, 50, 60, 70, 80, 12, 72, 3, 23, 43, 63, 83,
	9, 19, 29, 39, 49, 59, 69, 79, 89, 17, 77, 6, 26, 46, 66, 86}

// encode writes an XQF file (NOTATIONS §7) the way XQStudio would: the
// inverse of what the reader undoes, so a round trip checks the
// decryption, the piece-table rotation and the tree layout.
func encode(version byte, pieces [32]byte, rootComment string, first *tnode, result byte) []byte {
	h := make([]byte, 0x400)
	h[0], h[1], h[2] = 'X', 'Q', version
	// Arbitrary key bytes: mask, product id, KeyOrA–D, sum, XY, XYf, XYt.
	copy(h[3:16], []byte{0xB7, 1, 2, 3, 4, 0x15, 0x2A, 0x3F, 0x44, 0x9C, 0x6D, 0xE1, 0x58})
	mix := func(x, mul byte) byte { return (x*x*54 + 221) * mul }
	var kPiece, kSrc, kDst byte
	var kComment int
	var stream [32]byte
	if version >= 11 {
		kPiece = mix(h[13], h[13])
		kSrc = mix(h[14], kPiece)
		kDst = mix(h[15], kSrc)
		kComment = (int(h[12])*256+int(h[13]))%32000 + 767
		const cr = "[(C) Copyright Mr. Dong Shiwei.]"
		for j := range stream {
			f := h[8+j%4] | (h[12+j%4] & h[3])
			stream[j] = cr[j] & f
		}
	}
	for i := 0; i < 32; i++ {
		switch {
		case version < 11:
			h[0x10+i] = pieces[i]
		case version < 12:
			h[0x10+i] = pieces[i] + kPiece
		default:
			h[0x10+i] = pieces[(int(kPiece)+1+i)%32] + kPiece
		}
	}
	h[0x33] = result
	copy(h[0x50:], []byte{4, 0xB2, 0xE2, 0xCA, 0xD4}) // title 测试 in GBK
	copy(h[0x130:], []byte{3, 'R', 'e', 'd'})

	var area []byte
	rec := func(src, dst byte, hasNext, hasVar bool, comment string) {
		var tag byte
		if version < 11 {
			if hasNext {
				tag |= 0xF0
			}
			if hasVar {
				tag |= 0x0F
			}
			area = append(area, src+0x18, dst+0x20, tag, 0)
			area = binary.LittleEndian.AppendUint32(area, uint32(len(comment)))
			area = append(area, comment...)
			return
		}
		if hasNext {
			tag |= 0x80
		}
		if hasVar {
			tag |= 0x40
		}
		if comment != "" {
			tag |= 0x20
		}
		area = append(area, src+0x18+kSrc, dst+0x20+kDst, tag, 0)
		if comment != "" {
			area = binary.LittleEndian.AppendUint32(area, uint32(len(comment)+kComment))
			area = append(area, comment...)
		}
	}
	sq := func(s string) byte { return (s[0]-'a')*10 + s[1] - '0' }
	// Preorder: a node, its continuation, then its alternatives.
	var walk func(n *tnode, hasVar bool)
	walk = func(n *tnode, hasVar bool) {
		rec(sq(n.move[:2]), sq(n.move[2:]), n.next != nil, hasVar, n.comment)
		if n.next != nil {
			walk(n.next, len(n.next.alts) > 0)
		}
		for i, a := range n.alts {
			walk(a, i+1 < len(n.alts))
		}
	}
	rec(0, 0, first != nil, false, rootComment)
	if first != nil {
		walk(first, len(first.alts) > 0)
	}
	if version >= 11 {
		for i := range area {
			area[i] += stream[i%32]
		}
	}
	return append(h, area...)
}

// movetext renders a record's elements compactly: moves, (variations),
// {comments}.
func movetext(rec *record.Record) string {
	var sb strings.Builder
	for _, e := range rec.Elements {
		switch e.Kind {
		case record.Comment:
			sb.WriteString("{" + string(rec.TokenText(e)) + "} ")
		default:
			sb.Write(rec.TokenText(e))
			sb.WriteByte(' ')
		}
	}
	return strings.TrimSpace(sb.String())
}

func TestParseEncoded(t *testing.T) {
	// 1. h2e2 (1. b2e2 (1. h0g2)) h7e7 {reply} (h9g7 i9h9) 2. h0g2
	tree := line("h2e2", "h7e7", "h0g2")
	tree.alts = []*tnode{line("b2e2"), line("h0g2")}
	tree.next.comment = "reply"
	tree.next.alts = []*tnode{line("h9g7", "i9h9")}
	black := startSquares
	tests := []struct {
		name      string
		version   byte
		pieces    [32]byte
		root      string
		tree      *tnode
		result    byte
		wantFEN   string
		wantText  string
		wantMoves int
	}{
		{"v10 plain", 10, startSquares, "", line("h2e2", "h9g7"), 1, board.Start, "h2e2 h9g7", 2},
		{"v10 variations and comments", 10, startSquares, "intro", tree, 3, board.Start,
			"{intro} h2e2 ( b2e2 ) ( h0g2 ) h7e7 {reply} ( h9g7 i9h9 ) h0g2", 3},
		{"v11 encrypted", 11, startSquares, "intro", tree, 2, board.Start,
			"{intro} h2e2 ( b2e2 ) ( h0g2 ) h7e7 {reply} ( h9g7 i9h9 ) h0g2", 3},
		{"v18 encrypted and rotated", 18, startSquares, "", tree, 0, board.Start,
			"h2e2 ( b2e2 ) ( h0g2 ) h7e7 {reply} ( h9g7 i9h9 ) h0g2", 3},
		{"black moves first", 18, black, "", line("h7e7", "h2e2"), 0,
			"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1", "h7e7 h2e2", 2},
		{"no moves", 13, startSquares, "", nil, 0, board.Start, "", 0},
		{"setup with pieces off the board", 12, func() [32]byte {
			p := startSquares
			for i := range p {
				if i != 4 && i != 20 && i != 0 {
					p[i] = 0xFF
				}
			}
			return p
		}(), "", line("a0a5"), 1, "4k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", "a0a5", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := encode(tt.version, tt.pieces, tt.root, tt.tree, tt.result)
			rec, err := xqf.Parse(data, "t.xqf")
			if err != nil {
				t.Fatal(err)
			}
			if rec.FEN != tt.wantFEN {
				t.Errorf("FEN %q, want %q", rec.FEN, tt.wantFEN)
			}
			if got := movetext(rec); got != tt.wantText {
				t.Errorf("movetext\n got %q\nwant %q", got, tt.wantText)
			}
			if len(rec.Moves) != tt.wantMoves {
				t.Errorf("%d main-line moves, want %d", len(rec.Moves), tt.wantMoves)
			}
			wantResult := []string{"*", "1-0", "0-1", "1/2-1/2"}[tt.result]
			if rec.Tag("Result") != wantResult || rec.Tag("Title") != "测试" || rec.Tag("Red") != "Red" {
				t.Errorf("tags %v", rec.Tags)
			}
			if rec.Game != engine.Xiangqi || rec.NotationHint != engine.ICCS || rec.Format != "xqf" || rec.Encoding != "gbk" {
				t.Errorf("game %v hint %v format %s encoding %s", rec.Game, rec.NotationHint, rec.Format, rec.Encoding)
			}
			for i, m := range rec.Moves {
				if m.Offset < 0x400 || m.Offset >= int64(len(data)) {
					t.Errorf("move %d offset %d outside the move area", i+1, m.Offset)
				}
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	good := encode(18, startSquares, "c", line("h2e2", "h9g7"), 1)
	tests := []struct {
		name      string
		data      []byte
		wantErr   error
		wantRec   bool
		wantMoves int
	}{
		{"empty", nil, record.ErrBadMagic, false, 0},
		{"bad magic", append([]byte("PK"), good[2:]...), record.ErrBadMagic, false, 0},
		{"square off the board", func() []byte {
			d := encode(10, startSquares, "", line("h2e2", "h9g7"), 1)
			d[0x400+8+8] = 0x18 + 95 // second move's source
			return d
		}(), record.ErrBadSquare, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := xqf.Parse(tt.data, "bad.xqf")
			var pe *record.ParseError
			if !errors.As(err, &pe) || !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want a ParseError wrapping %v", err, tt.wantErr)
			}
			if (rec != nil) != tt.wantRec {
				t.Fatalf("record %v, want one: %v", rec != nil, tt.wantRec)
			}
			if rec != nil && len(rec.Moves) != tt.wantMoves {
				t.Errorf("%d moves, want %d", len(rec.Moves), tt.wantMoves)
			}
		})
	}
}

// A file cut short is not a shorter game (which would keep the header's
// result): like a truncated .gz, it is a ReadError that names the game
// cut off and where the file ends, and no record.
func TestTruncatedFileIsReadError(t *testing.T) {
	good := encode(18, startSquares, "c", line("h2e2", "h9g7"), 1)
	tests := []struct {
		name string
		data []byte
	}{
		{"short header", good[:100]},
		{"header only", good[:0x400]},
		{"cut inside the tree", good[:len(good)-3]},
		{"cut before the last move", good[:len(good)-4]},
		{"comment longer than the file", func() []byte {
			d := encode(10, startSquares, "", line("h2e2"), 1)
			binary.LittleEndian.PutUint32(d[0x400+4:], 1<<30)
			return d
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := xqf.Parse(tt.data, "cut.xqf")
			var re *record.ReadError
			if !errors.As(err, &re) || !errors.Is(err, record.ErrTruncated) {
				t.Fatalf("err = %v, want a ReadError wrapping ErrTruncated", err)
			}
			if rec != nil {
				t.Errorf("a record of %d moves, want none", len(rec.Moves))
			}
			if !re.Cut || re.Source.File != "cut.xqf" || re.Source.Game != 1 || re.Source.Offset != int64(len(tt.data)) {
				t.Errorf("%+v, want game 1 of cut.xqf cut off at offset %d", re, len(tt.data))
			}
			if !strings.HasPrefix(err.Error(), "cut.xqf: game 1 is cut off: xqf: truncated") {
				t.Errorf("message %q", err)
			}
		})
	}
}

// TestTextIsGBK: header strings and comments are GBK by format (NOTATIONS
// §7), not guessed: a short GBK name can be valid UTF-8 (谢小然 read as
// UTF-8 is "лСȻ") or look like Big5 (辽宁赵庆阁 as "賽譴梊ヰ跨"), as 191
// names of the walker8088 archive did. Reader.Encoding overrides the
// format for files written otherwise.
func TestTextIsGBK(t *testing.T) {
	gbk := func(s string) []byte { b, _ := simplifiedchinese.GBK.NewEncoder().Bytes([]byte(s)); return b }
	big5 := func(s string) []byte { b, _ := traditionalchinese.Big5.NewEncoder().Bytes([]byte(s)); return b }
	tests := []struct {
		name        string
		force       textenc.Encoding
		red         []byte
		comment     []byte
		wantRed     string
		wantComment string
		wantEnc     string
	}{
		{"GBK that is valid UTF-8", textenc.Auto, gbk("谢小然"), gbk("好棋"), "谢小然", "好棋", "gbk"},
		{"GBK that looks like Big5", textenc.Auto, gbk("辽宁赵庆阁"), nil, "辽宁赵庆阁", "", "gbk"},
		{"GBK that looks like UTF-8 with strays", textenc.Auto, gbk("农协郑乃东"), nil, "农协郑乃东", "", "gbk"},
		{"a field cut inside a character", textenc.Auto, append(gbk("于幼华。黑方: "), 0xC2), nil, "于幼华。黑方: ", "", "gbk"},
		{"ASCII", textenc.Auto, []byte("Red"), []byte("good"), "Red", "good", "gbk"},
		{"--encoding big5", textenc.Big5, big5("呂欽"), big5("妙著"), "呂欽", "妙著", "big5"},
		{"--encoding utf-8", textenc.UTF8, []byte("谢小然"), []byte("好棋"), "谢小然", "好棋", "utf-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := line("h2e2")
			n.comment = string(tt.comment)
			data := encode(18, startSquares, "", n, 1)
			copy(data[0x130:0x140], make([]byte, 16))
			data[0x130] = byte(len(tt.red))
			copy(data[0x131:], tt.red)
			r := xqf.NewReader(bytes.NewReader(data), "names.xqf")
			r.Encoding = tt.force
			rec, err := r.Next()
			if err != nil {
				t.Fatal(err)
			}
			var comment string
			for _, e := range rec.Elements {
				if e.Kind == record.Comment {
					comment = string(rec.TokenText(e))
				}
			}
			if rec.Tag("Red") != tt.wantRed || strings.TrimSpace(comment) != tt.wantComment || rec.Encoding != tt.wantEnc {
				t.Errorf("Red %q, comment %q, encoding %s; want %q, %q, %s", rec.Tag("Red"), comment, rec.Encoding, tt.wantRed, tt.wantComment, tt.wantEnc)
			}
		})
	}
}
