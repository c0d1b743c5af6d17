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

func TestNamesOfGamesSidesAndNotations(t *testing.T) {
	for _, tt := range []struct {
		g                   Game
		name, first, second string
		coordinate, display Notation
	}{
		{Xiangqi, "xiangqi", "red", "black", ICCS, WXF},
		{Chess, "chess", "white", "black", UCI, SAN},
	} {
		if tt.g.String() != tt.name || First.Name(tt.g) != tt.first || Second.Name(tt.g) != tt.second ||
			Coordinate(tt.g) != tt.coordinate || Display(tt.g) != tt.display ||
			tt.coordinate.Game() != tt.g || tt.display.Game() != tt.g {
			t.Errorf("%v: names %q %q %q, notations %v %v", tt.g, tt.g, First.Name(tt.g), Second.Name(tt.g), Coordinate(tt.g), Display(tt.g))
		}
	}
	if UnknownGame.String() != "unknown" || Auto.Game() != UnknownGame || First.Other() != Second || Second.Other() != First {
		t.Error("unknown game, Auto or Other")
	}
	for _, n := range []Notation{Chinese, ChineseTraditional, Vietnamese} {
		if n.Game() != Xiangqi {
			t.Errorf("%v is a Xiangqi notation", n)
		}
	}
	if Notation(99).String() != "notation(99)" || Status(99).String() != "unknown" {
		t.Error("out-of-range names")
	}
	if _, err := ParseNotation("klingon"); err == nil {
		t.Error("ParseNotation took klingon")
	}
	if _, ok := ParseStatus("resigned"); ok {
		t.Error("ParseStatus took resigned")
	}
	if r, ok := ParseResult("½-½"); !ok || r != Draw {
		t.Error("½-½ is a draw")
	}
	if _, ok := ParseResult("2-0"); ok {
		t.Error("ParseResult took 2-0")
	}
}

// Rulings as reports show them: chess names its repetition "threefold",
// and decided results name the loser.
func TestRulingNamesAndString(t *testing.T) {
	tests := []struct {
		r             Ruling
		name, str     string
		decided, ends bool
	}{
		{Ruling{Game: Xiangqi, Ply: 3}, "ongoing", "ply 3: ongoing", false, false},
		{Ruling{Game: Chess, Ply: 40, Status: Repetition, Result: Draw}, "threefold", "ply 40: 1/2-1/2 threefold", true, false},
		{Ruling{Game: Xiangqi, Ply: 40, Status: Repetition, Result: Draw}, "repetition", "ply 40: 1/2-1/2 repetition", true, false},
		{Ruling{Game: Xiangqi, Ply: 23, Status: PerpetualChase, Result: SecondWins, Side: First, Detail: "chariot chases horse"},
			"perpetual_chase", "ply 23: 0-1 perpetual_chase (red): chariot chases horse", true, false},
		{Ruling{Game: Chess, Ply: 4, Status: Checkmate, Result: SecondWins, Side: First}, "checkmate", "ply 4: 0-1 checkmate (white)", true, true},
		{Ruling{Game: Chess, Ply: 9, Status: Stalemate, Result: Draw}, "stalemate", "ply 9: 1/2-1/2 stalemate", true, true},
	}
	for _, tt := range tests {
		if tt.r.StatusName() != tt.name || tt.r.String() != tt.str || tt.r.Decided() != tt.decided || tt.r.Ends() != tt.ends {
			t.Errorf("%+v: %q, %q, decided %v, ends %v", tt.r, tt.r.StatusName(), tt.r.String(), tt.r.Decided(), tt.r.Ends())
		}
	}
}
