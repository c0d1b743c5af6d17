package polyglot_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/chess"
	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/query/book/polyglot"
)

func readBook(t *testing.T, name string) []polyglot.Entry {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(enginetest.SharedData(t, "chess/python-chess/polyglot"), name))
	if err != nil {
		t.Fatal(err)
	}
	es, err := polyglot.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// legalMoves is python-chess's find_all: the entries of the position with
// weight ≥ 1, converted (castling) and kept only when legal.
func legalMoves(t *testing.T, es []polyglot.Entry, p *chess.Position) ([]engine.Move, []uint16) {
	t.Helper()
	var ms []engine.Move
	var ws []uint16
	for _, e := range polyglot.Find(es, p.Key()) {
		if e.Weight == 0 {
			continue
		}
		m, err := p.FromPolyglot(e.Move)
		if err != nil {
			continue
		}
		ms = append(ms, m)
		ws = append(ws, e.Weight)
	}
	return ms, ws
}

// find is python-chess's find: the first entry of the highest weight.
func find(t *testing.T, es []polyglot.Entry, p *chess.Position) (engine.Move, bool) {
	ms, ws := legalMoves(t, es, p)
	best := -1
	for i := range ms {
		if best < 0 || ws[i] > ws[best] {
			best = i
		}
	}
	if best < 0 {
		return engine.NoMove, false
	}
	return ms[best], true
}

