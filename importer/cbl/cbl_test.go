package cbl_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/xqdb/xqdb/importer/cbl"
	"github.com/xqdb/xqdb/importer/internal/board"
	"github.com/xqdb/xqdb/importer/record"
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

// square is the CCBridge square of an ICCS square: row×9+file, row 0
// Black's back rank.
func square(s string) byte { return (9-(s[1]-'0'))*9 + (s[0] - 'a') }

// utf16le encodes s as CCBridge stores text.
func utf16le(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = binary.LittleEndian.AppendUint16(b, u)
	}
	return b
}

// startBoard is the standard start in CCBridge's board bytes.
func startBoard() [90]byte {
	var b [90]byte
	back := []byte{1, 2, 3, 4, 5, 4, 3, 2, 1}
	for f := range 9 {
		b[f] = 0x20 | back[f]
		b[81+f] = 0x10 | back[f]
	}
	for _, f := range []int{1, 7} {
		b[2*9+f], b[7*9+f] = 0x26, 0x16
	}
	for f := 0; f < 9; f += 2 {
		b[3*9+f], b[6*9+f] = 0x27, 0x17
	}
	return b
}

// rec describes a record to encode.
type rec struct {
	fields      map[int]string // offset → text
	board       [90]byte
	result      byte
	rootComment string
	first       *tnode
	garbage     bool // fill the gaps and field tails as CCBridge does
}

// encode writes a record the way CCBridge lays it out (see the package
// comment): the inverse of the reader.
func encode(r rec) []byte {
	h := make([]byte, 0x8A6)
	if r.garbage {
		for i := range h {
			h[i] = byte(0x41 + i%23) // not NUL: only a field's NUL ends it
		}
	}
	copy(h, "CCBridge Record\x00")
	for off, s := range r.fields {
		b := append(utf16le(s), 0, 0)
		copy(h[off:], b)
	}
	h[0x81C] = r.result
	h[0x840] = 1
	copy(h[0x848:], r.board[:])
	binary.LittleEndian.PutUint32(h[0x8A2:], 0xFFFFFFFF)
	var flags byte
	if r.first == nil {
		flags |= 1
	}
	if r.rootComment != "" {
		flags |= 4
	}
	h = append(h, flags, 0, 0, 0)
	h = appendComment(h, r.rootComment)
	if r.first != nil {
		h = appendSiblings(h, append([]*tnode{r.first}, r.first.alts...))
	}
	return h
}

func appendComment(h []byte, c string) []byte {
	if c == "" {
		return h
	}
	b := utf16le(c)
	h = binary.LittleEndian.AppendUint32(h, uint32(len(b)))
	return append(h, b...)
}

// appendSiblings writes a move and its alternatives in preorder: each
// node, its continuation subtree, then the next alternative.
func appendSiblings(h []byte, sibs []*tnode) []byte {
	for i, n := range sibs {
		var flags byte
		if n.next == nil {
			flags |= 1
		}
		if i+1 < len(sibs) {
			flags |= 2
		}
		if n.comment != "" {
			flags |= 4
		}
		h = append(h, flags, 0, square(n.move[:2]), square(n.move[2:]))
		h = appendComment(h, n.comment)
		if n.next != nil {
			h = appendSiblings(h, append([]*tnode{n.next}, n.next.alts...))
		}
	}
	return h
}

// library lays records out as a CCBridge library: header, an index of
// slots entries, then each record padded to whole 4096-byte slots.
func library(slots int, records ...[]byte) []byte {
	lib := make([]byte, 66624+slots*276)
	copy(lib, "CCBridgeLibrary\x00")
	binary.LittleEndian.PutUint32(lib[0x10:], 3)
	binary.LittleEndian.PutUint32(lib[0x3C:], uint32(slots))
	copy(lib[0x40:], utf16le("测试库"))
	for i, r := range records {
		e := lib[66624+i*276:]
		binary.LittleEndian.PutUint32(e, 7)
		binary.LittleEndian.PutUint32(e[4:], uint32(i))
		binary.LittleEndian.PutUint32(e[8:], uint32((len(r)+4095)/4096))
		binary.LittleEndian.PutUint32(e[12:], uint32(len(r)))
		lib = append(lib, r...)
		lib = append(lib, make([]byte, (4096-len(r)%4096)%4096)...)
	}
	return lib
}

