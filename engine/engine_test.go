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
