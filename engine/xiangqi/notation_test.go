package xiangqi

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// Positions with pieces in tandem (NOTATIONS §3, §4). Kings stand on
// different files (d0, f9) so soldiers can leave the file freely.
const (
	fenTwoSoldiers   = "5k3/9/9/2P6/2P6/9/9/9/9/3K5 w - - 0 1"       // c5 c6: red file 7
	fenThreeSoldiers = "5k3/9/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1"     // c5 c6 c7
	fenFourSoldiers  = "5k3/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1"   // c5…c8
	fenFiveSoldiers  = "2P2k3/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1" // c5…c9
	fenTwoFiles22    = "5k3/9/9/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1"   // c5 c6 (file 7), g5 g6 (file 3)
	fenTwoFiles32    = "5k3/9/2P6/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1" // c5 c6 c7, g5 g6
	fenBlackSoldiers = "5k3/9/9/9/9/2p6/2p6/9/9/3K5 b - - 0 1"       // c3 c4: black file 3, c3 in front
	fenTwoChariots   = "5k3/9/9/7R1/9/9/7R1/9/9/3K5 w - - 0 1"       // h3 h6: red file 2
	fenTwoCannons    = "5k3/9/1C7/9/9/9/9/1C7/9/3K5 w - - 0 1"       // b2 b7: red file 8
	fenTwoHorses     = "5k3/9/9/9/1N7/9/9/1N7/9/3K5 w - - 0 1"       // b2 b5: red file 8
	fenTwoAdvisors   = "3k5/9/9/9/9/9/9/3A5/9/3A1K3 w - - 0 1"       // d0 d2: red file 6
	fenAfterCentral  = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
)

