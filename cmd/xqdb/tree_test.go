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
