package opening

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/chess"
)

// sanKeys plays SAN moves from the start and returns every position's key.
func sanKeys(t testing.TB, san string) []uint64 {
	t.Helper()
	p := chess.NewStart()
	keys := []uint64{p.Key()}
	for _, tok := range strings.Fields(san) {
		m, err := p.ParseMove(tok, engine.SAN)
		if err != nil {
			t.Fatalf("%s: %v", tok, err)
		}
		p.Make(m)
		keys = append(keys, p.Key())
	}
	return keys
}

// TestECOTable: every line of lichess's table replays, and no position is
// named twice (so the first line naming a position loses nothing).
func TestECOTable(t *testing.T) {
	zr, err := gzip.NewReader(bytes.NewReader(ecoTSV))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := ReadECO(zr)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Lines != 3807 {
		t.Errorf("%d lines, want lichess's 3,807", tab.Lines)
	}
	t.Logf("%d lines, %d named positions", tab.Lines, tab.Positions)
	if tab.Positions != tab.Lines {
		t.Errorf("%d positions for %d lines: some position is named twice", tab.Positions, tab.Lines)
	}
}

// TestECOClassify: the deepest named position wins, transpositions land
// on the same name, and the side to move counts.
func TestECOClassify(t *testing.T) {
	tab := ChessTable()
	tests := []struct {
		name, moves, code, opening string
		ok                         bool
	}{
		{"start", "", "", "", false},
		{"Najdorf", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6", "B90", "Sicilian Defense: Najdorf Variation", true},
		{"Najdorf, then moves no line names", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 h3 h6 Rh2 Rh7", "B90", "", true},
		{"Queen's Pawn by 1.d4 d5 2.Nf3", "d4 d5 Nf3", "D02", "Queen's Pawn Game: Zukertort Variation", true},
		{"the same by 1.Nf3 d5 2.d4", "Nf3 d5 d4", "D02", "Queen's Pawn Game: Zukertort Variation", true},
		// After 1.e3 e5 2.e4 the board is that of 1.e4 e5 (C20) with
		// Black to move: not C20.
		{"side to move", "e3 e5 e4", "A00", "Van't Kruijs Opening", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, ok := tab.Classify(sanKeys(t, tc.moves))
			if ok != tc.ok || o.Code != tc.code || tc.opening != "" && o.Name != tc.opening {
				t.Errorf("got %s %q %v, want %s %q %v", o.Code, o.Name, ok, tc.code, tc.opening, tc.ok)
			}
		})
	}
	if o, ok := tab.Classify(sanKeys(t, "e4 e5")); !ok || o.Code != "C20" {
		t.Errorf("1.e4 e5: %s, want C20", o.Code)
	}
}

func TestClassifyAllocatesNothing(t *testing.T) {
	keys := sanKeys(t, "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be3 e5 Nb3 Be6 f3 Be7 Qd2 O-O O-O-O Nbd7 g4 b5 g5 b4")
	xq := make([]engine.Move, 0, 40)
	for _, m := range strings.Fields("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 g3g4 c6c5 b0a2 c9e7 b2b6 g6g5 g4g5 e7g5 g2f4 d9e8 b6i6 h7h2 a0b0 a9b9 b6b7") {
		mv, _ := xiangqiMove(m)
		xq = append(xq, mv)
	}
	ChessTable()
	XiangqiTable()
	if n := testing.AllocsPerRun(100, func() { Classify(engine.Chess, "", nil, keys) }); n != 0 {
		t.Errorf("chess: %v allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { Classify(engine.Xiangqi, "", xq, nil) }); n != 0 {
		t.Errorf("xiangqi: %v allocations", n)
	}
}

func BenchmarkClassifyChess(b *testing.B) {
	// Morphy's Opera Game: the classifier looks at each position.
	keys := sanKeys(b, "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#")
	ChessTable()
	b.ReportAllocs()
	for b.Loop() {
		Classify(engine.Chess, "", nil, keys)
	}
}

func BenchmarkClassifyXiangqi(b *testing.B) {
	var ms []engine.Move
	for _, m := range strings.Fields("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 g3g4 c6c5 b0a2 c9e7 b2b6 g6g5 g4g5 e7g5 g2f4 d9e8 b6i6 h7h2 a0b0 a9b9") {
		mv, _ := xiangqiMove(m)
		ms = append(ms, mv)
	}
	XiangqiTable()
	b.ReportAllocs()
	for b.Loop() {
		Classify(engine.Xiangqi, "", ms, nil)
	}
}

func FuzzReadECO(f *testing.F) {
	f.Add("eco\tname\tpgn\nC20\tKing's Pawn Game\t1. e4 e5\n")
	f.Add("B00\tx\t1. e4 e5 2. Ke2 Ke7 3. O-O\n")
	f.Fuzz(func(t *testing.T, s string) {
		if tab, err := ReadECO(strings.NewReader(s)); err == nil {
			tab.Classify([]uint64{chess.NewStart().Key()})
		}
	})
}

// TestECOTableNamesEveryLine: each line's final position, replayed on its
// own, carries the line's code and name.
func TestECOTableNamesEveryLine(t *testing.T) {
	zr, err := gzip.NewReader(bytes.NewReader(ecoTSV))
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if _, err := text.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	tab := ChessTable()
	n := 0
	for _, l := range strings.Split(strings.TrimSpace(text.String()), "\n") {
		f := strings.Split(l, "\t")
		if f[0] == "eco" {
			continue
		}
		var san []string
		for _, tok := range strings.Fields(f[2]) {
			if !strings.HasSuffix(tok, ".") {
				san = append(san, tok)
			}
		}
		keys := sanKeys(t, strings.Join(san, " "))
		if o, ok := tab.Position(keys[len(keys)-1]); !ok || o.Code != f[0] || o.Name != f[1] {
			t.Fatalf("line %q: the table names its position %v %v", l, o, ok)
		}
		n++
	}
	if n != tab.Lines {
		t.Errorf("checked %d lines, the table read %d", n, tab.Lines)
	}
}

// BenchmarkReadECO builds the chess table from the embedded TSV, as every
// import's first classification does.
func BenchmarkReadECO(b *testing.B) {
	for b.Loop() {
		zr, err := gzip.NewReader(bytes.NewReader(ecoTSV))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ReadECO(zr); err != nil {
			b.Fatal(err)
		}
	}
}