// TestFormatMove pins the canonical text of each notation, and that each
// text reads back to the move. Traditional Chinese writes a piece in
// tandem by its file when only it can make the move (CCPD's habit), so a
// front soldier's advance is 兵七進一 there and 前兵进一 in simplified.
func TestFormatMove(t *testing.T) {
	cases := []struct {
		name, fen, iccs     string
		wxf, simp, trad, vn string
	}{
		{"central cannon", StartFEN, "h2e2", "C2.5", "炮二平五", "炮二平五", "P2-5"},
		{"horse", StartFEN, "h0g2", "H2+3", "马二进三", "馬二進三", "M2.3"},
		{"elephant", StartFEN, "g0e2", "E3+5", "相三进五", "相三進五", "T3.5"},
		{"advisor", StartFEN, "f0e1", "A4+5", "仕四进五", "仕四進五", "S4.5"},
		{"general", StartFEN, "e0e1", "K5+1", "帅五进一", "帥五進一", "Tg5.1"},
		{"chariot", StartFEN, "i0i1", "R1+1", "车一进一", "車一進一", "X1.1"},
		{"soldier", StartFEN, "c3c4", "P7+1", "兵七进一", "兵七進一", "B7.1"},
		{"cannon retreat", StartFEN, "b2b1", "C8-1", "炮八退一", "炮八退一", "P8/1"},
		{"black horse has full-width digits", fenAfterCentral, "h9g7", "H8+7", "马８进７", "馬８進７", "M8.7"},
		{"black cannon", fenAfterCentral, "b7e7", "C2.5", "炮２平５", "炮２平５", "P2-5"},
		{"black soldier", fenAfterCentral, "g6g5", "P7+1", "卒７进１", "卒７進１", "B7.1"},
		{"black general", fenAfterCentral, "e9e8", "K5+1", "将５进１", "將５進１", "Tg5.1"},
		{"black elephant", fenAfterCentral, "c9e7", "E3+5", "象３进５", "象３進５", "T3.5"},
		{"black advisor", fenAfterCentral, "d9e8", "A4+5", "士４进５", "士４進５", "S4.5"},

		{"two soldiers front", fenTwoSoldiers, "c6d6", "P+.6", "前兵平六", "前兵平六", "Bt-6"},
		{"two soldiers front advances", fenTwoSoldiers, "c6c7", "P++1", "前兵进一", "兵七進一", "Bt.1"},
		{"two soldiers rear", fenTwoSoldiers, "c5b5", "P-.8", "后兵平八", "後兵平八", "Bs-8"},
		{"three soldiers front", fenThreeSoldiers, "c7c8", "P++1", "前兵进一", "兵七進一", "Bt.1"},
		{"three soldiers middle keeps its file", fenThreeSoldiers, "c6d6", "P7.6", "中兵平六", "中兵平六", "Bg-6"},
		{"three soldiers rear", fenThreeSoldiers, "c5b5", "P-.8", "后兵平八", "後兵平八", "Bs-8"},
		{"four soldiers first", fenFourSoldiers, "c8c9", "+++1", "一兵进一", "兵七進一", "1B.1"},
		{"four soldiers second", fenFourSoldiers, "c7d7", "P+.6", "二兵平六", "二兵平六", "2B-6"},
		{"four soldiers third", fenFourSoldiers, "c6d6", "P-.6", "三兵平六", "三兵平六", "3B-6"},
		{"four soldiers fourth", fenFourSoldiers, "c5d5", "--.6", "四兵平六", "四兵平六", "4B-6"},
		{"five soldiers first", fenFiveSoldiers, "c9d9", "++.6", "一兵平六", "一兵平六", "1B-6"},
		{"five soldiers second", fenFiveSoldiers, "c8d8", "P+.6", "二兵平六", "二兵平六", "2B-6"},
		{"five soldiers middle", fenFiveSoldiers, "c7d7", "P7.6", "三兵平六", "三兵平六", "3B-6"},
		{"five soldiers fourth", fenFiveSoldiers, "c6d6", "P-.6", "四兵平六", "四兵平六", "4B-6"},
		{"five soldiers fifth", fenFiveSoldiers, "c5d5", "--.6", "五兵平六", "五兵平六", "5B-6"},
		{"two files: right file first in Chinese", fenTwoFiles22, "g6h6", "3+.2", "一兵平二", "一兵平二", "1B-2"},
		{"two files: left file rear", fenTwoFiles22, "c5b5", "7-.8", "四兵平八", "四兵平八", "4B-8"},
		{"two files: left file front", fenTwoFiles22, "c6c7", "7++1", "三兵进一", "兵七進一", "3B.1"},
		{"two files 3+2: middle", fenTwoFiles32, "c6d6", "77.6", "四兵平六", "四兵平六", "4B-6"},
		{"two files 3+2: front of three", fenTwoFiles32, "c7c8", "7++1", "三兵进一", "兵七進一", "3B.1"},
		{"two files 3+2: rear of two", fenTwoFiles32, "g5f5", "3-.4", "二兵平四", "二兵平四", "2B-4"},
		{"black soldiers: front is nearer red", fenBlackSoldiers, "c3b3", "P+.2", "前卒平２", "前卒平２", "Bt-2"},
		{"black soldiers rear", fenBlackSoldiers, "c4d4", "P-.4", "后卒平４", "後卒平４", "Bs-4"},
		{"front chariot", fenTwoChariots, "h6e6", "R+.5", "前车平五", "前車平五", "Xt-5"},
		{"front chariot retreats", fenTwoChariots, "h6h5", "R+-1", "前车退一", "前車退一", "Xt/1"},
		{"rear chariot retreats", fenTwoChariots, "h3h2", "R--1", "后车退一", "後車退一", "Xs/1"},
		{"rear cannon retreats", fenTwoCannons, "b2b1", "C--1", "后炮退一", "後炮退一", "Ps/1"},
		{"front horse", fenTwoHorses, "b5c7", "H++7", "前马进七", "前馬進七", "Mt.7"},
		{"rear horse retreats", fenTwoHorses, "b2a0", "H--9", "后马退九", "後馬退九", "Ms/9"},
		{"advisors on one file keep the file", fenTwoAdvisors, "d2e1", "A6-5", "仕六退五", "仕六退五", "S6/5"},
		{"advisors on one file, the other", fenTwoAdvisors, "d0e1", "A6+5", "仕六进五", "仕六進五", "S6.5"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			m := mustICCS(t, p, tc.iccs)
			for n, want := range map[engine.Notation]string{
				engine.ICCS: tc.iccs, engine.WXF: tc.wxf, engine.Chinese: tc.simp,
				engine.ChineseTraditional: tc.trad, engine.Vietnamese: tc.vn,
			} {
				if got := p.FormatMove(m, n); got != want {
					t.Errorf("FormatMove(%s, %v) = %q, want %q", tc.iccs, n, got, want)
				}
				if got, err := p.ParseMove(want, n); err != nil || got != m {
					t.Errorf("ParseMove(%q, %v) = %s, %v; want %s", want, n, ICCS(got), err, tc.iccs)
				}
			}
		})
	}
}

