package xiangqi

import (
	"bufio"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
)

// rulesCase is one row of shared/data/xiangqi/rules-cases.tsv.
type rulesCase struct {
	name, fen string
	moves     []string
	expected  string
	source    string
}

func readRulesCases(t *testing.T) []rulesCase {
	t.Helper()
	f, err := os.Open(enginetest.SharedData(t, "xiangqi/rules-cases.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []rulesCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for first := true; sc.Scan(); first = false {
		if first {
			continue
		}
		c := strings.Split(sc.Text(), "\t")
		if len(c) < 5 {
			t.Fatalf("short row %q", sc.Text())
		}
		out = append(out, rulesCase{c[0], c[1], strings.Fields(c[2]), c[3], c[4]})
	}
	return out
}

// TestRulesCasesMoveRules runs the rows of the rules-cases table that are
// about the position alone: legal, illegal, invalid_fen, checkmate,
// stalemate and perft. The repetition and adjudication rows belong to
// replay (RULES X13–X16).
func TestRulesCasesMoveRules(t *testing.T) {
	counts := map[string]int{}
	for _, rc := range readRulesCases(t) {
		kind := rc.expected
		if i := strings.IndexByte(kind, ':'); i >= 0 && strings.HasPrefix(kind, "perft") {
			kind = "perft"
		} else if strings.HasSuffix(kind, ":checkmate") || strings.HasSuffix(kind, ":stalemate") {
			kind = kind[strings.IndexByte(kind, ':')+1:]
		}
		switch kind {
		case "legal", "illegal", "invalid_fen", "checkmate", "stalemate", "perft":
		default:
			continue
		}
		counts[kind]++
		t.Run(rc.name, func(t *testing.T) {
			p, err := ParseFEN(rc.fen)
			if kind == "invalid_fen" {
				if !errors.Is(err, engine.ErrBadFEN) {
					t.Fatalf("ParseFEN accepted an impossible position (err %v)", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseFEN: %v", err)
			}
			for i, mv := range rc.moves {
				m, ok := ParseICCSMove(mv)
				legal := ok && p.IsLegal(m)
				wantLegal := kind != "illegal" || i < len(rc.moves)-1
				if legal != wantLegal {
					t.Fatalf("move %d %s: legal=%v, want %v (%s)", i+1, mv, legal, wantLegal, rc.source)
				}
				if legal {
					p.Make(m)
				}
			}
			switch kind {
			case "checkmate", "stalemate":
				want := engine.Checkmate
				if kind == "stalemate" {
					want = engine.Stalemate
				}
				if got := p.Status(); got != want {
					t.Fatalf("status %v, want %v", got, want)
				}
				// RULES X12: the side to move loses either way.
				loser := "1-0"
				if p.SideToMove() == engine.First {
					loser = "0-1"
				}
				if !strings.HasPrefix(rc.expected, loser) {
					t.Fatalf("expected %s but %s is to move and loses", rc.expected, p.SideToMove().Name(engine.Xiangqi))
				}
			case "perft":
				parts := strings.Split(rc.expected, ":")
				d, _ := strconv.Atoi(parts[1])
				n, _ := strconv.ParseUint(parts[2], 10, 64)
				if n > enginetest.PerftBudget() {
					t.Skipf("perft of %d nodes runs only with XQDB_LONG=1", n)
				}
				if got := p.Perft(d); got != n {
					t.Fatalf("perft(%d) = %d, want %d", d, got, n)
				}
			}
		})
	}
	for _, k := range []string{"legal", "illegal", "invalid_fen", "checkmate", "stalemate", "perft"} {
		if counts[k] == 0 {
			t.Errorf("no %s rows found in rules-cases.tsv", k)
		}
	}
}
