package pgn_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/importer/pgn"
	"github.com/xqdb/xqdb/importer/record"
)

// got is what a test checks of one record.
type got struct {
	tags   string // "Name=Value;…"
	moves  string // main line, space-separated
	result string
	game   engine.Game
	err    error // errors.Is target; nil for none
}

// readAll reads every record of input, failing on non-ParseError errors.
func readAll(t *testing.T, input string, reuse bool) ([]*record.Record, []error) {
	t.Helper()
	r := pgn.NewReader(strings.NewReader(input), "test.pgn")
	r.ReuseRecord = reuse
	var recs []*record.Record
	var errs []error
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return recs, errs
		}
		var pe *record.ParseError
		if err != nil && !errors.As(err, &pe) {
			t.Fatalf("Next: %v", err)
		}
		if rec != nil {
			recs = append(recs, rec)
			errs = append(errs, err)
		}
		if len(recs) > 1000 {
			t.Fatal("runaway reader")
		}
	}
}

func summary(rec *record.Record, err error) got {
	var tags, moves []string
	for _, tg := range rec.Tags {
		tags = append(tags, tg.Name+"="+tg.Value)
	}
	for i := range rec.Moves {
		moves = append(moves, string(rec.MoveText(i)))
	}
	return got{strings.Join(tags, ";"), strings.Join(moves, " "), rec.Result, rec.Game, err}
}

