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
	a := Attrs{Game: engine.Chess, Result: engine.Draw, Date: 20211231, Rating: 2750, Plies: 123}
	var b [attrsSize]byte
	putAttrs(b[:], a)
	if got := getAttrs(b[:]); got != a {
		t.Fatalf("got %+v, want %+v", got, a)
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
