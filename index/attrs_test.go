package index

import (
	"testing"

	"github.com/xqdb/xqdb/engine"
)

func TestParseDate(t *testing.T) {
	tests := []struct {
		in   string
		want uint32
		out  string
	}{
		{"1990.05.01", 19900501, "1990.05.01"},
		{"1990.??.??", 19900000, "1990.??.??"},
		{"1990.05.??", 19900500, "1990.05.??"},
		{"1934.??.06", 19340006, "1934.??.06"},
		{"2019-12-29", 20191229, "2019.12.29"},
		{"1982", 19820000, "1982.??.??"},
		{"4/17/1996", 19960417, "1996.04.17"},
		{"19960417", 19960417, "1996.04.17"},
		{"19960417下午", 19960417, "1996.04.17"},
		{"199604", 19960400, "1996.04.??"},
		{"1996年4月17日", 19960417, "1996.04.17"},
		{"1996.4.17－18", 19960417, "1996.04.17"},
		{"15-7-2009", 20090715, "2009.07.15"},
		{"7/15/2009", 20090715, "2009.07.15"},
		{"20091115-09：00", 20091115, "2009.11.15"},
		{"96-4-17", 0, ""},
		{"1996001", 0, ""},
		{"", 0, ""},
		{"????.??.??", 0, ""},
		{"unknown", 0, ""},
	}
	for _, tt := range tests {
		got := ParseDate(tt.in)
		if got != tt.want || FormatDate(got) != tt.out {
			t.Errorf("ParseDate(%q) = %d (%q), want %d (%q)", tt.in, got, FormatDate(got), tt.want, tt.out)
		}
	}
}

func TestAttrsRoundTrip(t *testing.T) {
	for _, a := range []Attrs{
		{Game: engine.Chess, Result: engine.Draw, Date: 20211231, Rating: 2750, Plies: 123, Hash: 1 << 63, Players: 0xdeadbeef},
		{Game: engine.Xiangqi, Result: engine.FirstWins, Plies: 40, Deleted: true},
	} {
		var b [attrsSize]byte
		putAttrs(b[:], a)
		if got := getAttrs(b[:]); got != a {
			t.Fatalf("got %+v, want %+v", got, a)
		}
	}
}

func TestStatsRoundTripAndMerge(t *testing.T) {
	v := &statsValue{}
	s1, s2 := v.slot(100), v.slot(EndSlot)
	v.Moves[s1].Add(MoveStats{Games: 2, FirstWins: 1, Draws: 1, RatingSum: 5000, Rated: 2, LastDate: 19900101})
	v.Moves[s2].Add(MoveStats{Games: 1, SecondWins: 1})
	v.Games = []Posting{{3, s1}, {9, s2}, {12, s1}}
	got, err := decodeStats(encodeStats(nil, v))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Moves) != 2 || got.Moves[0] != v.Moves[0] || len(got.Games) != 3 || got.Games[2] != v.Games[2] {
		t.Fatalf("round trip: %+v", got)
	}
	o := &statsValue{}
	o.Moves = []MoveStats{{Code: 7, Games: 1, Draws: 1}, {Code: 100, Games: 1, FirstWins: 1, LastDate: 20000101}}
	o.Games = []Posting{{20, 1}, {21, 0}}
	mergeStats(got, o)
	if got.Moves[0].Games != 3 || got.Moves[0].LastDate != 20000101 || len(got.Moves) != 3 || got.Games[3] != (Posting{20, 0}) || got.Games[4] != (Posting{21, 2}) {
		t.Fatalf("merge: %+v", got)
	}
	if _, err := decodeStats([]byte{5, 1}); err == nil {
		t.Error("decodeStats accepted garbage")
	}
}

// Twin checks compare players by surname and first initial, folded as the
// metadata index folds words (issue 13, point 2).
func TestPlayerKey(t *testing.T) {
	tests := []struct{ name, want string }{
		{"Carlsen, Magnus", "carlsen m"},
		{"Carlsen, M.", "carlsen m"},
		{"Carlsen,M", "carlsen m"},
		{"Magnus Carlsen", "carlsen m"},
		{"M. Carlsen", "carlsen m"},
		{"Carlsen M", "carlsen m"},
		{"CARLSEN Magnus", "carlsen m"},
		{"  carlsen,  magnus ", "carlsen m"},
		{"Carlsen", "carlsen"},
		{"van Wely, Loek", "wely l"},
		{"L. van Wely", "wely l"},
		{"Nguyễn Thành Bảo", "bao n"},
		{"Nguyen Thanh Bao", "bao n"},
		{"Đặng Hữu Trang", "trang d"},
		{"Lü Qin", "qin l"},
		{"Lu Qin", "qin l"},
		{"呂欽", "吕钦"},
		{"吕钦", "吕钦"},
		{"胡榮華", "胡荣华"},
		{"Aljechin, Alexander", "aljechin a"},
		{"?", ""},
		{"", ""},
		{"NN", ""},
		{"N.N.", ""},
		{"N, N", ""},
	}
	for _, tt := range tests {
		if got := PlayerKey(tt.name); got != tt.want {
			t.Errorf("PlayerKey(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestSameDate(t *testing.T) {
	tests := []struct {
		a, b uint32
		want bool
	}{
		{20200501, 20200501, true},
		{20200501, 20200502, false},
		{20200501, 20200600, false},
		{20200500, 20200531, true},
		{20200000, 20201231, true},
		{20200000, 20190000, false},
		{0, 20201231, true},
		{0, 0, true},
	}
	for _, tt := range tests {
		if got := sameDate(tt.a, tt.b); got != tt.want {
			t.Errorf("sameDate(%d, %d) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
