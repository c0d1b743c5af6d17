package index

import (
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// TestQueryGame: the fields and values that belong to one game say it;
// negations, disagreeing alternatives and shared fields do not (issue 14).
func TestQueryGame(t *testing.T) {
	for _, tt := range []struct {
		q    string
		want engine.Game
	}{
		{"", engine.UnknownGame},
		{`black:"Lu Qin"`, engine.UnknownGame},
		{"ecco:C*", engine.Xiangqi},
		{`red:吕钦 result:1-0`, engine.Xiangqi},
		{"redelo:>2500", engine.Xiangqi},
		{"eco:B90", engine.Chess},
		{"game:chess white:fischer", engine.Chess},
		{"game:xiangqi", engine.Xiangqi},
		{"(white:fischer OR black:fischer) AND eco:C6*", engine.Chess},
		{"eco:B90 OR ecco:A00", engine.UnknownGame},
		{"eco:B90 OR white:fischer", engine.UnknownGame},
		{"eco:B90 OR eco:C60", engine.Chess},
		{"eco:B90 ecco:A00", engine.UnknownGame},
		{"NOT game:chess", engine.UnknownGame},
		{"opening:A00", engine.UnknownGame},
		{"red:(", engine.UnknownGame},
	} {
		if got := QueryGame(tt.q); got != tt.want {
			t.Errorf("QueryGame(%q) = %v, want %v", tt.q, got, tt.want)
		}
	}
}
