package xiangqi

import (
	"errors"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// TestDetectNotation: a token's shape says which notations it could be in
// (NOTATIONS §5: WXF and Vietnamese share P, C, B, '.' and '-').
func TestDetectNotation(t *testing.T) {
	cases := []struct{ tok, want string }{
		{"h2e2", "iccs"},
		{"H2-E2", "iccs"},
		{"ｈ２ｅ２", "iccs"},
		{"炮二平五", "chinese|chinese-traditional"},
		{"马８进７", "chinese"},
		{"馬８進７", "chinese-traditional"},
		{"後車退一", "chinese-traditional"},
		{"马8進7", "chinese|chinese-traditional"},
		{"H8+7", "wxf"},
		{"C2=5", "wxf"},
		{"C25", "wxf"},
		{"Ｃ２＝５", "wxf"},
		{"＋Ｐ＋１", "wxf"},
		{"+C.5", "wxf"},
		{"3+.4", "wxf"},
		{"++.4", "wxf"},
		{"C2.5", "wxf|vietnamese"},
		{"P2-5", "wxf|vietnamese"},
		{"B7.1", "wxf|vietnamese"},
		{"M8.7", "vietnamese"},
		{"X1/1", "vietnamese"},
		{"Tg5.1", "vietnamese"},
		{"Pt-5", "vietnamese"},
		{"2B-4", "vietnamese"},
		{"hello", "none"},
		{"", "none"},
		{"1-0", "none"},
		{"炮二平", "none"},
	}
	for _, tc := range cases {
		if got := DetectNotation(tc.tok).String(); got != tc.want {
			t.Errorf("DetectNotation(%q) = %s, want %s", tc.tok, got, tc.want)
		}
	}
}

// TestResolveNotation: a game's notation is the one whose reading replays
// the longest legal prefix (NOTATIONS §5 "try both and keep the parse that
// replays legally").
func TestResolveNotation(t *testing.T) {
	cases := []struct {
		name, fen, moves string
		want             engine.Notation
		wantErr          error
	}{
		{"Vietnamese, the NOTATIONS §5 example", StartFEN, "P2-5 P2-5 M2.3 M8.9", engine.Vietnamese, nil},
		{"WXF", StartFEN, "C2.5 H8+7 H2+3 R9.8", engine.WXF, nil},
		{"WXF whose first move Vietnamese cannot read", StartFEN, "C2.5 C8.5", engine.WXF, nil},
		{"WXF with a later illegal move", StartFEN, "C2.5 H8+7 H2+3 H8+7", engine.WXF, nil},
		{"ICCS", StartFEN, "h2e2 h9g7", engine.ICCS, nil},
		{"simplified Chinese", StartFEN, "炮二平五 马８进７", engine.Chinese, nil},
		{"traditional Chinese", StartFEN, "炮二平五 馬８進７", engine.ChineseTraditional, nil},
		{"no telling glyph: simplified", StartFEN, "炮二平五 炮８平５", engine.Chinese, nil},
		{"both readings legal, different games", "5k3/9/9/9/2P6/9/9/2C6/9/3K5 w - - 0 1", "C7.1", engine.Auto, engine.ErrAmbiguousMove},
		{"nothing readable", StartFEN, "hello world", engine.Auto, engine.ErrBadMove},
		{"no token", StartFEN, "", engine.Auto, engine.ErrBadMove},
		{"first move illegal in every reading", StartFEN, "P5.5", engine.Auto, engine.ErrIllegalMove},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			before := p.FEN()
			got, err := ResolveNotation(p, strings.Fields(tc.moves))
			if p.FEN() != before || p.Ply() != 0 {
				t.Fatalf("ResolveNotation changed the position")
			}
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("ResolveNotation = %v, %v; want error %v", got, err, tc.wantErr)
				}
				t.Log(err)
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("ResolveNotation = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestNotationSet(t *testing.T) {
	s := NotationSetOf(engine.WXF, engine.Vietnamese)
	if !s.Has(engine.WXF) || s.Has(engine.ICCS) || s.Len() != 2 || s.String() != "wxf|vietnamese" {
		t.Errorf("set %v: Has/Len/String wrong", s)
	}
	if NotationSet(0).String() != "none" || NotationSet(0).Len() != 0 {
		t.Error("empty set")
	}
}
