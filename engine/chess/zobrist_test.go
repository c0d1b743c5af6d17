package chess

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// TestPolyglotRandomMatchesShared checks the generated Go table against the
// shared text table it was generated from.
func TestPolyglotRandomMatchesShared(t *testing.T) {
	data := readShared(t, "chess/polyglot_random64.txt")
	var vals []uint64
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		v, err := strconv.ParseUint(strings.TrimPrefix(line, "0x"), 16, 64)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		vals = append(vals, v)
	}
	if len(vals) != len(polyglotRandom) {
		t.Fatalf("shared table has %d values, Go table %d", len(vals), len(polyglotRandom))
	}
	for i, v := range vals {
		if polyglotRandom[i] != v {
			t.Errorf("polyglotRandom[%d] = %#016x, shared file says %#016x", i, polyglotRandom[i], v)
		}
	}
}

// TestPolyglotKeyVectors checks the Polyglot spec's test vectors
// (ANCHORS §5).
func TestPolyglotKeyVectors(t *testing.T) {
	tests := []struct {
		name  string
		moves string
		want  uint64
	}{
		{"start", "", 0x463b96181691fc9c},
		{"1.e4", "e2e4", 0x823c9b50fd114196},
		{"1.e4 d5", "e2e4 d7d5", 0x0756b94461c50fb0},
		{"2.e5", "e2e4 d7d5 e4e5", 0x662fafb965db29d4},
		{"2...f5 (e.p. possible)", "e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78},
		{"3.Ke2", "e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1},
		{"3...Kf7", "e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9},
		{"1.a4 b5 2.h4 b4 3.c4 (e.p. possible)", "a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637},
		{"3...bxc3 4.Ra3", "a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewStart()
			play(t, p, strings.Fields(tt.moves)...)
			if got := p.Key(); got != tt.want {
				t.Errorf("Key() = %016x, want %016x", got, tt.want)
			}
			if got := p.b.computeKey(); got != tt.want {
				t.Errorf("computeKey() = %016x, want %016x", got, tt.want)
			}
			if got := mustFEN(t, p.FEN()).Key(); got != tt.want {
				t.Errorf("key of FEN %s = %016x, want %016x", p.FEN(), got, tt.want)
			}
		})
	}
}

// TestLilaZobristRows replays the 100 chess games of lila-openingexplorer's
// golden key table. Its StableZobrist128's low 64 bits are the Polyglot key,
// except that lila hashes the e.p. file only when the capture is legal
// (KeyLegalEP); where the two rules differ the row must match KeyLegalEP
// and Key must differ from it by exactly the e.p. file.
func TestLilaZobristRows(t *testing.T) {
	data := readShared(t, "chess/lila-openingexplorer/zobrist128.csv")
	rows, differ := 0, 0
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Split(strings.TrimSpace(line), ",")
		if len(f) != 3 || f[0] != "chess" {
			continue
		}
		rows++
		hex := strings.TrimPrefix(f[2], "0x")
		want, err := strconv.ParseUint(hex[len(hex)-16:], 16, 64)
		if err != nil {
			t.Fatalf("row %d: %v", rows, err)
		}
		p := NewStart()
		play(t, p, strings.Fields(f[1])...)
		if got := p.KeyLegalEP(); got != want {
			t.Errorf("row %d (%s): KeyLegalEP() = %016x, want %016x", rows, p.FEN(), got, want)
			continue
		}
		if p.Key() != want {
			differ++
			if p.EPSquare() == NoSquare || p.Key()^want != zEP[p.EPSquare().File()] {
				t.Errorf("row %d (%s): Key() = %016x differs from lila's %016x by more than the e.p. file", rows, p.FEN(), p.Key(), want)
			}
		}
	}
	if rows != 100 {
		t.Errorf("read %d chess rows, want 100", rows)
	}
	t.Logf("%d rows, %d where Polyglot's pseudo-legal e.p. rule differs from lila's legal one", rows, differ)
}

// TestKeyLegalEPDiffersOnlyForPinnedEPPawn: with the only capturing pawn
// pinned, Polyglot still hashes the e.p. file (a pawn stands beside), lila
// does not.
func TestKeyLegalEPDiffersOnlyForPinnedEPPawn(t *testing.T) {
	// After ...d7d5 the e5 pawn stands beside d5 but is pinned along the
	// rank by the rook on h5 (horizontal pin).
	p := mustFEN(t, "4k3/3p4/8/K3P2r/8/8/8/8 b - - 0 1")
	play(t, p, "d5")
	if p.EPSquare() != D6 {
		t.Fatalf("EPSquare() = %v, want d6", p.EPSquare())
	}
	if p.Key() == p.KeyLegalEP() || p.Key()^p.KeyLegalEP() != zEP[3] {
		t.Errorf("Key %016x, KeyLegalEP %016x: want them to differ by the d-file e.p. entry", p.Key(), p.KeyLegalEP())
	}
	q := mustFEN(t, "4k3/3p4/8/K3P3/8/8/8/8 b - - 0 1")
	play(t, q, "d5")
	if q.Key() != q.KeyLegalEP() {
		t.Errorf("legal e.p.: Key %016x != KeyLegalEP %016x", q.Key(), q.KeyLegalEP())
	}
}
