package replay

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/importer"
)

// tally replays every record a reader yields and sorts the outcomes.
type tally struct {
	valid, plies int
	nulls        int // valid records with a null move
	kinds        map[string]int
	errs         []*GameError
	hashes       map[[16]byte]bool
}

func newTally() *tally { return &tally{kinds: map[string]int{}, hashes: map[[16]byte]bool{}} }

// eachTarFile calls fn with every member of a gzip'd tar of the shared
// data folder.
func eachTarFile(t *testing.T, rel string, fn func(name string, r io.Reader)) {
	t.Helper()
	f, err := os.Open(enginetest.SharedData(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		fn(h.Name, tr)
	}
}

// tallyFiles replays every record of the files.
func tallyFiles(t *testing.T, files []string) *tally {
	t.Helper()
	tl := newTally()
	for _, f := range files {
		r, err := importer.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		tl.read(t, r)
		r.Close()
	}
	return tl
}

func (t *tally) read(tb testing.TB, r *importer.Reader) {
	tb.Helper()
	r.ReuseRecord = true
	var rp Replayer
	var g Game
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return
		}
		if rec == nil {
			t.kinds["unreadable"]++
			continue
		}
		if err := rp.Replay(rec, &g); err != nil {
			t.kinds[Kind(err)]++
			var ge *GameError
			if errors.As(err, &ge) {
				t.errs = append(t.errs, ge)
			}
			continue
		}
		t.valid++
		if slices.Contains(g.Moves, engine.NullMove) {
			t.nulls++
		}
		t.plies += len(g.Moves)
		t.hashes[Hash(&g)] = true
	}
}

// TestReplayWalker8088 replays the XQStudio archive (shared/data/xiangqi/
// walker8088-games): the XQF main lines and the GBK PGN games, with the
// counts of the independent replay in its SOURCES.md.
func TestReplayWalker8088(t *testing.T) {
	xqf, pgn := newTally(), newTally()
	eachTarFile(t, "xiangqi/walker8088-games/walker8088-cchess-games-2f4782f.tar.gz", func(name string, r io.Reader) {
		lower := strings.ToLower(name)
		switch {
		case strings.HasSuffix(lower, ".xqf"):
			xqf.read(t, importer.NewReader(r, name))
		case strings.HasSuffix(lower, ".pgn") && strings.Contains(name, "已转换"):
			pgn.read(t, importer.NewReader(r, name))
		}
	})
	emptySquare := 0
	for _, e := range xqf.errs {
		if Kind(e) == "illegal" && strings.Contains(e.Error(), "no piece") {
			emptySquare++
		}
	}
	// SOURCES: 26,068 legal, 27 illegal, 3 moves from an empty square, 52
	// without moves (26,150 files).
	if xqf.valid != 26068 || xqf.kinds["illegal"] != 30 || emptySquare != 3 || xqf.kinds["empty"] != 52 || len(xqf.kinds) != 2 {
		t.Errorf("XQF: %d valid, kinds %v (%d from an empty square); want 26068 valid, 30 illegal (3 from an empty square), 52 empty",
			xqf.valid, xqf.kinds, emptySquare)
	}
	if pgn.valid != 7942 || len(pgn.kinds) != 0 {
		t.Errorf("GBK PGN: %d valid, rejected %v; want all 7942 valid", pgn.valid, pgn.kinds)
	}
}

