package main

import (
	"strings"
	"testing"
)

// The tree's move column lines up in a terminal whatever the notation:
// Chinese moves take two columns a character.
func TestPadRightCountsTerminalColumns(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Nf3", "Nf3     "},
		{"马二进三", "马二进三"},
		{"马８进７", "马８进７"},
		{"炮5", "炮5" + "     "}, // 3 columns, 5 spaces
		{"M2.3", "M2.3    "},
		{"Nxe5+!?xx", "Nxe5+!?xx"},
	}
	for _, tt := range tests {
		if got := padRight(tt.in, 8); got != tt.want {
			t.Errorf("padRight(%q, 8) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestImportMemoryLimit(t *testing.T) {
	const gib = 1 << 30
	for _, tt := range []struct{ physical, want int64 }{
		{0, gib / 2}, {1 * gib, gib / 2}, {2 * gib, gib / 2}, {3 * gib, 5 * gib / 8}, {4 * gib, 5 * gib / 8}, {24 * gib, 5 * gib / 8}, {256 * gib, 5 * gib / 8},
	} {
		if got := importMemoryLimit(tt.physical); got != tt.want {
			t.Errorf("importMemoryLimit(%d GiB) = %d, want %d", tt.physical/gib, got, tt.want)
		}
	}
	if physicalMemory() <= 0 {
		t.Log("no /proc/meminfo here: imports use the 512 MiB floor")
	}
}

// TestListingLine: a listing shows "?" for a missing name or date and
// leaves no separator for what is missing (issue 14).
func TestListingLine(t *testing.T) {
	for _, tt := range []struct {
		l    gameLineJSON
		want string
	}{
		{gameLineJSON{ID: 7, Date: "1990.05.01", Result: "1-0", Rating: 2550, White: "Hu", Black: "Lu", Event: "Cup", Opening: "C45", OpeningName: "Central cannon", Ply: 3},
			"      7  1990.05.01 1-0     2550  Hu – Lu, Cup, C45 Central cannon, ply 3"},
		{gameLineJSON{ID: 8, Result: "*", White: "Hu", Ply: -1},
			"      8  ?          *             Hu – ?"},
		{gameLineJSON{ID: 9, Date: "2001.??.??", Result: "0-1", Black: " ", Opening: "A00", Ply: -1},
			"      9  2001.??.?? 0-1           ? – ?, A00"},
	} {
		if got := listingLine(tt.l); got != tt.want {
			t.Errorf("listingLine:\n got %q\nwant %q", got, tt.want)
		}
	}
}

// TestMovesFromPastedPGN: --moves takes moves as pasted from a PGN (move
// numbers, 1..., results, check marks, comments, variations: the tokens
// are api.MoveTokens', tested in query/api), and its error names the move
// that is wrong (issue 14).
func TestMovesFromPastedPGN(t *testing.T) {
	db := ccpdDB(t)
	code, _, stderr := runCLI(t, "tree", "--db", db, "--game", "chess", "--moves", "e4 e5 Qxf7")
	if code != exitUsage || !strings.Contains(stderr, `"Qxf7"`) || strings.Contains(stderr, `"e5"`) {
		t.Errorf("bad --moves: exit %d, stderr %q; want 2 naming Qxf7", code, stderr)
	}
	code, out, stderr := runCLI(t, "tree", "--db", db, "--moves", "1. 炮二平五 马８进７ 2. 马二进三 *", "--json")
	if code != exitOK || !strings.Contains(out, `"games"`) {
		t.Errorf("pasted Chinese moves: exit %d, %s %s", code, out, stderr)
	}
}

// TestMirrorOnChessIsUsageError: chess positions have no mirror search
// (issue 14).
func TestMirrorOnChessIsUsageError(t *testing.T) {
	for _, cmd := range []string{"tree", "games"} {
		code, out, stderr := runCLI(t, cmd, "--db", t.TempDir(), "--game", "chess", "--moves", "e4", "--mirror")
		if code != exitUsage || out != "" || !strings.Contains(stderr, "--mirror is for Xiangqi") {
			t.Errorf("%s --mirror on chess: exit %d, stdout %q, stderr %q", cmd, code, out, stderr)
		}
	}
}
