package xiangqi

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine/enginetest"
)

type perftRow struct {
	fen   string
	depth int
	nodes uint64
}

func readPerftTSV(t *testing.T, rel string) []perftRow {
	t.Helper()
	f, err := os.Open(enginetest.SharedData(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []perftRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) != 3 {
			continue
		}
		d, _ := strconv.Atoi(cols[1])
		n, _ := strconv.ParseUint(cols[2], 10, 64)
		rows = append(rows, perftRow{cols[0], d, n})
	}
	return rows
}

func TestPerftPublished(t *testing.T) {
	for _, rel := range []string{"xiangqi/perft.tsv", "xiangqi/perft_derived.tsv"} {
		for _, r := range readPerftTSV(t, rel) {
			if r.nodes > enginetest.PerftBudget() {
				continue
			}
			p, err := ParseFEN(r.fen)
			if err != nil {
				t.Fatalf("%s: %v", r.fen, err)
			}
			if got := p.Perft(r.depth); got != r.nodes {
				t.Errorf("%s depth %d: got %d, want %d", r.fen, r.depth, got, r.nodes)
			}
		}
	}
}
