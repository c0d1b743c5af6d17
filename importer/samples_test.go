package importer_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/importer"
)

// TestWalkerTestFolder walks walker8088's tests/data copy: every XQF file
// reads without error (the BadMoveTest files hold illegal moves, which
// replay rejects, not unreadable ones); lines of play (variations + 1)
// are those walker's test_read_xqf.py counts where it counts them
// (WildHouse 139, test_5_variations 5, game_varations 6, game_test 1);
// the CCBridge libraries and records are read (93 and 36 games, 2
// section titles; test.cbr and test2.cbr one game each) and its XML
// .cbf records are reported unsupported.
func TestWalkerTestFolder(t *testing.T) {
	dir := enginetest.SharedData(t, "xiangqi/samples/walker8088-tests")
	type summary struct{ moves, lines int }
	want := map[string]summary{
		"030-黄松轩先胜冯敬如.XQF": {37, 2}, "BadMoveTest1.xqf": {43, 1}, "BadMoveTest2.xqf": {35, 2},
		"BadMoveTest3.xqf": {10, 4}, "BadMoveTest4.xqf": {9, 4}, "EmptyTest.xqf": {0, 1},
		"FiveGoatsTest.xqf": {77, 349}, "NoMove.xqf": {0, 1}, "UnitTest.xqf": {5, 3},
		"WildHouse.xqf": {65, 139}, "game_test.xqf": {58, 1}, "game_varations.xqf": {8, 6},
		"pawn_move.xqf": {14, 1}, "save.xqf": {2, 1}, "test.xqf": {110, 1}, "test1.xqf": {110, 1},
		"test2.xqf": {12, 1}, "test_5_variations.xqf": {6, 5}, "ucci_test1.xqf": {43, 1},
		"ucci_test2.xqf": {7, 5}, "ucci_test3.xqf": {3, 2},
	}
	got := map[string]summary{}
	var unsupported, noGames, pgnRecords, cblRecords, sections int
	err := importer.Walk([]string{dir}, func(rec *importer.Record, err error) error {
		if errors.Is(err, importer.ErrUnsupportedFormat) {
			unsupported++
			return nil
		}
		if errors.Is(err, importer.ErrNotAGame) {
			sections++
			return nil
		}
		if errors.Is(err, importer.ErrNoGames) {
			noGames++
			return nil
		}
		if err != nil {
			return fmt.Errorf("%v", err)
		}
		if rec.Format == importer.FormatPGN {
			pgnRecords++
			return nil
		}
		if rec.Format == importer.FormatCBL {
			cblRecords++
			return nil
		}
		lines := 1
		for _, e := range rec.Elements {
			if e.Kind == importer.VariationStart {
				lines++
			}
		}
		got[filepath.Base(rec.Source.File)] = summary{len(rec.Moves), lines}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for f, w := range want {
		if got[f] != w {
			t.Errorf("%s: %d moves, %d lines; want %d, %d", f, got[f].moves, got[f].lines, w.moves, w.lines)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d XQF files read, want %d", len(got), len(want))
	}
	// Two .cbf records; four PGN files give one game each, and of the
	// three move lists (.txt) the two Chinese ones read as header-less
	// games (uci_test_move.txt, a FEN and an ICCS line for walker's engine
	// test, says it holds no game).
	if unsupported != 2 || pgnRecords != 4+2 || noGames != 1 || cblRecords != 93+36+2 || sections != 2 {
		t.Errorf("%d unsupported files, %d PGN records, %d without a game, %d CCBridge games, %d section titles; want 2, 6, 1, 131 and 2",
			unsupported, pgnRecords, noGames, cblRecords, sections)
	}
}
