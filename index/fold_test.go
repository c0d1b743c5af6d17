package index

import (
	"testing"
	"unicode/utf8"

	"github.com/xqdb/xqdb/engine"
)

func TestFoldTerm(t *testing.T) {
	tests := []struct{ in, want string }{
		{"CARLSEN", "carlsen"},
		{"Lü", "lu"},
		{"Ljubojević", "ljubojevic"},
		{"Müller", "muller"},
		{"Nguyễn", "nguyen"},             // two marks on one letter
		{"Nguye\u0302\u0303n", "nguyen"}, // the same, decomposed
		{"Đặng", "dang"},                 // đ has no decomposition
		{"Lê", "le"},
		{"Lữ", "lu"},
		{"呂欽", "吕钦"}, // CCPD writes traditional characters
		{"胡榮華", "胡荣华"},
		{"吕钦", "吕钦"},         // simplified stays
		{"乾", "乾"},           // both a traditional and a simplified character
		{"Straße", "straße"}, // ß is a letter, not a mark
		{"한국", "한국"},         // Hangul decomposes into letters, not marks
		{"", ""},
	}
	for _, tt := range tests {
		if got := Fold(tt.in); got != tt.want {
			t.Errorf("Fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if len(t2s) < 4000 {
		t.Errorf("t2s has %d characters; OpenCC's table has over 4000", len(t2s))
	}
}

// Names are found however they are written: traditional or simplified
// Chinese, with or without diacritics; and no word of a name is dropped as
// an English stop word (Vietnamese "An").
func TestSearchFoldsNames(t *testing.T) {
	s, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var gs []*Game
	for i, tags := range [][]Tag{
		{{"Red", "胡榮華"}, {"Black", "呂欽"}, {"Event", "全國象棋個人賽"}},
		{{"Red", "胡荣华"}, {"Black", "吕钦"}},
		{{"Red", "Lê An"}, {"Black", "Nguyễn Thành Bảo"}, {"Event", "Giải Vô địch Quốc gia"}},
		{{"Red", "Lê Bình"}, {"Black", "Lü Qin"}},
		{{"Red", "廣東許銀川"}, {"Black", "LV Qin"}},
	} {
		gs = append(gs, newGame(t, engine.Draw, tags, []string{"h2e2", "b2e2", "c3c4", "g3g4", "h0g2"}[i]))
	}
	importGames(t, s, gs)
	for _, tt := range []struct {
		q    string
		want int
	}{
		{`black:"呂欽"`, 2},
		{`black:"吕钦"`, 2},
		{`red:"胡荣华"`, 2},
		{`event:"全国象棋个人赛"`, 1},
		{`black:"Nguyen Thanh Bao"`, 1},
		{`black:"NGUYỄN Thành Bảo"`, 1},
		{`event:"vo dich quoc gia"`, 1},
		{`red:"Lê An"`, 1},
		{`red:"Le Binh"`, 1},
		{`red:an`, 1},
		// Written in Han characters or in pinyin, it is the same player
		// (names.go).
		{`black:"Lu Qin"`, 4},
		{`black:Lü*`, 4},
		{`black:"Lü Qin"`, 4},
		{`black:luqin`, 4},
		{`black:"LV Qin"`, 4},
		{`black:吕钦`, 2},
		// Xu Yinchuan, Hứa Ngân Xuyên, as CCPD writes him: 廣東許銀川.
		{`red:"Xu Yinchuan"`, 1},
		{`red:"Hứa Ngân Xuyên"`, 1},
		{`red:许银川`, 1},
		{`black:呂*`, 2},
		{`red:LÊ*`, 2},
	} {
		if got, err := s.Search(nil, tt.q); err != nil || len(got) != tt.want {
			t.Errorf("Search(%q) = %v, %v; want %d games", tt.q, got, err, tt.want)
		}
	}
}

// FuzzFold: folding never panics, keeps valid text valid, and folding
// twice changes nothing (a folded query word matches a folded index word).
func FuzzFold(f *testing.F) {
	for _, s := range []string{"Lü Qin", "呂欽", "Nguyễn", "Đặng", "ǅ", "İ", "\xff\xfe", "a\u0301\u0302"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		once := Fold(s)
		if utf8.ValidString(s) && !utf8.ValidString(once) {
			t.Fatalf("Fold(%q) = %q, not UTF-8", s, once)
		}
		if twice := Fold(once); utf8.ValidString(s) && twice != once {
			t.Fatalf("Fold(%q) = %q, Fold again = %q", s, once, twice)
		}
	})
}

// FuzzParseQuery: no query string panics the parser, the date rewriting or
// the adaptation to the index's fields.
func FuzzParseQuery(f *testing.F) {
	for _, q := range []string{`black:"Lü Qin" +date:>="1990"`, `year:>1995`, `month:1995-05`, `date:1990.05.01`,
		`whiteelo:>2700 plies:<40`, `white:Carl*`, `black:呂*`, `event:"a b"~2`, `date:>"1990`, `red:hu~1`, `/re.*gex/`} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		_, _ = compileQuery(q, nil)
	})
}
