package engine

import "testing"

func TestParseGame(t *testing.T) {
	tests := []struct {
		in      string
		want    Game
		wantErr bool
	}{
		{"xiangqi", Xiangqi, false},
		{"Chinese Chess", Xiangqi, false},
		{"cờ tướng", Xiangqi, false},
		{"chess", Chess, false},
		{"Standard", Chess, false},
		{"shogi", UnknownGame, true},
	}
	for _, tt := range tests {
		got, err := ParseGame(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ParseGame(%q) = %v, %v; want %v, err=%v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestNotationNamesRoundTrip(t *testing.T) {
	for n := Auto; n <= UCI; n++ {
		got, err := ParseNotation(n.String())
		if err != nil || got != n {
			t.Errorf("ParseNotation(%q) = %v, %v; want %v", n.String(), got, err, n)
		}
	}
}

func TestStatusNamesRoundTrip(t *testing.T) {
	for s := Ongoing; s <= Fivefold; s++ {
		got, ok := ParseStatus(s.String())
		if !ok || got != s {
			t.Errorf("ParseStatus(%q) = %v, %v", s.String(), got, ok)
		}
	}
}

func TestResultRoundTrip(t *testing.T) {
	for r := NoResult; r <= Draw; r++ {
		got, ok := ParseResult(r.String())
		if !ok || got != r {
			t.Errorf("ParseResult(%q) = %v, %v", r.String(), got, ok)
		}
	}
	if WinFor(Second) != SecondWins {
		t.Error("WinFor(Second) != 0-1")
	}
}
