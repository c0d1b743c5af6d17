package record_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/importer/record"
)

func TestMoveShape(t *testing.T) {
	tests := []struct {
		tok  string
		want record.Shape
	}{
		{"炮二平五", record.ShapeXiangqi},
		{"馬８進７", record.ShapeXiangqi},
		{"前車平四", record.ShapeXiangqi},
		{"Ｃ２＝５", record.ShapeXiangqi},
		{"＋Ｐ＋１", record.ShapeXiangqi},
		{"C2.5", record.ShapeXiangqi},
		{"H8+7", record.ShapeXiangqi},
		{"R1=2", record.ShapeXiangqi},
		{"+C-1", record.ShapeXiangqi},
		{"33.4", record.ShapeXiangqi},
		{"P2-5", record.ShapeXiangqi}, // Vietnamese
		{"Tg5.1", record.ShapeXiangqi},
		{"h2e2", record.ShapeCoordinate},
		{"h0g2", record.ShapeXiangqi},
		{"i9h9", record.ShapeXiangqi},
		{"H2-E2", record.ShapeCoordinate},
		{"e2e4", record.ShapeCoordinate},
		{"e7e8q", record.ShapeChess},
		{"e4", record.ShapeChess},
		{"Nf3", record.ShapeChess},
		{"exd5", record.ShapeChess},
		{"Qxe7+", record.ShapeChess},
		{"R1e2", record.ShapeChess},
		{"e8=Q#", record.ShapeChess},
		{"O-O-O", record.ShapeChess},
		{"0-0", record.ShapeChess},
		{"--", record.ShapeChess},
		{"欢迎访问", record.ShapeUnknown},
		{"====", record.ShapeUnknown},
		{"http://x", record.ShapeUnknown},
		{"", record.ShapeUnknown},
	}
	for _, tt := range tests {
		if got := record.MoveShape([]byte(tt.tok)); got != tt.want {
			t.Errorf("MoveShape(%q) = %d, want %d", tt.tok, got, tt.want)
		}
	}
}

// rec builds a record with tags and main-line moves.
func rec(tags []record.Tag, moves ...string) *record.Record {
	r := &record.Record{Tags: tags}
	for _, m := range moves {
		start := len(r.Text)
		r.Text = append(r.Text, m...)
		r.Moves = append(r.Moves, record.Token{Kind: record.Move, Start: int32(start), End: int32(len(r.Text))})
	}
	return r
}

func TestDetect(t *testing.T) {
	coords := []string{}
	for i := 0; i < 20; i++ {
		coords = append(coords, "e2e4")
	}
	tests := []struct {
		name        string
		r           *record.Record
		wantGame    engine.Game
		wantVariant bool
		wantHint    engine.Notation
	}{
		{"Game tag", rec([]record.Tag{{"Game", "Chinese Chess"}}), engine.Xiangqi, false, engine.Auto},
		{"Game tag chess", rec([]record.Tag{{"game", "Chess"}}, "h2e2"), engine.Chess, false, engine.Auto},
		{"Variant xiangqi", rec([]record.Tag{{"Variant", "xiangqi"}}), engine.Xiangqi, false, engine.Auto},
		{"Variant crazyhouse", rec([]record.Tag{{"Variant", "Crazyhouse"}}, "e4"), engine.Chess, true, engine.Auto},
		{"Variant chess960", rec([]record.Tag{{"Variant", "Chess960"}}), engine.Chess, true, engine.Auto},
		{"Variant standard", rec([]record.Tag{{"Variant", "Standard"}}), engine.Chess, false, engine.Auto},
		{"FEN 10 ranks", rec([]record.Tag{{"FEN", "4k4/9/9/9/9/9/9/9/9/4K4 w"}}), engine.Xiangqi, false, engine.Auto},
		{"FEN 8 ranks", rec([]record.Tag{{"FEN", "8/8/8/8/8/8/8/K1k5 w - - 0 1"}}), engine.Chess, false, engine.Auto},
		{"Format ICCS", rec([]record.Tag{{"Format", "ICCS"}}, "H2-E2"), engine.Xiangqi, false, engine.ICCS},
		{"Format WXF", rec([]record.Tag{{"FORMAT", "WXF"}}), engine.Xiangqi, false, engine.WXF},
		{"Red tag", rec([]record.Tag{{"Red", "A"}}, "h2e2"), engine.Xiangqi, false, engine.Auto},
		{"Chinese moves", rec(nil, "炮二平五", "马８进７"), engine.Xiangqi, false, engine.Auto},
		{"SAN moves", rec(nil, "e4", "e5", "Nf3"), engine.Chess, false, engine.Auto},
		{"ICCS with rank 9", rec(nil, "h2e2", "h9g7"), engine.Xiangqi, false, engine.Auto},
		{"few a-h/1-8 coordinates tell nothing", rec(nil, "h2e2", "h7e7"), engine.UnknownGame, false, engine.Auto},
		{"twenty a-h/1-8 coordinates are chess", rec(nil, coords...), engine.Chess, false, engine.Auto},
		{"White tag alone", rec([]record.Tag{{"White", "w"}}), engine.Chess, false, engine.Auto},
		{"nothing", rec(nil), engine.UnknownGame, false, engine.Auto},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			record.Detect(tt.r)
			if tt.r.Game != tt.wantGame || tt.r.IsVariant() != tt.wantVariant || tt.r.NotationHint != tt.wantHint {
				t.Errorf("game %v variant %v hint %v, want %v %v %v", tt.r.Game, tt.r.IsVariant(), tt.r.NotationHint,
					tt.wantGame, tt.wantVariant, tt.wantHint)
			}
		})
	}
}

func TestNormalizeXiangqiFEN(t *testing.T) {
	tests := []struct{ in, want string }{
		{"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"},
		{"rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"},
		{"4k4/9/9/9/9/9/9/9/9/4K4 r", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"},
		{"  4k4/9/9/9/9/9/9/9/9/4K4   b  ", "4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1"},
		{"4k4/9/9/9/9/9/9/9/9/4K4", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"},
		{"4k4/9/9/9/9/9/9/9/9/4K4 b - - 3 40", "4k4/9/9/9/9/9/9/9/9/4K4 b - - 3 40"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := record.NormalizeXiangqiFEN(tt.in); got != tt.want {
			t.Errorf("NormalizeXiangqiFEN(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTagLookup(t *testing.T) {
	r := rec([]record.Tag{{"Event", "a"}, {"EVENT", "b"}, {"Site", ""}})
	if v, ok := r.TagValue("event"); !ok || v != "a" {
		t.Errorf("TagValue(event) = %q, %v; want the first, case-insensitively", v, ok)
	}
	if v, ok := r.TagValue("Site"); !ok || v != "" {
		t.Errorf("an empty tag is still there: %q %v", v, ok)
	}
	if _, ok := r.TagValue("Round"); ok {
		t.Error("absent tag found")
	}
}

func TestParseErrorText(t *testing.T) {
	err := &record.ParseError{Source: record.Source{File: "a.pgn", Game: 3, Line: 10}, Line: 12,
		Err: fmt.Errorf("pgn: %w", record.ErrUnterminatedTag)}
	if got, want := err.Error(), "a.pgn:12: game 3: pgn: unterminated tag"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(err, record.ErrUnterminatedTag) {
		t.Error("ParseError does not unwrap to its sentinel")
	}
	fileLevel := &record.ParseError{Source: record.Source{File: "x.cbl"}, Err: record.ErrUnsupportedFormat}
	if got, want := fileLevel.Error(), "x.cbl: unsupported format"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
