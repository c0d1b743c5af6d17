package index

import (
	"reflect"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/engine/movetext"
)

// annotated is a Xiangqi game with a comment before the first move, NAGs,
// a variation holding a comment, a null move and a nested variation.
func annotated(t *testing.T) *Record {
	t.Helper()
	main := playICCS(t, "", "h2e2", "h9g7", "h0g2", "i9h9")
	v1 := playICCS(t, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "b2e2", "b9c7")
	v2 := playICCS(t, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1", "h7e7")
	return &Record{
		Game: engine.Xiangqi, Moves: main, Result: engine.Draw, Tags: []Tag{{"Red", "A"}},
		Notes: []movetext.Note{
			{At: 0, Kind: movetext.Comment, Text: "开局 {note}"},
			{At: 1, Kind: movetext.NAG, NAG: 1},
			{At: 1, Kind: movetext.Variation, Line: &movetext.Line{
				Moves: append(v1, engine.NullMove),
				Notes: []movetext.Note{{At: 1, Kind: movetext.Comment, Text: "过宫炮"}, {At: 3, Kind: movetext.NAG, NAG: 6}},
			}},
			{At: 2, Kind: movetext.Variation, Line: &movetext.Line{
				Moves: v2,
				Notes: []movetext.Note{{At: 1, Kind: movetext.Variation, Line: &movetext.Line{Moves: playICCS(t, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1", "b7e7")}}},
			}},
			{At: 4, Kind: movetext.Comment, Text: "end"},
		},
	}
}

// TestRecordKeepsNotes: comments, NAGs and variations (nested, with a
// null move) read back as written, whether the replay ranked the main line
// or not; a game without notes is not a byte longer than in version 2.
func TestRecordKeepsNotes(t *testing.T) {
	r := annotated(t)
	for _, ranked := range []bool{false, true} {
		rr := *r
		if ranked {
			p, _ := games.New(rr.Game, "")
			for _, m := range rr.Moves {
				rr.Ranks = append(rr.Ranks, uint8(games.RankLegal(p, m)))
				p.Make(m)
			}
		}
		b, err := encodeRecord(nil, &rr)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeRecord(1, b)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Notes, r.Notes) || !reflect.DeepEqual(got.Moves, r.Moves) {
			t.Fatalf("ranked %v: notes\n got %+v\nwant %+v", ranked, got.Notes, r.Notes)
		}
	}
	plain := *r
	plain.Notes = nil
	b, _ := encodeRecord(nil, &plain)
	v2 := append([]byte{2}, b[1:]...)
	if got, err := decodeRecord(1, v2); err != nil || !reflect.DeepEqual(got.Moves, r.Moves) || got.Notes != nil {
		t.Fatalf("a game without notes is not a version 2 record with another version byte: %v", err)
	}
}

// TestRecordRejectsBadNotes: notes out of order or a variation before any
// move are refused when encoding; truncated notes do not decode.
func TestRecordRejectsBadNotes(t *testing.T) {
	r := annotated(t)
	bad := *r
	bad.Notes = []movetext.Note{{At: 2, Kind: movetext.Comment, Text: "x"}, {At: 1, Kind: movetext.Comment, Text: "y"}}
	if _, err := encodeRecord(nil, &bad); err == nil {
		t.Error("notes out of order encoded")
	}
	bad.Notes = []movetext.Note{{At: 0, Kind: movetext.Variation, Line: &movetext.Line{}}}
	if _, err := encodeRecord(nil, &bad); err == nil {
		t.Error("a variation before any move encoded")
	}
	b, err := encodeRecord(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	for cut := len(b) - 1; cut > len(b)-30; cut-- {
		if _, err := decodeRecord(1, b[:cut]); err == nil {
			t.Errorf("record cut to %d of %d bytes decoded", cut, len(b))
		}
	}
}

// FuzzRecordRoundTrip: any record that decodes encodes back to the same
// bytes.
func FuzzRecordRoundTrip(f *testing.F) {
	r := annotated(&testing.T{})
	b, _ := encodeRecord(nil, r)
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeRecord(1, b)
		if err != nil {
			return
		}
		again, err := encodeRecord(nil, r)
		if err != nil {
			t.Fatalf("decoded record does not encode: %v", err)
		}
		r2, err := decodeRecord(1, again)
		if err != nil || !reflect.DeepEqual(r2.Moves, r.Moves) || !reflect.DeepEqual(r2.Notes, r.Notes) {
			t.Fatalf("round trip differs: %v", err)
		}
	})
}
