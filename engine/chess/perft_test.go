package chess

import (
	"errors"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// perftNormalLimit is the largest node count run in the normal test run;
// bigger rows of perft.tsv run with XQDB_LONG=1.
const perftNormalLimit = 10_000_000

func longTests() bool { return os.Getenv("XQDB_LONG") == "1" }

// TestPerftKnownPositions needs no shared data: the chessprogramming wiki's
// "Perft Results" positions 1–6 at small depths.
func TestPerftKnownPositions(t *testing.T) {
	want := [][]uint64{
		{20, 400, 8902, 197281},
		{48, 2039, 97862},
		{14, 191, 2812, 43238, 674624},
		{6, 264, 9467, 422333},
		{6, 264, 9467, 422333},
		{44, 1486, 62379},
		{46, 2079, 89890},
	}
	for i, fen := range perftPositions {
		p := mustFEN(t, fen)
		for d, n := range want[i] {
			if got := p.Perft(d + 1); got != n {
				t.Errorf("%s depth %d: Perft = %d, want %d", fen, d+1, got, n)
			}
		}
	}
}

// TestPerftTable checks every row of the shared perft table
// (chessprogramming wiki positions 1–6): up to 10 M nodes normally, all
// rows with XQDB_LONG=1.
func TestPerftTable(t *testing.T) {
	data := readShared(t, "chess/perft.tsv")
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			t.Fatalf("bad line %q", line)
		}
		depth, _ := strconv.Atoi(f[1])
		want, err := strconv.ParseUint(f[2], 10, 64)
		if err != nil {
			t.Fatalf("bad line %q", line)
		}
		if want > perftNormalLimit && !longTests() {
			continue
		}
		if want > 50_000_000_000 {
			continue // hours even with XQDB_LONG
		}
		p := mustFEN(t, f[0])
		if got := p.Perft(depth); got != want {
			t.Errorf("%s depth %d: Perft = %d, want %d", f[0], depth, got, want)
		}
	}
}

// TestPerftTricky runs shakmaty's tricky.perft: e.p. and pin edge cases,
// impossible checker alignments, 218 and 270 legal moves. Positions whose
// castling rights have no king and rook on the standard squares are
// Chess960 (X-FEN) positions to shakmaty; ParseFEN must reject them. Of
// those, "two-knight-checkers" (double check, so the right can never be
// used) runs without the right; "asymmetrical-and-king-on-h" cannot run:
// shakmaty lets its h8 king castle with the a8 rook, a move standard chess
// does not have.
func TestPerftTricky(t *testing.T) {
	cases := readPerftFile(t, readShared(t, "chess/shakmaty/tests/tricky.perft"))
	chess960 := map[string]string{ // id -> castling field to run with, "" to skip
		"xfen-00": "", "xfen-01": "", "xfen-02": "", "xfen-03": "", "xfen-04": "",
		"hside-rook-blocks-aside-castling": "", "asymmetrical-and-king-on-h": "",
		"two-knight-checkers": "-",
	}
	ran := 0
	for _, c := range cases {
		p, err := ParseFEN(c.epd)
		if castling, ok := chess960[c.id]; ok {
			if !errors.Is(err, engine.ErrBadFEN) {
				t.Errorf("%s: ParseFEN(%q) error = %v, want ErrBadFEN", c.id, c.epd, err)
			}
			if castling == "" {
				continue
			}
			f := strings.Fields(c.epd)
			f[2] = castling
			p = mustFEN(t, strings.Join(f, " "))
		} else if err != nil {
			t.Errorf("%s: %v", c.id, err)
			continue
		}
		ran++
		for depth, want := range c.counts {
			if want > perftNormalLimit && !longTests() {
				continue
			}
			if got := p.Perft(depth); got != want {
				t.Errorf("%s (%s) depth %d: Perft = %d, want %d", c.id, c.epd, depth, got, want)
			}
		}
	}
	if ran != len(cases)-7 {
		t.Errorf("ran %d of %d tricky positions, want all but 7", ran, len(cases))
	}
}

// TestPerftRandomSample checks every 20th position of random.perft
// (Rookie 2.0's 6838 random positions) at the depths whose counts stay
// small; XQDB_LONG=1 checks all positions.
func TestPerftRandomSample(t *testing.T) {
	cases := readPerftFile(t, readShared(t, "chess/shakmaty/tests/random.perft"))
	if len(cases) != 6838 {
		t.Fatalf("read %d positions, want 6838", len(cases))
	}
	limit, stride := uint64(100_000), 20
	if longTests() {
		limit, stride = 2_000_000, 1
	}
	checked := 0
	for i := 0; i < len(cases); i += stride {
		c := cases[i]
		p := mustFEN(t, c.epd)
		for depth, want := range c.counts {
			if want > limit {
				continue
			}
			checked++
			if got := p.Perft(depth); got != want {
				t.Errorf("%s (%s) depth %d: Perft = %d, want %d", c.id, c.epd, depth, got, want)
			}
		}
	}
	t.Logf("%d (position, depth) rows checked", checked)
}

