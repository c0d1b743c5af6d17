package board

import "testing"

func TestFENAndSide(t *testing.T) {
	var b Board
	for i, sq := range [32][2]int{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}, {6, 0}, {7, 0}, {8, 0}, {1, 2}, {7, 2},
		{0, 3}, {2, 3}, {4, 3}, {6, 3}, {8, 3}, {0, 9}, {1, 9}, {2, 9}, {3, 9}, {4, 9}, {5, 9}, {6, 9}, {7, 9}, {8, 9},
		{1, 7}, {7, 7}, {0, 6}, {2, 6}, {4, 6}, {6, 6}, {8, 6}} {
		b[sq[0]][sq[1]] = Pieces[i]
	}
	if got := b.FEN(b.Side(7, 2)); got != Start {
		t.Errorf("FEN %q, want %q", got, Start)
	}
	tests := []struct {
		file, rank int
		want       byte
	}{{7, 7, 'b'}, {7, 2, 'w'}, {4, 4, 'w'}, {-1, 0, 'w'}, {9, 9, 'w'}}
	for _, tt := range tests {
		if got := b.Side(tt.file, tt.rank); got != tt.want {
			t.Errorf("Side(%d,%d) = %c, want %c", tt.file, tt.rank, got, tt.want)
		}
	}
	if got := string(AppendICCS(nil, 7, 2, 4, 2)); got != "h2e2" {
		t.Errorf("AppendICCS = %q", got)
	}
}
