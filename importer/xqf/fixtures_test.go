package xqf_test

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/importer/internal/xqtest"
	"github.com/xqdb/xqdb/importer/pgn"
	"github.com/xqdb/xqdb/importer/record"
	"github.com/xqdb/xqdb/importer/xqf"
)

func fixture(name string) string { return filepath.Join("..", "testdata", "xqf", name) }

func parseFile(t *testing.T, path string) (*record.Record, error) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return xqf.Parse(data, filepath.Base(path))
}

// lines returns every line of play a record holds, main line and each
// variation continued from the moves before it, as ICCS moves.
func lines(rec *record.Record) [][]string {
	var out [][]string
	var walk func(i int, prefix []string) int
	walk = func(i int, prefix []string) int {
		cur := append([]string(nil), prefix...)
		for i < len(rec.Elements) {
			e := rec.Elements[i]
			switch e.Kind {
			case record.Move:
				cur = append(cur, string(rec.TokenText(e)))
			case record.VariationStart:
				i = walk(i+1, cur[:len(cur)-1])
				continue
			case record.VariationEnd:
				out = append(out, cur)
				return i + 1
			}
			i++
		}
		out = append(out, cur)
		return i
	}
	walk(0, nil)
	return out
}

// TestMoveLists checks test1.xqf and ucci_test1.xqf against walker8088's
// expected lists (first line the FEN, then one Chinese move per line,
// last line the result), as its test_read_xqf.py does.
func TestMoveLists(t *testing.T) {
	results := map[string]string{"红胜": "1-0", "黑胜": "0-1", "和棋": "1/2-1/2"}
	for _, name := range []string{"test1", "ucci_test1"} {
		t.Run(name, func(t *testing.T) {
			rec, err := parseFile(t, fixture(name+".xqf"))
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(fixture(name + "_move.txt"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var txt []string
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if s := strings.TrimSpace(sc.Text()); s != "" {
					txt = append(txt, s)
				}
			}
			fen, want, result := txt[0], txt[1:len(txt)-1], txt[len(txt)-1]
			if got := strings.Join(strings.Fields(rec.FEN)[:2], " "); got != fen {
				t.Errorf("FEN %q, want %q", got, fen)
			}
			if r, ok := results[result]; ok && rec.Tag("Result") != r {
				t.Errorf("Result %q, want %q (%s)", rec.Tag("Result"), r, result)
			}
			var got []string
			for i := range rec.Moves {
				got = append(got, string(rec.MoveText(i)))
			}
			if iccs := xqtest.ICCSOf(t, rec.FEN, want); !slices.Equal(got, iccs) {
				t.Fatalf("moves %v, want %v (%v)", got, iccs, want)
			}
		})
	}
}

// TestVariationLines checks the variation trees of walker8088's
// test_5_variations.xqf and game_varations.xqf: the lines of play its
// test_read_xqf.py expects, in any order.
func TestVariationLines(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		{"test_5_variations.xqf", []string{
			"炮二平五,炮８平５,马二进三,马８进７,兵三进一,车９平８",
			"炮二平五,炮８平５,马二进三,马８进７,车一平二,车９进１,车二进六,车９平４",
			"炮二平五,炮８平５,马二进三,马８进７,车一平二,卒７进１,兵七进一,车９进１",
			"炮二平五,炮８平５,马二进三,马８进７,车一进一,车９平８,车一平六,马２进３,马八进七,卒３进１",
			"炮二平六,马８进７,马二进三,车９平８,车一平二",
		}},
		{"game_varations.xqf", []string{
			"炮二平五,炮８平５,马二进三,马８进７,车一平二,车９进１,马八进七,马２进３",
			"炮二平五,炮８平５,马二进三,马８进７,车一平二,车９进１,兵三进一,卒３进１",
			"炮二平五,炮８平５,马二进三,马８进７,车一平二,车９进１,兵七进一,车９平４",
			"炮二平五,炮８平５,马二进三,马８进７,车一平二,车９进１,马八进九,马２进３",
			"炮二平五,马８进７,马二进三,卒７进１,车一平二,车９平８,兵七进一,马２进３",
			"炮二平五,马８进７,马二进三,卒７进１,车一平二,炮２平５,车二进六,马２进３",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			rec, err := parseFile(t, fixture(tt.file))
			if err != nil {
				t.Fatal(err)
			}
			var got, want []string
			for _, l := range lines(rec) {
				got = append(got, strings.Join(l, ","))
			}
			for _, w := range tt.want {
				want = append(want, strings.Join(xqtest.ICCSOf(t, rec.FEN, strings.Split(w, ",")), ","))
			}
			sort.Strings(got)
			sort.Strings(want)
			if !slices.Equal(got, want) {
				t.Errorf("lines\n got %q\nwant %q", got, want)
			}
		})
	}
}

// TestEdgeCaseFiles: walker8088's broken and empty files read without a
// panic; the empty ones give a record with no moves and no error.
func TestEdgeCaseFiles(t *testing.T) {
	tests := []struct {
		file  string
		moves int
	}{
		{"EmptyTest.xqf", 0}, {"NoMove.xqf", 0},
		{"BadMoveTest1.xqf", -1}, {"BadMoveTest2.xqf", -1}, {"BadMoveTest3.xqf", -1}, {"BadMoveTest4.xqf", -1},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			rec, err := parseFile(t, fixture(tt.file))
			if err != nil {
				t.Fatal(err) // their moves are illegal, not unreadable
			}
			if tt.moves >= 0 && len(rec.Moves) != tt.moves {
				t.Errorf("%d moves, want %d", len(rec.Moves), tt.moves)
			}
			if tt.moves < 0 && len(rec.Moves) == 0 {
				t.Error("no moves read")
			}
		})
	}
}

// TestSameGameAsPGN: eleeye's SAMPLE.XQF and SAMPLE.PGN hold the same
// handicap game: same start FEN, same moves, the same comments.
func TestSameGameAsPGN(t *testing.T) {
	rec, err := parseFile(t, fixture("eleeye-SAMPLE.XQF"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join("..", "testdata", "pgn", "eleeye-SAMPLE.gbk.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	pr := pgn.NewReader(bytes.NewReader(data), "SAMPLE.PGN")
	prec, err := pr.Next()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pr.Next(); err != io.EOF {
		t.Fatalf("second PGN record: %v", err)
	}
	if rec.FEN != prec.FEN {
		t.Errorf("XQF FEN %q, PGN FEN %q", rec.FEN, prec.FEN)
	}
	var moves, written []string
	for i := range rec.Moves {
		moves = append(moves, string(rec.MoveText(i)))
	}
	for i := range prec.Moves {
		written = append(written, string(prec.MoveText(i)))
	}
	if want := xqtest.ICCSOf(t, prec.FEN, written); !slices.Equal(moves, want) {
		t.Errorf("moves\n XQF %q\n PGN %q", moves, want)
	}
	count := func(r *record.Record) (n int) {
		for _, e := range r.Elements {
			if e.Kind == record.Comment {
				n++
			}
		}
		return n
	}
	if count(rec) != count(prec) || rec.Tag("Red") != prec.Tag("Red") || rec.Tag("Result") != prec.Tag("Result") {
		t.Errorf("comments %d/%d, Red %q/%q, Result %q/%q", count(rec), count(prec),
			rec.Tag("Red"), prec.Tag("Red"), rec.Tag("Result"), prec.Tag("Result"))
	}
}