func fen(t *testing.T, s string) *chess.Position {
	t.Helper()
	p, err := chess.ParseFEN(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func san(t *testing.T, p *chess.Position, s string) engine.Move {
	t.Helper()
	m, err := p.ParseMove(s, engine.SAN)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestPythonChessPerformanceBin replays python-chess's test_polyglot cases
// on the same books (test.py, PolyglotTestCase).
func TestPythonChessPerformanceBin(t *testing.T) {
	es := readBook(t, "performance.bin")
	if len(es) != 92954 {
		t.Fatalf("performance.bin: %d entries, want 92,954", len(es))
	}
	// test_performance_bin: first entries e4, then e5.
	p := chess.NewStart()
	ms, _ := legalMoves(t, es, p)
	if len(ms) == 0 || ms[0] != san(t, p, "e4") {
		t.Fatalf("first move from the start: %v", ms)
	}
	p.Make(ms[0])
	if ms, _ = legalMoves(t, es, p); len(ms) == 0 || ms[0] != san(t, p, "e5") {
		t.Fatalf("first reply to e4: %v", ms)
	}
	// test_mainline: follow find until the book ends.
	p = chess.NewStart()
	for {
		m, ok := find(t, es, p)
		if !ok {
			break
		}
		p.Make(m)
	}
	if got, want := p.FEN(), "r2q1rk1/4bppp/p2p1n2/np5b/3BP1P1/5N1P/PPB2P2/RN1QR1K1 b - - 0 15"; got != want {
		t.Errorf("main line ends at %s, want %s", got, want)
	}
	// test_find, test_exclude_moves, test_minimum_weight, test_random_choice.
	p = chess.NewStart()
	ms, ws := legalMoves(t, es, p)
	if m, _ := find(t, es, p); chess.UCI(m) != "e2e4" {
		t.Errorf("find from the start = %s, want e2e4", chess.UCI(m))
	}
	var second engine.Move
	for i, m := range ms {
		if chess.UCI(m) != "e2e4" && (second == engine.NoMove || ws[i] > ws[indexOf(ms, second)]) {
			second = m
		}
	}
	if chess.UCI(second) != "d2d4" {
		t.Errorf("find without e2e4 = %s, want d2d4", chess.UCI(second))
	}
	for i, w := range ws {
		if w >= 2 {
			t.Errorf("start move %s has weight %d; python-chess finds none of weight ≥ 2", chess.UCI(ms[i]), w)
		}
	}
	if last := ms[len(ms)-1]; chess.UCI(last) != "c2c4" {
		t.Errorf("last start entry = %s, want c2c4", chess.UCI(last))
	}
	// test_castling.
	p = fen(t, "r1bqr1k1/pp1nbppp/2p2n2/3p2B1/3P4/2NBP3/PPQ1NPPP/R3K2R w KQ - 5 10")
	ms, _ = legalMoves(t, es, p)
	want := map[engine.Move]bool{san(t, p, "O-O"): true, san(t, p, "O-O-O"): true, san(t, p, "h3"): true}
	if len(ms) != 3 || !want[ms[0]] || !want[ms[1]] || !want[ms[2]] || ms[0] == ms[1] || ms[1] == ms[2] || ms[0] == ms[2] {
		t.Errorf("QGD exchange moves = %v, want O-O, O-O-O, h3", uciAll(ms))
	}
	p = fen(t, "r3k1nr/1pp1q1pp/p1pb1p2/4p3/3PP1b1/2P1BN2/PP1N1PPP/R2Q1RK1 b kq - 4 9")
	if ms, _ = legalMoves(t, es, p); len(ms) != 1 || ms[0] != san(t, p, "O-O-O") {
		t.Errorf("Ruy Lopez exchange moves = %v, want O-O-O only", uciAll(ms))
	}
	p = fen(t, "1r1qr1k1/1b2bp1n/p2p2pB/1pnPp2p/P1p1P3/R1P2NNP/1PBQ1PP1/4R1K1 w - - 0 1")
	if m, ok := find(t, es, p); !ok || chess.UCI(m) != "e1a1" {
		t.Errorf("rook move e1a1 (not castling) read as %s", chess.UCI(m))
	}
}

func indexOf(ms []engine.Move, m engine.Move) int {
	for i := range ms {
		if ms[i] == m {
			return i
		}
	}
	return -1
}

func uciAll(ms []engine.Move) []string {
	var out []string
	for _, m := range ms {
		out = append(out, chess.UCI(m))
	}
	return out
}

// TestPythonChessLaskerTrap: the book's move is the underpromotion fxg1=N+.
func TestPythonChessLaskerTrap(t *testing.T) {
	es := readBook(t, "lasker-trap.bin")
	p := fen(t, "rnbqk1nr/ppp2ppp/8/4P3/1BP5/8/PP2KpPP/RN1Q1BNR b kq - 1 7")
	m, ok := find(t, es, p)
	if !ok || m != san(t, p, "fxg1=N+") {
		t.Errorf("lasker trap: %s, want f2g1n", chess.UCI(m))
	}
}

// TestParseRejects: files that are not books say why.
func TestParseRejects(t *testing.T) {
	if _, err := polyglot.Parse(make([]byte, 17)); !errors.Is(err, polyglot.ErrBadSize) {
		t.Errorf("17 bytes: %v, want ErrBadSize", err)
	}
	unsorted := polyglot.Append(nil, []polyglot.Entry{{Key: 2, Move: 1, Weight: 1}, {Key: 1, Move: 1, Weight: 1}})
	if _, err := polyglot.Parse(unsorted); !errors.Is(err, polyglot.ErrUnsorted) {
		t.Errorf("unsorted: %v, want ErrUnsorted", err)
	}
	if es, err := polyglot.Parse(nil); err != nil || len(es) != 0 {
		t.Errorf("empty book: %v %v", es, err)
	}
}

// TestBuilderCountsRepeats: a (position, move) pair repeated in one game
// counts each time; weights are 2 a win, 1 a draw, 0 a loss for the mover.
func TestBuilderCountsRepeats(t *testing.T) {
	b := polyglot.NewBuilder(polyglot.Options{MinGame: 1})
	p := chess.NewStart()
	var moves []engine.Move
	for _, s := range []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6"} {
		m := san(t, p, s)
		moves = append(moves, m)
		p.Make(m)
	}
	if err := b.AddGame("", moves, engine.FirstWins); err != nil {
		t.Fatal(err)
	}
	start := chess.NewStart()
	got := polyglot.Find(b.Entries(), start.Key())
	if len(got) != 1 || got[0].Weight != 4 || got[0].Move != start.PolyglotMove(san(t, start, "Nf3")) {
		t.Errorf("start entries %+v, want Nf3 weight 4 (two wins)", got)
	}
	start.Make(san(t, start, "Nf3"))
	if got := polyglot.Find(b.Entries(), start.Key()); len(got) != 0 {
		t.Errorf("black's losing Nf6 kept: %+v (weight 0 entries are dropped)", got)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(polyglot.Append(nil, []polyglot.Entry{{Key: 0x463b96181691fc9c, Move: 0x031c, Weight: 1}}))
	f.Add([]byte("not a book at all"))
	f.Fuzz(func(t *testing.T, data []byte) {
		es, err := polyglot.Parse(data)
		if err != nil {
			return
		}
		if !bytes.Equal(polyglot.Append(nil, es), data) {
			t.Fatal("parse/append does not round-trip")
		}
		p := chess.NewStart()
		for _, e := range polyglot.Find(es, p.Key()) {
			p.FromPolyglot(e.Move) // must not panic on any move code
		}
	})
}
