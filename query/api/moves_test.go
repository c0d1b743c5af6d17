package api

import (
	"strings"
	"testing"
)

// TestMoveTokens: moves as pasted from a PGN or a Chinese record: move
// numbers, 1..., results, NAGs, comments and variations are not moves
// (issue 14; the CLI's --moves and the API's moves= read them alike).
func TestMoveTokens(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0", "e4 e5 Nf3 Nc6 Bb5 a6"},
		{"1.e4 e5 2.Nf3 {best} (2.f4 exf4) 2...Nc6 3.Bc4+ $1 *", "e4 e5 Nf3 Nc6 Bc4+"},
		{"1... e5 2. Qh5?! Nc6 3. Qxf7# ; mate\n1-0", "e5 Qh5?! Nc6 Qxf7#"},
		{"1. 炮二平五 马８进７ 2. 马二进三 1/2-1/2", "炮二平五 马８进７ 马二进三"},
		{"1.C2.5 H8+7 2.H2+3", "C2.5 H8+7 H2+3"},
	} {
		if got := strings.Join(MoveTokens(tt.in), " "); got != tt.want {
			t.Errorf("MoveTokens(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