// TestPerftDivideSumsToPerft: the divide listing covers every legal move
// once, sorted by UCI text, and its counts add up to Perft.
func TestPerftDivideSumsToPerft(t *testing.T) {
	p := mustFEN(t, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	div := p.PerftDivide(3)
	if len(div) != 48 {
		t.Fatalf("PerftDivide(3) has %d moves, want 48", len(div))
	}
	var sum uint64
	for i, d := range div {
		sum += d.Nodes
		if i > 0 && UCI(div[i-1].Move) >= UCI(d.Move) {
			t.Errorf("not sorted: %s before %s", UCI(div[i-1].Move), UCI(d.Move))
		}
	}
	if sum != 97862 {
		t.Errorf("divide sums to %d, want 97862", sum)
	}
	if got := p.PerftDivide(1); len(got) != 48 || got[0].Nodes != 1 {
		t.Errorf("PerftDivide(1) = %v", got)
	}
	if p.PerftDivide(0) != nil {
		t.Errorf("PerftDivide(0) != nil")
	}
}

// perftPositions are the chessprogramming wiki positions 1–6.
var perftPositions = []string{
	StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 10 10",
}

// checkedWalk walks the legal move tree through the public Make and Unmake
// and checks, after every make and every unmake, that the incremental key
// equals the recomputed key and that unmake restores the FEN exactly; at
// every node, that the bulk count equals the generated list, that every
// generated move is legal by the slow test (make it, is the king attacked?)
// and that FEN output parses back to the same position and key. It returns
// the leaf count, to be compared with Perft.
func checkedWalk(t *testing.T, p *Position, depth int) uint64 {
	fen := p.FEN()
	if k := p.b.computeKey(); k != p.Key() {
		t.Fatalf("%s: incremental key %016x, recomputed %016x", fen, p.Key(), k)
	}
	q, err := ParseFEN(fen)
	if err != nil {
		t.Fatalf("FEN output does not parse: %v", err)
	}
	if q.Key() != p.Key() || q.b != p.b {
		t.Fatalf("%s: re-parsed position differs", fen)
	}
	var buf [maxMoves]engine.Move
	moves := p.AppendLegalMoves(buf[:0])
	if n := p.CountLegalMoves(); n != len(moves) {
		t.Fatalf("%s: CountLegalMoves %d, AppendLegalMoves %d", fen, n, len(moves))
	}
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range moves {
		us := p.SideToMove()
		p.Make(m)
		if p.b.attackersTo(p.b.kingSquare(us), p.b.occ[0]|p.b.occ[1])&p.b.occ[us^1] != 0 {
			t.Fatalf("%s: %s leaves the king attacked", fen, UCI(m))
		}
		n += checkedWalk(t, p, depth-1)
		p.Unmake()
		if got := p.FEN(); got != fen {
			t.Fatalf("unmake %s: FEN %s, want %s", UCI(m), got, fen)
		}
		if k := p.b.computeKey(); k != p.Key() {
			t.Fatalf("unmake %s in %s: key %016x, recomputed %016x", UCI(m), fen, p.Key(), k)
		}
	}
	return n
}

// TestMakeUnmakeKeepsKeyAndFEN walks the perft positions to depth 3 with
// checkedWalk.
func TestMakeUnmakeKeepsKeyAndFEN(t *testing.T) {
	for _, fen := range perftPositions {
		p := mustFEN(t, fen)
		if got, want := checkedWalk(t, p, 3), p.Perft(3); got != want {
			t.Errorf("%s: walk counted %d leaves, Perft(3) = %d", fen, got, want)
		}
	}
}

// TestRandomPlayouts plays seeded random games to the end (or 400 plies)
// with checkedWalk at depth 1 at every ply, then unmakes every move back to
// the start.
func TestRandomPlayouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	games := 100
	if testing.Short() {
		games = 20
	}
	for g := 0; g < games; g++ {
		p := NewStart()
		var fens []string
		for ply := 0; ply < 400; ply++ {
			checkedWalk(t, p, 1)
			moves := p.AppendLegalMoves(nil)
			if len(moves) == 0 || p.InsufficientMaterial() {
				break
			}
			fens = append(fens, p.FEN())
			p.Make(moves[rng.IntN(len(moves))])
		}
		for i := len(fens) - 1; i >= 0; i-- {
			p.Unmake()
			if p.FEN() != fens[i] {
				t.Fatalf("game %d: unmake to ply %d gives %s, want %s", g, i, p.FEN(), fens[i])
			}
		}
		if p.FEN() != StartFEN || p.Key() != 0x463b96181691fc9c {
			t.Fatalf("game %d: back at the start, FEN %s key %016x", g, p.FEN(), p.Key())
		}
	}
}
