package dhtmlxq_test

import (
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/importer/dhtmlxq"
	"github.com/xqdb/xqdb/importer/internal/board"
	"github.com/xqdb/xqdb/importer/internal/xqtest"
	"github.com/xqdb/xqdb/importer/record"
)

func readAll(t *testing.T, in io.Reader, name string) ([]*record.Record, []error) {
	t.Helper()
	return xqtest.ReadAll(t, dhtmlxq.NewReader(in, name).Next)
}

// movetext renders elements compactly: moves, (variations), {comments}.
func movetext(rec *record.Record) string {
	var sb strings.Builder
	for _, e := range rec.Elements {
		if e.Kind == record.Comment {
			sb.WriteString("{" + string(rec.TokenText(e)) + "} ")
			continue
		}
		sb.Write(rec.TokenText(e))
		sb.WriteByte(' ')
	}
	return strings.TrimSpace(sb.String())
}

func tags(rec *record.Record) string {
	var out []string
	for _, t := range rec.Tags {
		out = append(out, t.Name+"="+t.Value)
	}
	return strings.Join(out, ";")
}

func TestReader(t *testing.T) {
	tests := []struct {
		name     string
		input    string
		wantTags string
		wantFEN  string
		wantText string
		wantErr  error
	}{
		{"movelist from the start; wxf.ca result letter",
			"<div>[DhtmlXQ][DhtmlXQ_red]A[/DhtmlXQ_red][DhtmlXQ_result]W[/DhtmlXQ_result][DhtmlXQ_movelist]77477967[/DhtmlXQ_movelist][/DhtmlXQ]</div>",
			"Game=Chinese Chess;Red=A;Result=1-0", board.Start, "h2e2 h0g2", nil},
		{"binit, black first, metadata names (NOTATIONS §8)",
			// Red king (piece 4) on e0 = "49", Black king (piece 20) on e9 = "40".
			"[DhtmlXQ][DhtmlXQ_binit]" + strings.Repeat("99", 4) + "49" + strings.Repeat("99", 15) + "40" + strings.Repeat("99", 11) + "[/DhtmlXQ_binit]" +
				"[DhtmlXQ_place]广州[/DhtmlXQ_place][DhtmlXQ_result]黑胜[/DhtmlXQ_result][DhtmlXQ_open]E27 仙人指路[/DhtmlXQ_open]" +
				"[DhtmlXQ_movelist]40414948[/DhtmlXQ_movelist][/DhtmlXQ]",
			"Game=Chinese Chess;Site=广州;Result=0-1;ECCO=E27;Opening=仙人指路;FEN=4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1",
			"4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1", "e9e8 e0e1", nil},
		{"branches and comments, || and \\u escapes",
			// Main line h2e2 h7e7 h0g2; branch 1 replaces ply 2 by h9g7
			// and branch 2 continues branch 1 at ply 3 with h0g2.
			"[DhtmlXQ][DhtmlXQ_movelist]774772427967[/DhtmlXQ_movelist]" +
				"[DhtmlXQ_move_0_2_1]7062[/DhtmlXQ_move_0_2_1][DhtmlXQ_move_1_3_2]7967[/DhtmlXQ_move_1_3_2]" +
				"[DhtmlXQ_comment0]a||b[/DhtmlXQ_comment0][DhtmlXQ_comment1]\\u4e2d炮[/DhtmlXQ_comment1][DhtmlXQ_comment1_2]alt[/DhtmlXQ_comment1_2][/DhtmlXQ]",
			"Game=Chinese Chess", board.Start,
			"{a\nb} h2e2 {中炮} h7e7 ( h9g7 {alt} h0g2 ) h0g2", nil},
		{"a branch at the ply after the end continues the line",
			"[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][DhtmlXQ_move_0_2_1]7242[/DhtmlXQ_move_0_2_1][/DhtmlXQ]",
			"Game=Chinese Chess", board.Start, "h2e2 h7e7", nil},
		{"DHJHtmlXQ numeric tags, board array and bottom-up move list",
			"[DHJHtmlXQ][DHJHtmlXQ_17]红方[/DHJHtmlXQ_17][DHJHtmlXQ_28]和棋[/DHJHtmlXQ_28]" +
				"[DHJHtmlXQ_31]" + "****k****" + strings.Repeat("*********", 8) + "****K****" + "[/DHJHtmlXQ_31]" +
				"[DHJHtmlXQ_34]4041[/DHJHtmlXQ_34][/DHJHtmlXQ]",
			"Game=Chinese Chess;Red=红方;Result=1/2-1/2;FEN=4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
			"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "e0e1", nil},
		{"fen tag wins over binit",
			"[DhtmlXQ][DhtmlXQ_fen]4k4/9/9/9/9/9/9/9/9/4K4 b[/DhtmlXQ_fen][/DhtmlXQ]",
			"Game=Chinese Chess;FEN=4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1", "4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1", "", nil},
		{"HTML entities",
			"[DhtmlXQ][DhtmlXQ_event]A &amp; B&#33;[/DhtmlXQ_event][/DhtmlXQ]",
			"Game=Chinese Chess;Event=A & B!", board.Start, "", nil},
		{"block not closed",
			"[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]",
			"Game=Chinese Chess", board.Start, "h2e2", record.ErrTruncated},
		{"move list with a stray digit",
			"[DhtmlXQ][DhtmlXQ_movelist]774779[/DhtmlXQ_movelist][/DhtmlXQ]",
			"Game=Chinese Chess", board.Start, "h2e2", record.ErrBadValue},
		{"file 9 is off the board",
			"[DhtmlXQ][DhtmlXQ_movelist]77479947[/DhtmlXQ_movelist][/DhtmlXQ]",
			"Game=Chinese Chess", board.Start, "h2e2", record.ErrBadSquare},
		{"branch replacing a ply of a branch that does not exist",
			"[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][DhtmlXQ_move_5_1_6]7967[/DhtmlXQ_move_5_1_6][/DhtmlXQ]",
			"Game=Chinese Chess", board.Start, "h2e2", record.ErrBadValue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, errs := readAll(t, strings.NewReader(tt.input), "t.html")
			if len(recs) != 1 {
				t.Fatalf("%d records, want 1", len(recs))
			}
			rec, err := recs[0], errs[0]
			if got := tags(rec); got != tt.wantTags {
				t.Errorf("tags\n got %q\nwant %q", got, tt.wantTags)
			}
			if rec.FEN != tt.wantFEN {
				t.Errorf("FEN %q, want %q", rec.FEN, tt.wantFEN)
			}
			if got := movetext(rec); got != tt.wantText {
				t.Errorf("movetext\n got %q\nwant %q", got, tt.wantText)
			}
			if (tt.wantErr == nil) != (err == nil) || tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			if rec.Game != engine.Xiangqi || rec.NotationHint != engine.ICCS || rec.Format != "dhtmlxq" {
				t.Errorf("game %v hint %v format %s", rec.Game, rec.NotationHint, rec.Format)
			}
		})
	}
}