func TestReader(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []got
	}{
		{"seven tags and moves",
			"[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n",
			[]got{{tags: "Event=x;Result=1-0", moves: "e4 e5 Nf3", result: "1-0", game: engine.Chess}}},
		{"header-less fragment with glued numbers (notnil 0008)",
			"1.e4 e6 2.d4 d5",
			[]got{{moves: "e4 e6 d4 d5", game: engine.Chess}}},
		{"black continuation and three dots",
			"1... e5 2. Nf3 2...Nc6 *",
			[]got{{moves: "e5 Nf3 Nc6", result: "*", game: engine.Chess}}},
		{"comments NAGs variations",
			"1. e4 {best} e5 $1 (1... c5 2. Nf3 (2. c3 d5)) 2. Nf3 ; rest of line (\n2... Nc6 !? *",
			[]got{{moves: "e4 e5 Nf3 Nc6", result: "*", game: engine.Chess}}},
		{"tag section then two blank lines (pgnmentor Gelfand)",
			"[Event \"a\"]\r\n[Result \"1/2-1/2\"]\r\n\r\n\r\n1.e4 c5 1/2-1/2\r\n",
			[]got{{tags: "Event=a;Result=1/2-1/2", moves: "e4 c5", result: "1/2-1/2", game: engine.Chess}}},
		{"header-only records (scalachess FWWRC)",
			"[Event \"a\"]\n[White \"w\"]\n\n[Event \"a\"]\n[White \"v\"]\n\n[Event \"a\"]\n",
			[]got{{tags: "Event=a;White=w", game: engine.Chess}, {tags: "Event=a;White=v", game: engine.Chess}, {tags: "Event=a"}}},
		{"blank line inside a tag section (python-chess chessbase-empty-line)",
			"[Event \"a\"]\n\n[Date \"b\"]\n\n1. e4 *\n",
			[]got{{tags: "Event=a;Date=b", moves: "e4", result: "*", game: engine.Chess}}},
		{"second Event without blank line starts a record",
			"[Event \"a\"]\n[Event \"b\"]\n1. e4 *",
			[]got{{tags: "Event=a"}, {tags: "Event=b", moves: "e4", result: "*", game: engine.Chess}}},
		{"tags immediately followed by movetext, advert after the result (walker8088)",
			"[Game \"Chinese Chess\"]\r\n  1. 炮二平五 马８进７\r\n{议和}\r\n 1/2-1/2\r\n============================\r\n 欢迎访问《象棋百科全书网》\r\n http://www.elephantbase.net/\r\n",
			[]got{{tags: "Game=Chinese Chess", moves: "炮二平五 马８进７", result: "1/2-1/2", game: engine.Xiangqi}}},
		{"XQ PGN continuation after a comment (eleeye SAMPLE.PGN)",
			"[Game \"Chinese Chess\"]\n  3. 炮二平五\n{　　再架中炮也属正着}\n  3.          马８进７\n  4. 马二进三 车９平８\n1-0\n",
			[]got{{tags: "Game=Chinese Chess", moves: "炮二平五 马８进７ 马二进三 车９平８", result: "1-0", game: engine.Xiangqi}}},
		{"black in the first slot (CCPD)",
			"[FEN \"4kab2/4a4/2R1b1P2/9/p3p4/5p3/P3P1c2/N2Cr4/4A4/3AK4 b - - 0 1\"]\n\n1. 車５平８\n2. 馬九進七 卒６進１\n\n0-1\n",
			[]got{{tags: "FEN=4kab2/4a4/2R1b1P2/9/p3p4/5p3/P3P1c2/N2Cr4/4A4/3AK4 b - - 0 1", moves: "車５平８ 馬九進七 卒６進１", result: "0-1", game: engine.Xiangqi}}},
		{"escape lines, BOM, CRLF, \\r\\r\\n, NULs",
			"\ufeff% exported by X\r\r\n[Event \"x\"]\r\r\n\r\r\n1. e4 e5 0-1\r\n\x00\x00",
			[]got{{tags: "Event=x", moves: "e4 e5", result: "0-1", game: engine.Chess}}},
		{"chess_db-pgn spellings: castling zeros glued to the number, dots glued to the move, a lone check mark, a glued result",
			"1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4.0-0 d6 5. d3 ...Nf6 + 6. Bg5 $18. h6 7. Bh40-1",
			[]got{{moves: "e4 e5 Nf3 Nc6 Bc4 Bc5 0-0 d6 d3 Nf6 Bg5 h6 Bh4", result: "0-1", game: engine.Chess}}},
		{"short draw mark",
			"1. d4 d5 1/2",
			[]got{{moves: "d4 d5", result: "1/2-1/2", game: engine.Chess}}},
		{"half-point draw",
			"1. d4 d5 ½-½",
			[]got{{moves: "d4 d5", result: "1/2-1/2", game: engine.Chess}}},
		{"escaped and unescaped quotes in tags",
			"[Event \"a \\\"b\\\" c\"]\n[Site \"首屆\"呂泉杯\"賽\"]\n[Annotator \"back\\\\slash\"]\n*",
			[]got{{tags: "Event=a \"b\" c;Site=首屆\"呂泉杯\"賽;Annotator=back\\slash", result: "*"}}},
		{"headers and moves on one line (chessops)",
			"[Variant \"Antichess\"] 1.e3 e6 2.b4 Bxb4 3.Qg4 { c }\n\n[Variant \"Antichess\"]\n1.e3 e6",
			[]got{{tags: "Variant=Antichess", moves: "e3 e6 b4 Bxb4 Qg4", game: engine.Chess},
				{tags: "Variant=Antichess", moves: "e3 e6", game: engine.Chess}}},
		{"header-less games one after another",
			"1. e4 e5 2. Nf3\n\n1. d4 d5 *",
			[]got{{moves: "e4 e5 Nf3", game: engine.Chess}, {moves: "d4 d5", result: "*", game: engine.Chess}}},
		{"WXF tandem pawns are moves, not move numbers",
			"[Format \"WXF\"]\n1. C2.5 H8+7 2. 33.4 *",
			[]got{{tags: "Format=WXF", moves: "C2.5 H8+7 33.4", result: "*", game: engine.Xiangqi}}},
		{"full-width WXF (wukong)",
			"[Red \"A\"]\n1. Ｃ２＝５ Ｈ８＋７ 2. ＋Ｐ＋１ *",
			[]got{{tags: "Red=A", moves: "Ｃ２＝５ Ｈ８＋７ ＋Ｐ＋１", result: "*", game: engine.Xiangqi}}},
		{"ICCS without tags is Xiangqi when a rank is 0 or 9",
			"1. h2e2 h9g7 2. h0g2 *",
			[]got{{moves: "h2e2 h9g7 h0g2", result: "*", game: engine.Xiangqi}}},
		{"unterminated tag string",
			"[Event \"abc\n[Site \"s\"]\n1. e4 *",
			[]got{{tags: "Event=abc;Site=s", moves: "e4", result: "*", game: engine.Chess, err: record.ErrUnterminatedTag}}},
		{"unterminated comment recovered at the next tag section",
			"[Event \"a\"]\n1. e4 {oops\n\n[Event \"b\"]\n1. d4 *",
			[]got{{tags: "Event=a", moves: "e4", game: engine.Chess, err: record.ErrUnterminatedComment},
				{tags: "Event=b", moves: "d4", result: "*", game: engine.Chess}}},
		{"unterminated comment at the end",
			"1. e4 {never closed",
			[]got{{moves: "e4", game: engine.Chess, err: record.ErrUnterminatedComment}}},
		{"variation still open at the end",
			"1. e4 (1. d4 d5 *",
			[]got{{moves: "e4", game: engine.Chess, err: record.ErrUnbalancedVariation}}},
		{"stray closing parenthesis",
			"1. e4 ) e5 *",
			[]got{{moves: "e4 e5", result: "*", game: engine.Chess, err: record.ErrUnbalancedVariation}}},
		{"prose around games is skipped",
			"Games from the club\n\n[Event \"a\"]\n1. e4 1-0\nThat was all.\n",
			[]got{{tags: "Event=a", moves: "e4", result: "1-0", game: engine.Chess}}},
		{"comment after a result is dropped with the text around it",
			"1. e4 1-0 {end}\n\n[Event \"b\"]\n1. d4 *",
			[]got{{moves: "e4", result: "1-0", game: engine.Chess}, {tags: "Event=b", moves: "d4", result: "*", game: engine.Chess}}},
		{"comment before header-less movetext opens the record",
			"{intro} 1. e4 *",
			[]got{{moves: "e4", result: "*", game: engine.Chess}}},
		{"empty input", "", nil},
		{"blank and NUL only", "\n\n\x00\r\n", nil},
	}
	for _, tt := range tests {
		for _, reuse := range []bool{false, true} {
			t.Run(tt.name, func(t *testing.T) {
				recs, errs := readAll(t, tt.input, reuse)
				if len(recs) != len(tt.want) {
					t.Fatalf("got %d records, want %d", len(recs), len(tt.want))
				}
				for i, rec := range recs {
					if reuse && i+1 < len(recs) {
						continue // a reused record only holds the last one
					}
					g := summary(rec, errs[i])
					w := tt.want[i]
					if g.tags != w.tags || g.moves != w.moves || g.result != w.result || g.game != w.game {
						t.Errorf("record %d:\n got %+v\nwant %+v", i+1, g, w)
					}
					if (w.err == nil) != (errs[i] == nil) || w.err != nil && !errors.Is(errs[i], w.err) {
						t.Errorf("record %d: err = %v, want %v", i+1, errs[i], w.err)
					}
				}
			})
		}
	}
}