// parseCase is one token read in one position; want is ICCS, or wantErr
// the sentinel.
type parseCase struct {
	name, fen, tok string
	n              engine.Notation
	want           string
	wantErr        error
}

func checkParseCases(t *testing.T, cases []parseCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			m, err := p.ParseMove(tc.tok, tc.n)
			mb, errb := p.ParseMoveBytes([]byte(tc.tok), tc.n)
			if m != mb || (err == nil) != (errb == nil) {
				t.Errorf("ParseMove and ParseMoveBytes differ: %s %v / %s %v", ICCS(m), err, ICCS(mb), errb)
			}
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("ParseMove(%q, %v) = %s, %v; want error %v", tc.tok, tc.n, ICCS(m), err, tc.wantErr)
				}
				t.Logf("%v", err)
				return
			}
			if err != nil || ICCS(m) != tc.want {
				t.Fatalf("ParseMove(%q, %v) = %s, %v; want %s", tc.tok, tc.n, ICCS(m), err, tc.want)
			}
		})
	}
}

// TestParseWXF: NOTATIONS §4.
func TestParseWXF(t *testing.T) {
	const w = engine.WXF
	checkParseCases(t, []parseCase{
		{"traverse dot", StartFEN, "C2.5", w, "h2e2", nil},
		{"traverse equals", StartFEN, "C2=5", w, "h2e2", nil},
		{"traverse omitted", StartFEN, "C25", w, "h2e2", nil},
		{"lower case", StartFEN, "c2.5", w, "h2e2", nil},
		{"full width", StartFEN, "Ｃ２＝５", w, "h2e2", nil},
		{"full width dot", StartFEN, "Ｃ２．５", w, "h2e2", nil},
		{"blanks around", StartFEN, " C2.5\u3000", w, "h2e2", nil},
		{"minus sign", StartFEN, "C8\u22121", w, "b2b1", nil},
		{"horse letter H", StartFEN, "H8+7", w, "b0c2", nil},
		{"horse alias N", StartFEN, "N8+7", w, "b0c2", nil},
		{"elephant letter E", StartFEN, "E3+5", w, "g0e2", nil},
		{"elephant alias B", StartFEN, "B3+5", w, "g0e2", nil},
		{"general", StartFEN, "K5+1", w, "e0e1", nil},
		{"advisor", StartFEN, "A4+5", w, "f0e1", nil},
		{"chariot", StartFEN, "R1+1", w, "i0i1", nil},
		{"soldier", StartFEN, "P7+1", w, "c3c4", nil},
		{"black horse", fenAfterCentral, "H8+7", w, "h9g7", nil},
		{"black lower case (CXQ)", fenAfterCentral, "h8+7", w, "h9g7", nil},
		{"black full width", fenAfterCentral, "Ｈ８＋７", w, "h9g7", nil},

		{"tandem marker in file slot", fenTwoChariots, "R+.5", w, "h6e6", nil},
		{"tandem marker before letter", fenTwoChariots, "+R.5", w, "h6e6", nil},
		{"tandem with equals", fenTwoChariots, "+R=5", w, "h6e6", nil},
		{"rear chariot", fenTwoChariots, "R--1", w, "h3h2", nil},
		{"rear chariot prefix", fenTwoChariots, "-R-1", w, "h3h2", nil},
		{"rear cannon", fenTwoCannons, "C--1", w, "b2b1", nil},
		{"CXQ rear horse H-+7", fenTwoHorses, "h-+7", w, "b2c4", nil},
		{"prefix rear horse", fenTwoHorses, "-H+7", w, "b2c4", nil},
		{"full width prefix (wukong)", fenTwoSoldiers, "＋Ｐ＋１", w, "c6c7", nil},
		{"plain file, one can go", fenTwoSoldiers, "P7+1", w, "c6c7", nil},
		{"three: middle keeps its file", fenThreeSoldiers, "P7.6", w, "c6d6", nil},
		{"three: xqbase middle dot", fenThreeSoldiers, "P..6", w, "c6d6", nil},
		{"three: xqbase ordinal b", fenThreeSoldiers, "Pb.6", w, "c6d6", nil},
		{"three: front", fenThreeSoldiers, "P+.6", w, "c7d7", nil},
		{"three: rear", fenThreeSoldiers, "P-.6", w, "c5d5", nil},
		{"four: ++", fenFourSoldiers, "++.6", w, "c8d8", nil},
		{"four: P+ is the second", fenFourSoldiers, "P+.6", w, "c7d7", nil},
		{"four: P- is the third", fenFourSoldiers, "P-.6", w, "c6d6", nil},
		{"four: --", fenFourSoldiers, "--.6", w, "c5d5", nil},
		{"five: middle keeps its file", fenFiveSoldiers, "P7.6", w, "c7d7", nil},
		{"five: ++", fenFiveSoldiers, "++.6", w, "c9d9", nil},
		{"five: --", fenFiveSoldiers, "--.6", w, "c5d5", nil},
		{"two files: file first", fenTwoFiles22, "3+.2", w, "g6h6", nil},
		{"two files: rear", fenTwoFiles22, "7-.8", w, "c5b5", nil},
		{"two files: middle 77", fenTwoFiles32, "77.6", w, "c6d6", nil},
		{"two files: only one fits", fenTwoFiles22, "P+.2", w, "g6h6", nil},
		{"black tandem", fenBlackSoldiers, "P+.2", w, "c3b3", nil},
		{"advisor front marker", fenTwoAdvisors, "+A-5", w, "d2e1", nil},
		{"advisor by file", fenTwoAdvisors, "A6-5", w, "d2e1", nil},

		{"unknown letter", StartFEN, "X2.5", w, "", engine.ErrBadMove},
		{"Chinese glyphs", StartFEN, "炮二平五", w, "", engine.ErrBadMove},
		{"file zero", StartFEN, "C0.5", w, "", engine.ErrBadMove},
		{"bad direction", StartFEN, "C2*5", w, "", engine.ErrBadMove},
		{"too long", StartFEN, "C2.55", w, "", engine.ErrBadMove},
		{"empty", StartFEN, "", w, "", engine.ErrBadMove},
		{"mixed markers", fenFourSoldiers, "+-.6", w, "", engine.ErrBadMove},
		{"file prefix with letter", fenTwoFiles22, "3P.2", w, "", engine.ErrBadMove},
		{"no horse on file 3", StartFEN, "H3+5", w, "", engine.ErrIllegalMove},
		{"cannon cannot go so far", StartFEN, "C2+9", w, "", engine.ErrIllegalMove},
		{"soldier before the river", StartFEN, "P7.6", w, "", engine.ErrIllegalMove},
		{"tandem marker without tandem", StartFEN, "+C.5", w, "", engine.ErrIllegalMove},
		{"++ with only two", fenTwoSoldiers, "++.6", w, "", engine.ErrIllegalMove},
		{"middle of two on a prefixed file", fenTwoFiles22, "33.2", w, "", engine.ErrIllegalMove},
		{"prefixed file is no tandem", fenTwoFiles22, "5+.4", w, "", engine.ErrIllegalMove},
		{"two chariots on file 2", fenTwoChariots, "R2.5", w, "", engine.ErrAmbiguousMove},
		{"two chariots on file 2 advance", fenTwoChariots, "R2+1", w, "", engine.ErrAmbiguousMove},
		{"four soldiers by file", fenFourSoldiers, "P7.6", w, "", engine.ErrAmbiguousMove},
		{"two tandem files, no file", fenTwoFiles22, "P++1", w, "", engine.ErrAmbiguousMove},
	})
}

