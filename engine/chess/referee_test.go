package chess

import (
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// refereeAfter plays UCI moves from fen through a referee and returns the
// last ruling.
func refereeAfter(t *testing.T, fen string, moves ...string) engine.Ruling {
	t.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	r := NewReferee(p)
	for _, s := range moves {
		m, err := p.ParseMove(s, engine.UCI)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		r.Play(m)
	}
	return r.Last()
}

// RULES C4–C5: what the chess referee rules, strongest first.
func TestChessReferee(t *testing.T) {
	tests := []struct {
		name   string
		fen    string
		moves  []string
		status engine.Status
		result engine.Result
	}{
		{"checkmate", StartFEN, []string{"f2f3", "e7e5", "g2g4", "d8h4"}, engine.Checkmate, engine.SecondWins},
		{"stalemate draws", "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", []string{"g6h6"}, engine.Stalemate, engine.Draw},
		{"dead position after the last pawn falls", "8/8/8/4k3/3p4/2B5/8/4K3 w - - 0 1", []string{"c3d4"}, engine.InsufficientMaterial, engine.Draw},
		{"threefold may be claimed", StartFEN, []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}, engine.Repetition, engine.Draw},
		{"fifty moves may be claimed", "8/8/8/4k3/8/8/R7/4K3 w - - 99 80", []string{"a2a3"}, engine.FiftyMoves, engine.Draw},
		{"seventy-five moves end it", "8/8/8/4k3/8/8/R7/4K3 w - - 149 100", []string{"a2a3"}, engine.SeventyFiveMoves, engine.Draw},
		{"mate on the 75th move is mate", "7k/8/6K1/8/8/8/8/R7 w - - 149 100", []string{"a1a8"}, engine.Checkmate, engine.FirstWins},
		{"play goes on", StartFEN, []string{"e2e4"}, engine.Ongoing, engine.NoResult},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := refereeAfter(t, tt.fen, tt.moves...)
			if got.Status != tt.status || got.Result != tt.result {
				t.Fatalf("got %v, want %v %v", got, tt.status, tt.result)
			}
		})
	}
}

func TestChessRefereeFivefold(t *testing.T) {
	var moves []string
	for i := 0; i < 4; i++ {
		moves = append(moves, "g1f3", "g8f6", "f3g1", "f6g8")
	}
	if got := refereeAfter(t, StartFEN, moves...); got.Status != engine.Fivefold || got.StatusName() != "fivefold" {
		t.Fatalf("fifth occurrence: %v", got)
	}
	if got := refereeAfter(t, StartFEN, moves[:8]...); got.StatusName() != "threefold" {
		t.Fatalf("third occurrence is named %q", got.StatusName())
	}
}