func TestElements(t *testing.T) {
	in := "[Event \"e\"]\n1. e4 {a\nb} e5 $1 (1... c5 (1... e6)) 2.Nf3 ; note\n*\n"
	recs, _ := readAll(t, in, false)
	if len(recs) != 1 {
		t.Fatalf("got %d records", len(recs))
	}
	rec := recs[0]
	var got []string
	for _, e := range rec.Elements {
		got = append(got, e.Kind.String()+":"+string(rec.TokenText(e))+":"+string(rune('0'+e.Depth)))
	}
	want := []string{"number:1.:0", "move:e4:0", "comment:a\nb:0", "move:e5:0", "nag:$1:0",
		"(:(:1", "number:1...:1", "move:c5:1", "(:(:2", "number:1...:2", "move:e6:2", "):):2", "):):1",
		"number:2.:0", "move:Nf3:0", "line-comment: note:0", "result:*:0"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("elements\n got %q\nwant %q", got, want)
	}
}

func TestSourcePositions(t *testing.T) {
	in := "[Event \"a\"]\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. d4\n   d5 0-1\n"
	recs, _ := readAll(t, in, false)
	if len(recs) != 2 {
		t.Fatalf("got %d records", len(recs))
	}
	tests := []struct {
		name                string
		src                 record.Source
		wantLine            int
		wantOffset          int64
		move                int
		wantMoveLine        int32
		wantMoveOffset      int64
		wantRaw, wantMoveTx string
	}{
		{"first", recs[0].Source, 1, 0, 1, 2, 18, "[Event \"a\"]\n1. e4 e5 1-0\n", "e5"},
		{"second", recs[1].Source, 4, 26, 1, 7, 48, "[Event \"b\"]\n\n1. d4\n   d5 0-1\n", "d5"},
	}
	for i, tt := range tests {
		rec := recs[i]
		if tt.src.Line != tt.wantLine || tt.src.Offset != tt.wantOffset || tt.src.Game != i+1 || tt.src.File != "test.pgn" {
			t.Errorf("%s: source %+v, want line %d offset %d game %d", tt.name, tt.src, tt.wantLine, tt.wantOffset, i+1)
		}
		m := rec.Moves[tt.move]
		if m.Line != tt.wantMoveLine || m.Offset != tt.wantMoveOffset || string(rec.MoveText(tt.move)) != tt.wantMoveTx {
			t.Errorf("%s: move %d at line %d offset %d %q, want %d %d %q", tt.name, tt.move, m.Line, m.Offset,
				rec.MoveText(tt.move), tt.wantMoveLine, tt.wantMoveOffset, tt.wantMoveTx)
		}
		if string(in[m.Offset:m.Offset+int64(m.End-m.Start)]) != tt.wantMoveTx {
			t.Errorf("%s: offset %d does not point at the move in the file", tt.name, m.Offset)
		}
		if string(rec.Raw) != tt.wantRaw {
			t.Errorf("%s: raw %q, want %q", tt.name, rec.Raw, tt.wantRaw)
		}
	}
}