// TestParseChinese: NOTATIONS §3.
func TestParseChinese(t *testing.T) {
	const c = engine.Chinese
	const tr = engine.ChineseTraditional
	checkParseCases(t, []parseCase{
		{"central cannon", StartFEN, "炮二平五", c, "h2e2", nil},
		{"traditional reads the same", StartFEN, "炮二平五", tr, "h2e2", nil},
		{"cannon 砲", StartFEN, "砲二平五", c, "h2e2", nil},
		{"cannon 包", StartFEN, "包二平五", tr, "h2e2", nil},
		{"ASCII digits for red", StartFEN, "炮2平5", c, "h2e2", nil},
		{"full-width digits for red", StartFEN, "炮２平５", c, "h2e2", nil},
		{"horse 马", StartFEN, "马二进三", c, "h0g2", nil},
		{"horse 馬 進", StartFEN, "馬二進三", tr, "h0g2", nil},
		{"horse 傌", StartFEN, "傌二進三", c, "h0g2", nil},
		{"chariot 车", StartFEN, "车一进一", c, "i0i1", nil},
		{"chariot 車", StartFEN, "車一進一", c, "i0i1", nil},
		{"chariot 俥", StartFEN, "俥一進一", c, "i0i1", nil},
		{"chariot 硨", StartFEN, "硨一進一", c, "i0i1", nil},
		{"general 帅", StartFEN, "帅五进一", c, "e0e1", nil},
		{"general 帥", StartFEN, "帥五進一", c, "e0e1", nil},
		{"black glyph, red to move: colour from the side", StartFEN, "将五进一", c, "e0e1", nil},
		{"advisor 仕", StartFEN, "仕四进五", c, "f0e1", nil},
		{"advisor 士 for red", StartFEN, "士四进五", c, "f0e1", nil},
		{"elephant 相", StartFEN, "相三进五", c, "g0e2", nil},
		{"elephant 象 for red", StartFEN, "象三进五", c, "g0e2", nil},
		{"soldier 兵", StartFEN, "兵七进一", c, "c3c4", nil},
		{"soldier 卒 for red", StartFEN, "卒七进一", c, "c3c4", nil},
		{"retreat", StartFEN, "炮八退一", c, "b2b1", nil},
		{"black full width", fenAfterCentral, "马８进７", c, "h9g7", nil},
		{"black ASCII", fenAfterCentral, "馬8進7", tr, "h9g7", nil},
		{"black Chinese numerals", fenAfterCentral, "馬八進七", tr, "h9g7", nil},
		{"black cannon 砲", fenAfterCentral, "砲２平５", tr, "b7e7", nil},

		{"front chariot", fenTwoChariots, "前车平五", c, "h6e6", nil},
		{"front 車", fenTwoChariots, "前車平五", tr, "h6e6", nil},
		{"place word after the piece", fenTwoChariots, "车前平五", c, "h6e6", nil},
		{"rear 后", fenTwoChariots, "后车退一", c, "h3h2", nil},
		{"rear 後", fenTwoChariots, "後車退一", tr, "h3h2", nil},
		{"rear after the piece", fenTwoChariots, "車後退一", tr, "h3h2", nil},
		{"front horse", fenTwoHorses, "前馬進七", tr, "b5c7", nil},
		{"rear cannon", fenTwoCannons, "後炮退一", tr, "b2b1", nil},
		{"plain file, one can go", fenTwoSoldiers, "兵七进一", c, "c6c7", nil},
		{"three: middle", fenThreeSoldiers, "中兵平六", c, "c6d6", nil},
		{"three: rear", fenThreeSoldiers, "后兵平八", c, "c5b5", nil},
		{"four: 一…四", fenFourSoldiers, "二兵平六", c, "c7d7", nil},
		{"four: 四", fenFourSoldiers, "四兵平六", c, "c5d5", nil},
		{"four: 前 is the first", fenFourSoldiers, "前兵平六", c, "c8d8", nil},
		{"four: 後 is the last", fenFourSoldiers, "後兵平六", c, "c5d5", nil},
		{"five: 中", fenFiveSoldiers, "中兵平六", c, "c7d7", nil},
		{"five: 五", fenFiveSoldiers, "五兵平六", c, "c5d5", nil},
		{"two files: combined order, right file first", fenTwoFiles22, "一兵平二", c, "g6h6", nil},
		{"two files: 前 is the right file's front", fenTwoFiles22, "前兵平二", c, "g6h6", nil},
		{"two files 3+2", fenTwoFiles32, "四兵平六", c, "c6d6", nil},
		{"black front", fenBlackSoldiers, "前卒平２", c, "c3b3", nil},
		{"black rear 後", fenBlackSoldiers, "後卒平4", tr, "c4d4", nil},
		{"advisor with 前", fenTwoAdvisors, "前仕退五", c, "d2e1", nil},
		{"advisor with 後", fenTwoAdvisors, "後仕進五", tr, "d0e1", nil},
		{"advisor by file", fenTwoAdvisors, "仕六退五", c, "d2e1", nil},

		{"unknown direction", StartFEN, "炮二走五", c, "", engine.ErrBadMove},
		{"too short", StartFEN, "炮二平", c, "", engine.ErrBadMove},
		{"too long", StartFEN, "炮二平五五", c, "", engine.ErrBadMove},
		{"not a number", StartFEN, "炮十平五", c, "", engine.ErrBadMove},
		{"WXF text", StartFEN, "C2.5", c, "", engine.ErrBadMove},
		{"no horse on file 3", StartFEN, "马三进五", c, "", engine.ErrIllegalMove},
		{"horse cannot go straight", StartFEN, "马二平三", c, "", engine.ErrIllegalMove},
		{"前 without tandem", StartFEN, "前炮平五", c, "", engine.ErrIllegalMove},
		{"中 with two", fenTwoSoldiers, "中兵平六", c, "", engine.ErrIllegalMove},
		{"中 with four", fenFourSoldiers, "中兵平六", c, "", engine.ErrIllegalMove},
		{"五 with four", fenFourSoldiers, "五兵平六", c, "", engine.ErrIllegalMove},
		{"two chariots on file 2", fenTwoChariots, "车二平五", c, "", engine.ErrAmbiguousMove},
		{"two soldiers on file 7", fenTwoSoldiers, "兵七平六", c, "", engine.ErrAmbiguousMove},
	})
}

