package polyglot_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/chess"
	"github.com/xqdb/xqdb/query/book/polyglot"
	"github.com/xqdb/xqdb/replay"
)

// playSAN plays SAN moves from fen ("" the start) and returns the moves and
// the key before each and after the last, as replay.Game holds them.
func playSAN(t *testing.T, fenStr string, sans ...string) ([]engine.Move, []uint64) {
	t.Helper()
	p := chess.NewStart()
	if fenStr != "" {
		p = fen(t, fenStr)
	}
	keys := []uint64{p.Key()}
	var moves []engine.Move
	for _, s := range sans {
		m := engine.NullMove
		if s != "--" {
			m = san(t, p, s)
		}
		p.Make(m)
		moves = append(moves, m)
		keys = append(keys, p.Key())
	}
	return moves, keys
}

// TestEncoderKeysAgreeWithPlaying: given a game's keys (replay's), the
// encoder finds the same plies as by playing the moves itself — castling
// written king-takes-rook on both wings for both sides, from the start and
// from a [FEN] with Black to move; kings that step about; null moves left
// out.
func TestEncoderKeysAgreeWithPlaying(t *testing.T) {
	tests := []struct {
		name   string
		fen    string
		moves  []string
		result engine.Result
	}{
		{"white O-O, black O-O-O", "", []string{"e4", "d5", "Nf3", "Qd6", "Bc4", "Bd7", "O-O", "Nc6", "d3", "O-O-O", "Kh1"}, engine.FirstWins},
		{"FEN, Black to move, both castle long and short", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1", []string{"O-O", "O-O-O", "Kh8", "Kb1"}, engine.SecondWins},
		{"FEN, a king steps then steps back", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", []string{"Kf2", "Kd7", "Ke1", "Ke8", "Kd1"}, engine.Draw},
		{"null moves are not counted", "", []string{"e4", "--", "d4", "e5", "--", "Nc6"}, engine.NoResult},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			moves, keys := playSAN(t, tt.fen, tt.moves...)
			enc := polyglot.NewEncoder(polyglot.Options{})
			byKeys, err := enc.Append(nil, tt.fen, moves, keys, tt.result)
			if err != nil {
				t.Fatal(err)
			}
			byPlaying, err := enc.Append(nil, tt.fen, moves, nil, tt.result)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(byKeys, byPlaying) {
				t.Errorf("with keys %v\nplaying   %v", byKeys, byPlaying)
			}
			nulls := 0
			for _, m := range moves {
				if m == engine.NullMove {
					nulls++
				}
			}
			if len(byKeys) != len(moves)-nulls {
				t.Errorf("%d plies for %d moves (%d null)", len(byKeys), len(moves), nulls)
			}
		})
	}
}

// TestEncoderCastlesKingTakesRook: the book move of castling is the king
// taking its own rook (ANCHORS §5), on every wing; other king moves keep
// their squares.
func TestEncoderCastlesKingTakesRook(t *testing.T) {
	moves, keys := playSAN(t, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", "O-O", "O-O-O", "Kh1", "Kb8")
	got, err := polyglot.NewEncoder(polyglot.Options{}).Append(nil, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", moves, keys, engine.Draw)
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Move{chess.NewMove(chess.E1, chess.H1), chess.NewMove(chess.E8, chess.A8), chess.NewMove(chess.G1, chess.H1), chess.NewMove(chess.C8, chess.B8)}
	b := polyglot.NewBuilder(polyglot.Options{MinGame: 1})
	b.Add(got)
	es := b.Entries()
	for i, w := range want {
		found := false
		for _, e := range polyglot.Find(es, keys[i]) {
			found = found || e.Move == uint16(w)
		}
		if !found {
			t.Errorf("ply %d: entries %+v, want move %#04x", i+1, polyglot.Find(es, keys[i]), uint16(w))
		}
	}
}

// TestEncoderRejectsKeysThatDoNotFit: keys that are not one per position
// are an error, not a silent miscount.
func TestEncoderRejectsKeysThatDoNotFit(t *testing.T) {
	moves, keys := playSAN(t, "", "e4", "e5")
	if _, err := polyglot.NewEncoder(polyglot.Options{}).Append(nil, "", moves, keys[:2], engine.Draw); err == nil {
		t.Error("2 keys for 2 moves accepted")
	}
}

// TestEncoderMaxPly: --max-ply P counts the first P plies.
func TestEncoderMaxPly(t *testing.T) {
	moves, keys := playSAN(t, "", "e4", "e5", "Nf3", "Nc6", "Bb5")
	for _, maxPly := range []int{0, 1, 3, 5, 9} {
		got, err := polyglot.NewEncoder(polyglot.Options{MaxPly: maxPly}).Append(nil, "", moves, keys, engine.Draw)
		if err != nil {
			t.Fatal(err)
		}
		want := len(moves)
		if maxPly > 0 {
			want = min(maxPly, len(moves))
		}
		if len(got) != want {
			t.Errorf("max-ply %d: %d plies, want %d", maxPly, len(got), want)
		}
	}
}

// TestBuilderBucketsDoNotChangeTheBook: the builder counts each bucket of
// positions apart; one bucket and 65,536 give the same bytes on real games
// (counted 12 times, each followed by a short game through 1.e4 e5 so
// that the start position halves), with and without Compat.
func TestBuilderBucketsDoNotChangeTheBook(t *testing.T) {
	data := benchFixture(t)
	var plies [][]polyglot.Ply
	enc := polyglot.NewEncoder(polyglot.Options{})
	readReplay(t, data, func(g *replay.Game) {
		ps, err := enc.Append(nil, g.StartFEN, g.Moves, g.Keys, g.Result)
		if err != nil {
			t.Fatal(err)
		}
		plies = append(plies, ps)
	})
	// After each game a short one through 1.e4 e5: more than CountMax.
	short, keys := playSAN(t, "", "e4", "e5")
	shortPlies, err := enc.Append(nil, "", short, keys, engine.FirstWins)
	if err != nil {
		t.Fatal(err)
	}
	for _, compat := range []bool{true, false} {
		var books [][]byte
		for _, hint := range []int{0, 1 << 30} {
			b := polyglot.NewBuilder(polyglot.Options{MinGame: 1, Compat: compat})
			b.SizeHint(hint)
			for range 12 {
				for _, ps := range plies {
					b.Add(ps)
					b.Add(shortPlies)
				}
			}
			books = append(books, polyglot.Append(nil, b.Entries()))
		}
		if !bytes.Equal(books[0], books[1]) {
			t.Errorf("compat %v: one bucket and 65,536 differ (%d and %d bytes)", compat, len(books[0]), len(books[1]))
		}
		if len(books[0]) == 0 {
			t.Errorf("compat %v: empty book", compat)
		}
	}
}