func TestRecordTooLarge(t *testing.T) {
	big := "[Event \"big\"]\n1. " + strings.Repeat("e4 e5 ", 50000) + "*\n"
	in := "[Event \"a\"]\n1. e4 *\n\n" + big + "\n[Event \"c\"]\n1. d4 *\n"
	r := pgn.NewReader(strings.NewReader(in), "big.pgn")
	r.MaxRecordSize = 1000
	var events []string
	var tooLarge int
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if errors.Is(err, record.ErrRecordTooLarge) {
			tooLarge++
			if rec != nil {
				t.Error("a too-large record must come back nil")
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, rec.Tag("Event"))
	}
	if got, want := strings.Join(events, ","), "a,c"; got != want || tooLarge != 1 {
		t.Errorf("events %q (too large %d), want %q and 1", got, tooLarge, want)
	}
}

func TestReuseRecordAllocations(t *testing.T) {
	game := "[Event \"e\"]\n[Site \"s\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n" +
		"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 1-0\n\n"
	in := strings.Repeat(game, 200)
	allocs := testing.AllocsPerRun(5, func() {
		r := pgn.NewReader(strings.NewReader(in), "x")
		r.ReuseRecord = true
		for {
			if _, err := r.Next(); err == io.EOF {
				break
			}
		}
	})
	// Per record one string for the tags; per reader a few buffers.
	if perRecord := allocs / 200; perRecord > 1.2 {
		t.Errorf("%.1f allocations per record with ReuseRecord, want ≤ 1.2", perRecord)
	}
}

func TestStickyIOError(t *testing.T) {
	boom := errors.New("boom")
	r := pgn.NewReader(io.MultiReader(strings.NewReader("[Event \"a\"]\n1. e4 *\n[Event \"cut"), &failReader{boom}), "x")
	// The complete record before the failure comes through; the one the
	// failure cut does not, and the error stays.
	if rec, err := r.Next(); err != nil || rec.Tag("Event") != "a" {
		t.Fatalf("first record: %v, %v", rec, err)
	}
	for i := 0; i < 3; i++ {
		_, err := r.Next()
		if !errors.Is(err, boom) {
			t.Fatalf("call %d: err = %v, want %v", i+1, err, boom)
		}
	}
}

type failReader struct{ err error }

func (f *failReader) Read([]byte) (int, error) { return 0, f.err }