// TestParseVietnamese: NOTATIONS §5.
func TestParseVietnamese(t *testing.T) {
	const v = engine.Vietnamese
	checkParseCases(t, []parseCase{
		{"cannon traverse", StartFEN, "P2-5", v, "h2e2", nil},
		{"horse advance", StartFEN, "M2.3", v, "h0g2", nil},
		{"chariot", StartFEN, "X1.1", v, "i0i1", nil},
		{"general Tg", StartFEN, "Tg5.1", v, "e0e1", nil},
		{"general TG", StartFEN, "TG5.1", v, "e0e1", nil},
		{"advisor", StartFEN, "S4.5", v, "f0e1", nil},
		{"elephant T", StartFEN, "T3.5", v, "g0e2", nil},
		{"elephant alias V", StartFEN, "V3.5", v, "g0e2", nil},
		{"soldier B", StartFEN, "B7.1", v, "c3c4", nil},
		{"soldier alias C (chốt)", StartFEN, "C7.1", v, "c3c4", nil},
		{"cannon retreat P8/1 = 炮八退一", StartFEN, "P8/1", v, "b2b1", nil},
		{"lower case", StartFEN, "p2-5", v, "h2e2", nil},
		{"full width", StartFEN, "Ｐ２－５", v, "h2e2", nil},
		{"black cannon", fenAfterCentral, "P2-5", v, "b7e7", nil},
		{"black soldier B7.1 = 卒７進１", fenAfterCentral, "B7.1", v, "g6g5", nil},
		{"front chariot", fenTwoChariots, "Xt-5", v, "h6e6", nil},
		{"rear chariot", fenTwoChariots, "Xs/1", v, "h3h2", nil},
		{"upper-case marker", fenTwoChariots, "XT-5", v, "h6e6", nil},
		{"front elephant Tt is not the general", "3k5/9/9/9/9/2B6/9/9/9/2B1K4 w - - 0 1", "Tt/5", v, "c4e2", nil},
		{"three: middle", fenThreeSoldiers, "Bg-6", v, "c6d6", nil},
		{"four: ordinal first", fenFourSoldiers, "2B-6", v, "c7d7", nil},
		{"two files: ordinal", fenTwoFiles32, "4B-6", v, "c6d6", nil},

		{"WXF direction", StartFEN, "P2+5", v, "", engine.ErrBadMove},
		{"unknown letter", StartFEN, "Q2-5", v, "", engine.ErrBadMove},
		{"ordinal six", fenFiveSoldiers, "6B-6", v, "", engine.ErrBadMove},
		{"tandem without tandem", StartFEN, "Pt-5", v, "", engine.ErrIllegalMove},
		{"no horse on file 3", StartFEN, "M3.5", v, "", engine.ErrIllegalMove},
		{"two chariots on file 2", fenTwoChariots, "X2-5", v, "", engine.ErrAmbiguousMove},
	})
}