func readAll(t *testing.T, data []byte) ([]*record.Record, []error) {
	t.Helper()
	r := cbl.NewReader(bytes.NewReader(data), "t.cbl")
	var recs []*record.Record
	var errs []error
	for n := 0; n < 1000; n++ {
		rec, err := r.Next()
		if err == io.EOF {
			return recs, errs
		}
		if rec != nil {
			recs = append(recs, rec)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	t.Fatal("no io.EOF")
	return nil, nil
}

func TestRecord(t *testing.T) {
	tree := line("h2e2", "h7e7", "h0g2")
	tree.comment = "当头炮"
	tree.next.alts = []*tnode{line("h9g7", "i0h0")}
	tree.alts = []*tnode{line("c3c4", "g6g5")}
	blackFirst := [90]byte{}
	blackFirst[4] = 0x25            // k e9
	blackFirst[81+3] = 0x15         // K d0
	blackFirst[square("a5")] = 0x21 // r a5
	blackFirst[square("i4")] = 0x17 // P i4
	blackFirst[square("c7")] = 0x99 // no piece
	tests := []struct {
		name     string
		rec      rec
		wantText string
		wantFEN  string
		wantTags map[string]string
		wantErr  error
	}{
		{
			name: "fields, result, comments, variations",
			rec: rec{fields: map[int]string{0xB4: "    第一轮 徐天红 先和 徐天利", 0x2B4: "1989年龙化杯", 0x374: "1989年6月3日", 0x3B4: "柳州市",
				0x434: "徐天红", 0x474: "江苏", 0x514: "徐天利", 0x554: "上海", 0x134: "挺兵对飞象", 0x674: "覃瑞忠", 0x6F4: "千秋雪", 0x2F4: "第一轮"},
				board: startBoard(), result: 3, rootComment: "开局\r\n", first: tree, garbage: true},
			wantText: "开局 h2e2 当头炮 ( c3c4 g6g5 ) h7e7 ( h9g7 i0h0 ) h0g2",
			wantTags: map[string]string{"Game": "Chinese Chess", "Title": "第一轮 徐天红 先和 徐天利", "Event": "1989年龙化杯", "Round": "第一轮",
				"Date": "1989年6月3日", "Site": "柳州市", "Red": "徐天红", "RedTeam": "江苏", "Black": "徐天利", "BlackTeam": "上海",
				"Opening": "挺兵对飞象", "Annotator": "覃瑞忠", "Author": "千秋雪", "Result": "1/2-1/2", "FEN": ""},
		},
		{
			name:     "black moves first; a byte that is no piece",
			rec:      rec{board: blackFirst, result: 2, first: line("a5a0")},
			wantText: "a5a0",
			wantFEN:  "4k4/9/9/9/r8/8P/9/9/9/3K5 b - - 0 1",
			wantTags: map[string]string{"Result": "0-1", "Red": "", "Title": ""},
			wantErr:  record.ErrBadValue,
		},
		{
			name:     "no moves: a header-only game",
			rec:      rec{board: startBoard(), fields: map[int]string{0x434: "甲", 0x514: "乙"}, result: 1},
			wantText: "",
			wantTags: map[string]string{"Red": "甲", "Black": "乙", "Result": "1-0"},
		},
		{
			name:    "empty board, no moves: a section title",
			rec:     rec{fields: map[int]string{0xB4: "男子组"}, rootComment: "说明"},
			wantErr: record.ErrNotAGame,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := encode(tt.rec)
			got, err := cbl.Parse(data, "t.cbr")
			if tt.wantErr != nil {
				var pe *record.ParseError
				if !errors.Is(err, tt.wantErr) || !errors.As(err, &pe) {
					t.Fatalf("err %v, want a ParseError wrapping %v", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if got == nil {
				if !errors.Is(tt.wantErr, record.ErrNotAGame) {
					t.Fatal("no record")
				}
				return
			}
			if text := strings.TrimSpace(string(got.Text)); text != tt.wantText {
				t.Errorf("text %q, want %q", text, tt.wantText)
			}
			want := tt.wantFEN
			if want == "" {
				want = board.Start
			}
			if got.FEN != want {
				t.Errorf("FEN %q, want %q", got.FEN, want)
			}
			for name, v := range tt.wantTags {
				if g, _ := got.TagValue(name); g != v {
					t.Errorf("tag %s %q, want %q", name, g, v)
				}
			}
			for i := range got.Moves {
				if m := got.MoveText(i); got.Moves[i].Offset < 0x8A6 || len(m) != 4 {
					t.Errorf("move %d %q at %d", i, m, got.Moves[i].Offset)
				}
			}
			if got.Format != "cbl" || got.Encoding != "utf-16le" || !bytes.Equal(got.Raw, data) {
				t.Errorf("format %q, encoding %q, raw of %d bytes", got.Format, got.Encoding, len(got.Raw))
			}
		})
	}
}

// TestLibrary: records are read in file order, numbered from 1 with the
// section titles, at their file offsets; a record longer than a slot
// runs on into the next; a slot that starts no record is passed over.
func TestLibrary(t *testing.T) {
	long := line("h2e2", "h7e7")
	long.comment = strings.Repeat("长评", 1200) // 4,800 bytes: the record takes two slots
	games := []rec{
		{fields: map[int]string{0xB4: "第一节"}},
		{board: startBoard(), fields: map[int]string{0x434: "甲"}, first: long, result: 1},
		{board: startBoard(), fields: map[int]string{0x434: "乙"}, first: line("b2e2"), result: 2},
	}
	var recs [][]byte
	for _, g := range games {
		recs = append(recs, encode(g))
	}
	lib := library(128, recs...)
	first := 66624 + 128*276
	lib = append(lib, make([]byte, 4096)...) // a slot of no record at the end
	got, errs := readAll(t, lib)
	if len(errs) != 1 || !errors.Is(errs[0], record.ErrNotAGame) {
		t.Fatalf("errors %v, want one section title", errs)
	}
	var pe *record.ParseError
	if errors.As(errs[0], &pe); pe.Source.Game != 1 || pe.Source.Offset != int64(first) {
		t.Errorf("section reported at %+v", pe.Source)
	}
	if len(got) != 2 {
		t.Fatalf("%d records, want 2", len(got))
	}
	for i, want := range []struct {
		game   int
		offset int
		red    string
		moves  int
	}{{2, first + 4096, "甲", 2}, {3, first + 3*4096, "乙", 1}} {
		r := got[i]
		if r.Source.Game != want.game || r.Source.Offset != int64(want.offset) || r.Tag("Red") != want.red || len(r.Moves) != want.moves {
			t.Errorf("record %d: %+v Red %q, %d moves; want game %d at %d, %q, %d moves", i, r.Source, r.Tag("Red"), len(r.Moves), want.game, want.offset, want.red, want.moves)
		}
	}
	if c := got[0].Elements[1]; c.Kind != record.Comment || len(got[0].TokenText(c)) != 3*2400 {
		t.Errorf("long comment: %v of %d bytes", c.Kind, len(got[0].TokenText(c)))
	}
}

// TestDefects: a record cut short is a ReadError naming it when the file
// ends there, a ParseError otherwise (and reading goes on); a square off
// the board keeps the moves before it; a library with a nonsensical slot
// count or a file of no CCBridge magic say so.
func TestDefects(t *testing.T) {
	good := encode(rec{board: startBoard(), first: line("h2e2", "h7e7")})
	cut := good[:len(good)-2]
	offBoard := encode(rec{board: startBoard(), first: line("h2e2", "h7e7")})
	offBoard[len(offBoard)-1] = 95

	t.Run("cut at the end of a .cbr", func(t *testing.T) {
		rec, err := cbl.Parse(cut, "t.cbr")
		var re *record.ReadError
		if rec != nil || !errors.As(err, &re) || !re.Cut || !errors.Is(err, record.ErrTruncated) {
			t.Errorf("%v, %v; want a cut ReadError", rec, err)
		}
	})
	t.Run("cut last record of a library", func(t *testing.T) {
		lib := library(128, good)
		lib = append(lib, cut...)
		recs, errs := readAll(t, lib)
		var re *record.ReadError
		if len(recs) != 1 || len(errs) != 1 || !errors.As(errs[0], &re) || re.Source.Game != 2 {
			t.Errorf("%d records, errors %v; want 1 and game 2 cut", len(recs), errs)
		}
	})
	t.Run("broken record inside a library", func(t *testing.T) {
		broken := append([]byte(nil), good...)
		broken[0x8A6] = 4 // a root comment whose length runs past the record
		binary.LittleEndian.PutUint32(broken[0x8AA:], 1<<20)
		recs, errs := readAll(t, library(128, broken, good))
		var pe *record.ParseError
		if len(recs) != 1 || len(errs) != 1 || !errors.As(errs[0], &pe) || pe.Source.Game != 1 || !errors.Is(errs[0], record.ErrTruncated) {
			t.Errorf("%d records, errors %v; want 1 and game 1 broken", len(recs), errs)
		}
	})
	t.Run("square off the board", func(t *testing.T) {
		rec, err := cbl.Parse(offBoard, "t.cbr")
		if rec == nil || len(rec.Moves) != 1 || !errors.Is(err, record.ErrBadSquare) {
			t.Errorf("%v; want the first move kept and ErrBadSquare", err)
		}
	})
	t.Run("slot count", func(t *testing.T) {
		lib := library(128, good)
		binary.LittleEndian.PutUint32(lib[0x3C:], 0)
		_, errs := readAll(t, lib)
		if len(errs) != 1 || !errors.Is(errs[0], record.ErrBadValue) {
			t.Errorf("errors %v", errs)
		}
	})
	t.Run("no magic", func(t *testing.T) {
		_, errs := readAll(t, []byte("CCBridge but not quite"))
		if len(errs) != 1 || !errors.Is(errs[0], record.ErrBadMagic) {
			t.Errorf("errors %v", errs)
		}
	})
	t.Run("library of no record", func(t *testing.T) {
		recs, errs := readAll(t, library(128))
		if len(recs) != 0 || len(errs) != 0 {
			t.Errorf("%d records, errors %v", len(recs), errs)
		}
	})
}
