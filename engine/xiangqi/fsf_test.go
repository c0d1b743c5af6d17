package xiangqi

import (
	"bufio"
	"compress/gzip"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
)

// realGamePositions samples positions reached in real games: the ICCS main
// lines of CCPD (shared/data/xiangqi/ccpd/ccpd_unique_derived.tsv.gz).
func realGamePositions(t *testing.T, n int, seed uint64) []string {
	t.Helper()
	f, err := os.Open(enginetest.SharedData(t, "xiangqi/ccpd/ccpd_unique_derived.tsv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	var out []string
	for sc.Scan() && len(out) < n {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 12 || cols[8] != "ok" || rng.IntN(20) != 0 {
			continue
		}
		p, err := ParseFEN(cols[4])
		if err != nil {
			continue
		}
		moves := strings.Fields(cols[11])
		if len(moves) == 0 {
			continue
		}
		stop := rng.IntN(len(moves) + 1)
		for _, mv := range moves[:stop] {
			m, ok := ParseICCSMove(mv)
			if !ok || !p.IsLegal(m) {
				t.Fatalf("derived ICCS %s illegal in %s", mv, p.FEN())
			}
			p.Make(m)
		}
		out = append(out, p.FEN())
	}
	return out
}

// fsfMove converts Fairy-Stockfish's UCI move (ranks 1–10) to ICCS (0–9).
func fsfMove(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		f := s[i]
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		r, _ := strconv.Atoi(s[i+1 : j])
		b.WriteByte(f)
		b.WriteString(strconv.Itoa(r - 1))
		i = j
	}
	return b.String()
}

// TestPerftMatchesFairyStockfish compares perft(3) divides with
// Fairy-Stockfish on 300 positions from real games.
func TestPerftMatchesFairyStockfish(t *testing.T) {
	fsf := enginetest.StartUCI(t, enginetest.FindEngine(t, "fairy-stockfish"), map[string]string{"UCI_Variant": "xiangqi"})
	positions := realGamePositions(t, 300, 1)
	if len(positions) < 300 {
		t.Fatalf("only %d positions sampled", len(positions))
	}
	for _, fen := range positions {
		p, _ := ParseFEN(fen)
		want, total := fsf.PerftDivide("fen "+fen, 3)
		got := map[string]uint64{}
		var buf [MaxMoves]engine.Move
		for _, m := range p.AppendLegalMoves(buf[:0]) {
			p.Make(m)
			got[ICCS(m)] = p.Perft(2)
			p.Unmake()
		}
		if p.Perft(3) != total || len(got) != len(want) {
			t.Errorf("%s: perft(3) %d with %d moves, Fairy-Stockfish %d with %d", fen, p.Perft(3), len(got), total, len(want))
		}
		for mv, n := range want {
			if got[fsfMove(mv)] != n {
				t.Errorf("%s: after %s we count %d, Fairy-Stockfish %d", fen, fsfMove(mv), got[fsfMove(mv)], n)
			}
		}
	}
}