// TestParseICCS: NOTATIONS §2.
func TestParseICCS(t *testing.T) {
	const i = engine.ICCS
	checkParseCases(t, []parseCase{
		{"UCCI", StartFEN, "h2e2", i, "h2e2", nil},
		{"ICCS with dash", StartFEN, "H2-E2", i, "h2e2", nil},
		{"full width", StartFEN, "ｈ２ｅ２", i, "h2e2", nil},
		{"UCI is the same form", StartFEN, "h2e2", engine.UCI, "h2e2", nil},
		{"rank 10", StartFEN, "h2e10", i, "", engine.ErrBadMove},
		{"file j", StartFEN, "j2e2", i, "", engine.ErrBadMove},
		{"not legal", StartFEN, "h2h8", i, "", engine.ErrIllegalMove},
		{"empty square", StartFEN, "e5e6", i, "", engine.ErrIllegalMove},
	})
}

// TestParseAuto: a token's notation is recognised; WXF and Vietnamese
// share letters and signs, so both readings are tried (NOTATIONS §5).
func TestParseAuto(t *testing.T) {
	const a = engine.Auto
	checkParseCases(t, []parseCase{
		{"ICCS", StartFEN, "h2e2", a, "h2e2", nil},
		{"Chinese", StartFEN, "炮二平五", a, "h2e2", nil},
		{"WXF only", StartFEN, "H2+3", a, "h0g2", nil},
		{"Vietnamese only", StartFEN, "M2.3", a, "h0g2", nil},
		{"P2-5: only the Vietnamese cannon can", StartFEN, "P2-5", a, "h2e2", nil},
		{"C2.5: only the WXF cannon can", StartFEN, "C2.5", a, "h2e2", nil},
		{"C7.1: WXF cannon and Vietnamese soldier both can", "5k3/9/9/9/2P6/9/9/2C6/9/3K5 w - - 0 1", "C7.1", a, "", engine.ErrAmbiguousMove},
		{"P7.1: only the Vietnamese cannon can", "5k3/9/9/9/2P6/9/9/9/2C6/3K5 w - - 0 1", "P7.1", a, "c1c2", nil},
		{"nothing", StartFEN, "hello", a, "", engine.ErrBadMove},
		{"neither reading legal", StartFEN, "P5.5", a, "", engine.ErrIllegalMove},
		{"SAN is no Xiangqi notation", StartFEN, "Nf3", engine.SAN, "", errors.ErrUnsupported},
	})
}

