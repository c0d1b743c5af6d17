package xiangqi

import (
	"bufio"
	"strconv"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
)

// ccpdRow is one row of ccpd_unique_derived.tsv.gz: a CCPD record with the
// ICCS replay of its Chinese moves by an independent validator.
type ccpdRow struct {
	id, fen, status, failMove string
	plies, failPly            int
	iccs                      []string
}

func readCCPDDerived(tb testing.TB) []ccpdRow {
	tb.Helper()
	r := openShared(tb, enginetest.SharedData(tb, "xiangqi/ccpd/ccpd_unique_derived.tsv.gz"))
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var rows []ccpdRow
	header := true
	for sc.Scan() {
		if header {
			header = false
			continue
		}
		// id category n_copies first_path fen result_tag ecco_tag plies status fail_ply fail_move iccs_moves
		c := strings.Split(sc.Text(), "\t")
		if len(c) != 12 {
			tb.Fatalf("derived row %d has %d columns", len(rows)+1, len(c))
		}
		row := ccpdRow{id: c[0], fen: c[4], status: c[8], failMove: c[10], iccs: strings.Fields(c[11])}
		row.plies, _ = strconv.Atoi(c[7])
		row.failPly, _ = strconv.Atoi(c[9])
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return rows
}

// ccpdImpossibleFEN are CCPD records the validator replayed but whose FEN
// ParseFEN rejects as a position that cannot arise; their moves cannot be
// checked.
var ccpdImpossibleFEN = map[string]string{
	"30538": "black advisor on g0",
	"30602": "red elephant on g1",
}

// TestCCPDChineseMatchesDerivedICCS replays the traditional Chinese moves
// of every unique CCPD record (NOTATIONS §3, [checked]) and compares them
// with the validator's ICCS: the same moves, and the 12 broken records
// fail where the validator failed them (ParseFEN already refuses the five
// FENs without a general). It also checks our traditional output against
// CCPD's text: the only differences allowed are moves where CCPD wrote
// 前/後 though the file named the move uniquely. -short samples every
// tenth record.
func TestCCPDChineseMatchesDerivedICCS(t *testing.T) {
	t.Parallel()
	rows := readCCPDDerived(t)
	games := readMovetext(t, openShared(t, enginetest.SharedData(t, "xiangqi/ccpd/ccpd_unique.utf8.pgn.gz")))
	if len(games) != len(rows) {
		t.Fatalf("%d PGN records, %d derived rows", len(games), len(rows))
	}
	step := 1
	if testing.Short() {
		step = 10
	}
	var records, plies, same, extraPlace, failed, badFEN int
	var text []byte
	for i := 0; i < len(rows); i += step {
		row, g := rows[i], games[i]
		records++
		if g.tags["FEN"] != row.fen {
			t.Fatalf("record %s: FEN tag %q, derived %q", row.id, g.tags["FEN"], row.fen)
		}
		if len(g.moves) != row.plies {
			t.Errorf("record %s: %d move tokens, derived %d plies", row.id, len(g.moves), row.plies)
		}
		p, err := ParseFEN(row.fen)
		if err != nil {
			if _, known := ccpdImpossibleFEN[row.id]; !known && row.status != "nomatch" {
				t.Errorf("record %s: %v, but derived status %s", row.id, err, row.status)
			}
			badFEN++
			continue
		}
		if _, known := ccpdImpossibleFEN[row.id]; known {
			t.Errorf("record %s: ParseFEN accepts %q, listed as impossible", row.id, row.fen)
		}
		for j, tok := range g.moves {
			m, err := p.ParseMove(tok, engine.ChineseTraditional)
			if err != nil {
				if row.status != "nomatch" || row.failPly != j+1 || row.failMove != tok {
					t.Errorf("record %s ply %d: %v; derived status %s at ply %d", row.id, j+1, err, row.status, row.failPly)
				}
				failed++
				break
			}
			if j >= len(row.iccs) || ICCS(m) != row.iccs[j] {
				t.Errorf("record %s ply %d: %q reads %s, derived %v", row.id, j+1, tok, ICCS(m), row.iccs[min(j, len(row.iccs)):])
				break
			}
			text = p.AppendMove(text[:0], m, engine.ChineseTraditional)
			switch {
			case string(text) == tok:
				same++
			case strings.HasPrefix(tok, "前") || strings.HasPrefix(tok, "後"):
				// CCPD wrote a position word where the file was unique.
				if got, err := p.ParseMove(string(text), engine.ChineseTraditional); err != nil || got != m {
					t.Errorf("record %s ply %d: CCPD %q, ours %q reads %s, %v", row.id, j+1, tok, text, ICCS(got), err)
				}
				extraPlace++
			default:
				t.Errorf("record %s ply %d: CCPD writes %q, we write %q", row.id, j+1, tok, text)
			}
			plies++
			p.Make(m)
		}
		if row.status == "nomatch" && len(row.iccs) == len(g.moves) {
			t.Errorf("record %s: derived as failing, replays in full", row.id)
		}
	}
	t.Logf("%d records: %d plies replayed as derived; %d fail at the derived ply; %d FENs refused by ParseFEN", records, plies, failed, badFEN)
	t.Logf("our traditional text equals CCPD's for %d of %d moves; %d more where CCPD writes 前/後 though the file is unique", same, plies, extraPlace)
}
