package pgn_test

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/importer/internal/xqtest"
	"github.com/xqdb/xqdb/importer/pgn"
	"github.com/xqdb/xqdb/importer/record"
)

// readFile reads every record of a file, returning records and the
// ParseErrors that came with them (nil entries for clean records).
func readFile(t *testing.T, path string) ([]*record.Record, []error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return readStream(t, f, path)
}

func readStream(t *testing.T, in io.Reader, name string) ([]*record.Record, []error) {
	t.Helper()
	return xqtest.ReadAll(t, pgn.NewReader(in, name).Next)
}

func fixture(name string) string { return filepath.Join("..", "testdata", "pgn", name) }

// TestFixtures checks small real files (see testdata/SOURCES.md).
func TestFixtures(t *testing.T) {
	tests := []struct {
		file      string
		records   int
		encoding  string
		game      engine.Game
		firstMove string
		moves     int // main-line moves of the first record
		check     func(t *testing.T, recs []*record.Record)
	}{
		{"ccpd-black-first.big5.pgn", 1, "big5", engine.Xiangqi, "卒３進１", 25, func(t *testing.T, recs []*record.Record) {
			if got, want := recs[0].FEN, "3rkab2/4a4/b5c1n/p1p3p2/9/2P1P1P1C/P2n3rP/2N1B4/1R3N3/2BAKA2R b - - 0 1"; got != want {
				t.Errorf("FEN %q, want %q", got, want)
			}
			if got, want := recs[0].Tag("Event"), "實戰殺局11"; got != want {
				t.Errorf("Event %q, want %q", got, want)
			}
		}},
		{"ccpd-quote-in-tag.big5.pgn", 1, "big5", engine.Xiangqi, "炮二平五", 0, func(t *testing.T, recs []*record.Record) {
			if got, want := recs[0].Tag("Event"), `1999年"中視股份杯"象棋年度總決賽 (半決賽)廣東呂欽先勝黑龍江趙國榮`; got != want {
				t.Errorf("Event %q, want %q", got, want)
			}
		}},
		{"ccpd-no-moves.big5.pgn", 1, "big5", engine.Xiangqi, "", 0, func(t *testing.T, recs []*record.Record) {
			if recs[0].Result != "1-0" {
				t.Errorf("result %q, want 1-0", recs[0].Result)
			}
		}},
		{"walker-crcrlf.gbk.pgn", 1, "gbk", engine.Xiangqi, "", 0, nil},
		{"walker-advert.gbk.pgn", 1, "gbk", engine.Xiangqi, "炮二平五", 74, func(t *testing.T, recs []*record.Record) {
			rec := recs[0]
			if rec.Result != "1/2-1/2" || rec.Tag("Red") != "phongvo(月将)" {
				t.Errorf("result %q red %q", rec.Result, rec.Tag("Red"))
			}
			last := rec.Elements[len(rec.Elements)-2]
			if last.Kind != record.Comment || string(rec.TokenText(last)) != "议和" {
				t.Errorf("comment before the result: %v %q", last.Kind, rec.TokenText(last))
			}
		}},
		{"eleeye-SAMPLE.gbk.pgn", 1, "gbk", engine.Xiangqi, "炮八平五", 75, func(t *testing.T, recs []*record.Record) {
			if got, want := recs[0].FEN, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1"; got != want {
				t.Errorf("FEN %q, want %q", got, want)
			}
		}},
		{"pgnmentor-quirks.pgn", 5, "utf-8", engine.Chess, "e4", 0, func(t *testing.T, recs []*record.Record) {
			tests := []struct{ tag, want, enc string }{
				{"Black", "Gelfand,B", "utf-8"},
				{"Black", "Quadros,André", "cp437"},
				{"Black", "Wälbers, W.", "windows-1252"},
				{"Black", "Bidjukov\u00a0", "windows-1252"},
				{"Result", "0-1", "utf-8"},
			}
			for i, tt := range tests {
				if got := recs[i].Tag(tt.tag); got != tt.want || recs[i].Encoding != tt.enc {
					t.Errorf("record %d: %s %q (%s), want %q (%s)", i+1, tt.tag, got, recs[i].Encoding, tt.want, tt.enc)
				}
			}
			if stein := recs[4]; stein.Result != "0-1" || len(stein.Moves) == 0 {
				t.Errorf("Stein's last game: result %q, %d moves", stein.Result, len(stein.Moves))
			}
		}},
		{"fwwrc-3.pgn", 3, "utf-8", engine.Chess, "", 0, func(t *testing.T, recs []*record.Record) {
			for _, rec := range recs {
				if len(rec.Moves) != 0 || len(rec.Tags) < 15 || rec.IsVariant() {
					t.Errorf("%+v: %d moves, %d tags, variant %v", rec.Source, len(rec.Moves), len(rec.Tags), rec.IsVariant())
				}
			}
		}},
		// Four games, one per comment in the file; python-chess reports
		// two (it does not take a tag section indented by blanks as one).
		{"leading-whitespace.pgn", 4, "utf-8", engine.Chess, "e4", 5, nil},
		{"headers-and-moves-on-the-same-line.pgn", 3, "utf-8", engine.Chess, "e3", 5, func(t *testing.T, recs []*record.Record) {
			for _, rec := range recs {
				if !rec.IsVariant() || rec.Variant != "Antichess" {
					t.Errorf("%+v: variant %q not flagged", rec.Source, rec.Variant)
				}
			}
		}},
		{"pathological-headers.pgn", 1, "utf-8", engine.UnknownGame, "", 0, func(t *testing.T, recs []*record.Record) {
			want := []string{`b"`, `b"`, `A]]`, `A]][`, `"A]]["`, `"A]]["\`, `"]`}
			for i, w := range want {
				if got := recs[0].Tags[i].Value; got != w {
					t.Errorf("tag %d = %q, want %q", i, got, w)
				}
			}
		}},
		{"chessbase-empty-line.pgn", 1, "utf-8", engine.Chess, "e4", 134, nil},
		{"utf8-bom.pgn", 2, "utf-8", engine.Chess, "", 0, func(t *testing.T, recs []*record.Record) {
			if recs[0].Tags[0].Name != "Event" || recs[0].Source.Offset != 3 {
				t.Errorf("first tag %q at offset %d: the BOM leaked", recs[0].Tags[0].Name, recs[0].Source.Offset)
			}
		}},
		{"cutechess-fischerrandom.pgn", 4, "utf-8", engine.Chess, "", 0, func(t *testing.T, recs []*record.Record) {
			for _, rec := range recs {
				if !rec.IsVariant() || rec.FEN == "" {
					t.Errorf("%+v: variant %q FEN %q", rec.Source, rec.Variant, rec.FEN)
				}
			}
		}},
		{"knightvuillaume-jannlee-zh-lichess.pgn", 1, "utf-8", engine.Chess, "d4", 0, func(t *testing.T, recs []*record.Record) {
			if !recs[0].IsVariant() {
				t.Errorf("crazyhouse not flagged: %q", recs[0].Variant)
			}
		}},
		{"notnil-0008.pgn", 1, "utf-8", engine.Chess, "e4", 4, nil},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			recs, errs := readFile(t, fixture(tt.file))
			if len(recs) != tt.records {
				t.Fatalf("got %d records, want %d", len(recs), tt.records)
			}
			for i, err := range errs {
				if err != nil {
					t.Errorf("record %d: %v", i+1, err)
				}
			}
			rec := recs[0]
			if rec.Encoding != tt.encoding || rec.Game != tt.game {
				t.Errorf("encoding %s game %v, want %s %v", rec.Encoding, rec.Game, tt.encoding, tt.game)
			}
			if tt.firstMove != "" && (len(rec.Moves) == 0 || string(rec.MoveText(0)) != tt.firstMove) {
				t.Errorf("first move %q, want %q", firstMove(rec), tt.firstMove)
			}
			if tt.moves != 0 && len(rec.Moves) != tt.moves {
				t.Errorf("%d moves, want %d", len(rec.Moves), tt.moves)
			}
			if tt.check != nil {
				tt.check(t, recs)
			}
		})
	}
}

func firstMove(rec *record.Record) string {
	if len(rec.Moves) == 0 {
		return ""
	}
	return string(rec.MoveText(0))
}