// TestErrorsSayWhy: errors name the token and the reason, lower case and
// package-prefixed (STYLE 8).
func TestErrorsSayWhy(t *testing.T) {
	cases := []struct {
		name, fen, tok string
		n              engine.Notation
		want           string
	}{
		{"no piece on file", StartFEN, "H3+5", engine.WXF, `xiangqi: "H3+5": no red horse on file 3: illegal move`},
		{"ambiguous", fenTwoChariots, "R2.5", engine.WXF, `xiangqi: "R2.5": 2 red chariots on file 2 can go there: write +/-: ambiguous move`},
		{"ambiguous Chinese", fenTwoChariots, "車二平五", engine.ChineseTraditional, `xiangqi: "車二平五": 2 red chariots on file 2 can go there: write 前/後: ambiguous move`},
		{"syntax", StartFEN, "C2*5", engine.WXF, `xiangqi: "C2*5": not a move in WXF notation: unreadable move`},
		{"ICCS keeps its reason", StartFEN, "e5e6", engine.ICCS, `xiangqi: "e5e6": no piece on e5: illegal move`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := mustFEN(t, tc.fen).ParseMove(tc.tok, tc.n)
			if err == nil || err.Error() != tc.want {
				t.Errorf("error = %v\nwant    %s", err, tc.want)
			}
		})
	}
}

