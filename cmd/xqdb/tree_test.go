package main

import "testing"

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
		{0, 1 * gib}, {2 * gib, 1 * gib}, {8 * gib, 2 * gib}, {24 * gib, 3 * gib}, {256 * gib, 3 * gib},
	} {
		if got := importMemoryLimit(tt.physical); got != tt.want {
			t.Errorf("importMemoryLimit(%d GiB) = %d, want %d", tt.physical/gib, got, tt.want)
		}
	}
	if physicalMemory() <= 0 {
		t.Log("no /proc/meminfo here: imports use the 1 GiB floor")
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