func TestSeveralBlocks(t *testing.T) {
	in := "<p>one</p>\n[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]\n<p>two</p>\n" +
		"[DhtmlXQ][DhtmlXQ_movelist]7967[/DhtmlXQ_movelist][/DhtmlXQ]\n"
	recs, errs := readAll(t, strings.NewReader(in), "two.html")
	if len(recs) != 2 || errs[0] != nil || errs[1] != nil {
		t.Fatalf("%d records, errors %v", len(recs), errs)
	}
	for i, want := range []struct {
		line  int
		off   int64
		moves string
	}{{2, 11, "h2e2"}, {4, 83, "h0g2"}} {
		rec := recs[i]
		if rec.Source.Line != want.line || rec.Source.Offset != want.off || rec.Source.Game != i+1 || movetext(rec) != want.moves {
			t.Errorf("record %d: %+v %q, want line %d offset %d %q", i+1, rec.Source, movetext(rec), want.line, want.off, want.moves)
		}
		if m := rec.Moves[0]; in[m.Offset:m.Offset+4] != map[int]string{0: "7747", 1: "7967"}[i] || int(m.Line) != want.line {
			t.Errorf("record %d: move offset %d line %d do not point at its digits", i+1, m.Offset, m.Line)
		}
	}
}

// TestWukongPage44 reads testdata's copy of a wxf.ca page: the same game
// as bulk_games_uci.pgn's first.
func TestWukongPage44(t *testing.T) {
	checkWukong(t, []string{filepath.Join("..", "testdata", "dhtmlxq", "wukong-44.html")})
}