// TestTandemRoundTrip: every legal move of positions with pieces in tandem
// — 2 to 5 soldiers on a file, soldiers on two files, for either side —
// formats and reads back in every notation.
func TestTandemRoundTrip(t *testing.T) {
	fens := []string{
		fenTwoSoldiers, fenThreeSoldiers, fenFourSoldiers, fenFiveSoldiers,
		fenTwoFiles22, fenTwoFiles32, fenBlackSoldiers, fenTwoChariots,
		fenTwoCannons, fenTwoHorses, fenTwoAdvisors,
		"5k3/9/9/2P3P2/2P3P2/2P6/9/9/9/3K5 w - - 0 1", // 3 + 2 with the three nearer
		"3k5/9/9/9/P1P1P1P1P/9/9/9/9/4K4 w - - 0 1",   // five soldiers, five files
		"3k5/9/P8/P8/P8/P8/P8/9/9/4K4 w - - 0 1",      // five on file 9, two before the river
		"4k4/9/9/9/9/p8/p8/p8/p8/3K1p3 b - - 0 1",     // black: four on file 1, one aside
		"4k4/9/9/9/9/p1p6/p1p6/p8/9/3K5 b - - 0 1",    // black: 3 + 2
		"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
		"2ba1k3/4a4/4b4/2RR5/2CC5/2NN5/9/9/4A4/4KA3 w - - 0 1", // pairs on files 6 and 7
		"3k5/4a4/3a5/9/9/9/9/4B4/4A4/2BA1K3 w - - 0 1",         // elephants c0 e2, advisors d0 e1
		"3k5/9/3P5/3P1P3/3P1P3/9/9/9/9/4K4 w - - 0 1",          // 3 on file 6, 2 on file 4
	}
	total := 0
	for _, fen := range fens {
		p := mustFEN(t, fen)
		total += roundTrip(t, p)
		// One ply deeper too: the other side's replies.
		var buf [MaxMoves]engine.Move
		for _, m := range p.AppendLegalMoves(buf[:0]) {
			p.Make(m)
			total += roundTrip(t, p)
			p.Unmake()
		}
	}
	t.Logf("%d moves round-tripped in %d notations", total, len(allNotations))
}

// TestPinnedPieceSaysWhy: a move that fits the token but exposes the
// general is illegal (RULES X10, X11), and the error says so.
func TestPinnedPieceSaysWhy(t *testing.T) {
	// The red cannon on e2 screens the black chariot on e9 from the red
	// general on e0.
	p := mustFEN(t, "3kr4/9/9/9/9/9/9/4C4/9/4K4 w - - 0 1")
	_, err := p.ParseMove("C5.6", engine.WXF)
	const want = `xiangqi: "C5.6": the red cannon would leave its general in check: illegal move`
	if !errors.Is(err, engine.ErrIllegalMove) || err.Error() != want {
		t.Errorf("error = %v\nwant    %s", err, want)
	}
}

// TestRandomPlayoutsRoundTrip: seeded random games from positions where
// both sides have all five soldiers across the river meet many tandem
// shapes (two to five on a file, two files, both colours); every legal
// move of every position met round-trips in every notation.
func TestRandomPlayoutsRoundTrip(t *testing.T) {
	starts := []string{
		"r1bakab1r/9/1cn3nc1/P1P1P1P1P/9/9/p1p1p1p1p/1CN3NC1/9/R1BAKAB1R w - - 0 1",
		"3akab2/9/9/P1P1P1P1P/9/9/p1p1p1p1p/9/9/2BAKA3 w - - 0 1",
		"4k4/9/9/2P1P4/2P1P1P2/2p1p1p2/4p1p2/9/9/3K5 b - - 0 1",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	positions, moves := 0, 0
	for _, fen := range starts {
		for game := 0; game < 5; game++ {
			p := mustFEN(t, fen)
			var buf [MaxMoves]engine.Move
			for ply := 0; ply < 120; ply++ {
				legal := p.AppendLegalMoves(buf[:0])
				if len(legal) == 0 {
					break
				}
				moves += roundTrip(t, p)
				positions++
				p.Make(legal[rng.IntN(len(legal))])
			}
		}
	}
	t.Logf("%d positions, %d moves round-tripped", positions, moves)
}