// TestReplayCCPDUnique replays all 31,082 unique CCPD records: the 12 bad
// records SOURCES.md lists, the 3 records without moves, and 2 set-up
// positions whose pieces stand where they never can (ParseFEN's placement
// rule, RULES X3–X4) are rejected; everything else is valid. The three
// computer games SOURCES calls "illegal general moves" go on after their
// general was mated (RULES X12): after_end.
func TestReplayCCPDUnique(t *testing.T) {
	r, err := importer.Open(enginetest.SharedData(t, "xiangqi/ccpd/ccpd_unique.utf8.pgn.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tl := newTally()
	tl.read(t, r)
	var got []string
	for _, e := range tl.errs {
		got = append(got, strings.Join([]string{itoa(e.Game), Kind(e), itoa(e.Ply)}, ":"))
	}
	want := []string{"690:empty:0", "691:empty:0", "1218:bad_fen:0", "1294:illegal:18", "1799:illegal:19", "4039:empty:0",
		"21856:illegal:70", "29902:after_end:115", "29910:after_end:72", "29938:after_end:72",
		"30364:bad_fen:0", "30396:bad_fen:0", "30503:bad_fen:0", "30522:bad_fen:0", "30536:bad_fen:0",
		"30538:bad_fen:0", "30602:bad_fen:0"}
	if tl.valid != 31065 || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("%d valid; rejected %v\nwant 31065 valid; rejected %v", tl.valid, got, want)
	}
}

// TestReplayPGNMentor replays the 164,103 master games of the chess corpus:
// one is illegal (Gelfand–Gareev 2019, 31.Qxe1) and the valid ones hold
// 136,756 distinct games (pgn-extract -D keeps 136,756).
func TestReplayPGNMentor(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(enginetest.SharedData(t, "chess/pgnmentor-players"), "*.pgn.gz"))
	if err != nil || len(files) != 107 {
		t.Fatalf("%d files, %v", len(files), err)
	}
	tl := tallyFiles(t, files)
	if tl.valid != 164102 || len(tl.errs) != 1 || tl.errs[0].Move != "Qxe1" || !strings.HasSuffix(tl.errs[0].File, "Gelfand.pgn.gz") {
		t.Fatalf("%d valid, errors %v; want 164102 and Gelfand's Qxe1", tl.valid, tl.errs)
	}
	if len(tl.hashes) != 136756 {
		t.Errorf("%d distinct games, want 136756", len(tl.hashes))
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// TestReplayChessDBOddities replays chess_db-pgn, 27 old web collections
// its author used to harden his parser (shared SOURCES.md). python-chess
// flags 17 games; we reject 10 main lines for illegal or ambiguous SAN
// (ambiguous.pgn, chessdoctor ×4, europe_echecs, immortal_games ×4), 8 for
// (and 5 records without moves; the 8 with null moves, "--", which
// pgn-extract reads with --allownullmoves, are valid). hayes, human_computer
// and perle are flagged by python-chess for moves inside variations:
// xqdb replays main lines and keeps variations as text.
func TestReplayChessDBOddities(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(enginetest.SharedData(t, "chess/chess_db-pgn"), "*.pgn*"))
	if err != nil || len(files) != 27 {
		t.Fatalf("%d files, %v", len(files), err)
	}
	tl := tallyFiles(t, files)
	want := map[string]int{"ambiguous": 6, "illegal": 4, "empty": 5}
	if tl.valid != 2563 || fmt.Sprint(tl.kinds) != fmt.Sprint(want) || tl.nulls != 8 {
		t.Errorf("%d valid, rejected %v (%d with null moves); want 2563 valid, %v, 8 with null moves", tl.valid, tl.kinds, tl.nulls, want)
	}
}

// TestReplayNullMoveRecordsOfSharedData: the 16 records of the shared
// data with "--" null moves (8 in chess_db's middleg.pgn, 2 in each of
// pgn-extract's odds and allownullmoves inputs and outputs) and the one
// with ChessBase's "Z0" (python-chess's anastasian-lewis.pgn) are valid.
func TestReplayNullMoveRecordsOfSharedData(t *testing.T) {
	var files []string
	for _, rel := range []string{"chess/chess_db-pgn/middleg.pgn.gz", "chess/pgn-extract/infiles/odds.pgn",
		"chess/pgn-extract/infiles/test-allownullmoves.pgn", "chess/pgn-extract/outfiles/odds-out.pgn",
		"chess/pgn-extract/outfiles/test-allownullmoves-out.pgn", "chess/python-chess/pgn/anastasian-lewis.pgn"} {
		files = append(files, enginetest.SharedData(t, rel))
	}
	tl := tallyFiles(t, files)
	for _, e := range tl.errs {
		if engine.IsNullToken([]byte(e.Move)) {
			t.Errorf("null move rejected: %v", e)
		}
	}
	if tl.nulls != 17 {
		t.Errorf("%d valid records with null moves, want 17 (rejected: %v)", tl.nulls, tl.kinds)
	}
}

// TestReplayPGNReadErrorSuite replays pgn-read's error suite (57 small
// files built to break parsers: Tim Harding's non-compliant tutorial and
// its corrections, web pages, engine logs). Nothing may be lost or crash:
// every record is either valid or rejected with a reason. The counts pin
// today's reading (python-chess counts 115 games with 51 errors because it
// splits some records differently; see the shared SOURCES.md).
func TestReplayPGNReadErrorSuite(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(enginetest.SharedData(t, "chess/pgn-read"), "*.pgn"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%d files, %v", len(files), err)
	}
	tl := tallyFiles(t, files)
	rejected := 0
	for _, n := range tl.kinds {
		rejected += n
	}
	for _, e := range tl.errs {
		if e.Reason() == "" || e.File == "" || e.Game == 0 {
			t.Errorf("rejection without a place or reason: %+v", e)
		}
	}
	if tl.valid+rejected != 77 || tl.valid != 40 {
		t.Errorf("%d valid, rejected %v; want 40 of 77", tl.valid, tl.kinds)
	}
}

// TestReplayCCPDBig5Originals replays CCPD's 58,468 original files (one
// Big5 record each, the same game often filed under player, event and
// opening): decoded from Big5, they hold exactly the valid games of the
// UTF-8 unique file.
func TestReplayCCPDBig5Originals(t *testing.T) {
	orig := newTally()
	files := 0
	eachTarFile(t, "xiangqi/ccpd/CCPD-Dataset-368a47a.tar.gz", func(name string, r io.Reader) {
		if strings.HasSuffix(strings.ToLower(name), ".pgn") {
			files++
			orig.read(t, importer.NewReader(r, name))
		}
	})
	r, err := importer.Open(enginetest.SharedData(t, "xiangqi/ccpd/ccpd_unique.utf8.pgn.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	uniq := newTally()
	uniq.read(t, r)
	if files != 58468 || len(orig.hashes) != len(uniq.hashes) || orig.kinds["unreadable"] != 0 {
		t.Fatalf("%d files: %d distinct valid games (kinds %v); the unique file has %d", files, len(orig.hashes), orig.kinds, len(uniq.hashes))
	}
	for h := range uniq.hashes {
		if !orig.hashes[h] {
			t.Fatal("a game of the unique file is missing from the originals")
		}
	}
}