// TestWukongPages reads the 15 wxf.ca pages: one record each, the result
// letter mapped.
func TestWukongPages(t *testing.T) {
	dir := enginetest.SharedData(t, "xiangqi/samples/wukong-xqdb-notation/games_html")
	files, _ := filepath.Glob(filepath.Join(dir, "*.html"))
	if len(files) != 15 {
		t.Fatalf("%d pages, want 15", len(files))
	}
	checkWukong(t, files)
}

func checkWukong(t *testing.T, files []string) {
	if len(files) == 0 {
		t.Fatal("no pages")
	}
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		recs, errs := readAll(t, f, p)
		f.Close()
		if len(recs) != 1 || errs[0] != nil {
			t.Errorf("%s: %d records, %v", p, len(recs), errs)
			continue
		}
		rec := recs[0]
		if rec.FEN != board.Start || len(rec.Moves) < 40 || rec.Tag("Red") == "" || !strings.Contains("1-0 0-1 1/2-1/2", rec.Tag("Result")) {
			t.Errorf("%s: FEN %q, %d moves, tags %v", p, rec.FEN, len(rec.Moves), rec.Tags)
		}
		if strings.HasSuffix(p, "44.html") {
			// bulk_games_uci.pgn, game 1: ZHAO GuoRong – KE YongQing.
			const head = "h2e2 h9g7 h0g2 i9h9 c3c4 g6g5 b0c2 b9c7 i0i1 c9e7 i1f1 h7h5"
			if got := movetext(rec); !strings.HasPrefix(got, head) || len(rec.Moves) != 127 {
				t.Errorf("44.html: %d moves %.60q", len(rec.Moves), got)
			}
		}
	}
}

// TestVschessStress reads vschess dhtmlxq.txt: one record "仙人指路全集"
// with 1,446 variation branches and 314 comments, every one attached.
func TestVschessStress(t *testing.T) {
	f, err := os.Open(enginetest.SharedData(t, "xiangqi/samples/vschess-dhtmlxq/dhtmlxq.txt.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	recs, errs := readAll(t, z, "dhtmlxq.txt")
	if len(recs) != 1 || errs[0] != nil {
		t.Fatalf("%d records, %v", len(recs), errs)
	}
	rec := recs[0]
	var variations, comments, moves int
	for _, e := range rec.Elements {
		switch e.Kind {
		case record.VariationStart:
			variations++
		case record.Comment:
			comments++
		case record.Move:
			moves++
		}
	}
	if variations != 1446 || comments != 314 || len(rec.Moves) != 53 || rec.Encoding != "utf-8" {
		t.Errorf("%d variations, %d comments, %d main-line moves (%d in all), encoding %s; want 1,446, 314, 53, utf-8",
			variations, comments, len(rec.Moves), moves, rec.Encoding)
	}
	if rec.Tag("Title") != "仙人指路全集（史上最全最新版）" || rec.Source.Offset != 3 {
		t.Errorf("title %q, offset %d (after the BOM)", rec.Tag("Title"), rec.Source.Offset)
	}
}
