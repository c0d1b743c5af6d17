package importer_test

import (
	"archive/tar"
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"path"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/importer"
	"github.com/xqdb/xqdb/importer/internal/xqtest"
)

// eachMember calls fn with a reader of every regular file of a tar.gz.
func eachMember(t *testing.T, rel string, fn func(name string, r *importer.Reader)) {
	t.Helper()
	tr := tar.NewReader(xqtest.OpenShared(t, rel))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			fn(h.Name, importer.NewReader(tr, h.Name))
		}
	}
}

// TestCCPDOriginals reads the CCPD tar as xqdb reads an archive
// (importer.Open, members as files): 58,468 Big5 files of one game each,
// every one read as one Xiangqi record in Big5 with its 12 tags, named
// "archive!member".
func TestCCPDOriginals(t *testing.T) {
	file := enginetest.SharedData(t, "xiangqi/ccpd/CCPD-Dataset-368a47a.tar.gz")
	r, err := importer.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var records int
	files := map[string]bool{}
	results := map[string]int{}
	for rec, err := range r.All() {
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		name, ok := strings.CutPrefix(rec.Source.File, file+"!")
		if !ok || !strings.HasSuffix(name, ".pgn") || rec.Source.Game != 1 {
			t.Errorf("record %d of %q", rec.Source.Game, rec.Source.File)
		}
		files[name] = true
		records++
		if rec.Encoding != "big5" || rec.Game != engine.Xiangqi || len(rec.Tags) != 12 || rec.FEN == "" {
			t.Errorf("%s: encoding %s game %v, %d tags, FEN %q", name, rec.Encoding, rec.Game, len(rec.Tags), rec.FEN)
		}
		results[rec.Tag("Result")]++
	}
	if len(files) != 58468 || records != 58468 {
		t.Errorf("%d files, %d records; want 58,468 of each", len(files), records)
	}
	// Shared SOURCES.md: 1-0 23,044; 1/2-1/2 18,398; 0-1 15,985; * 1,041.
	if results["1-0"] != 23044 || results["1/2-1/2"] != 18398 || results["0-1"] != 15985 || results["*"] != 1041 {
		t.Errorf("results %v", results)
	}
}

// pgnDerived is a row of pgn_derived.jsonl.gz.
type pgnDerived struct {
	Path   string `json:"path"`
	Game   int    `json:"game"`
	Plies  int    `json:"plies"`
	Result string `json:"result"`
	FEN    string `json:"fen"`
	Moves  string `json:"moves"`
}

// TestWalkerArchive streams the whole walker8088 archive through
// importer.NewReader: 26,150 XQF files (checked in detail in package
// xqf), 7,942 GBK PGN games compared move by move with the oracle, the
// CCBridge libraries read (one of an older version and the 象棋魔法师
// files reported unsupported), and of the 74 notes
// (.txt) only the five that hold games giving records.
func TestWalkerArchive(t *testing.T) {
	oracle := map[string]pgnDerived{}
	sc := bufio.NewScanner(xqtest.OpenShared(t, "xiangqi/walker8088-games/pgn_derived.jsonl.gz"))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var d pgnDerived
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		oracle[d.Path] = d
	}
	formats := map[string]int{}
	var pgnGames, pgnTokens, unsupported, noGames, txtRecords, sections int
	eachMember(t, "xiangqi/walker8088-games/walker8088-cchess-games-2f4782f.tar.gz", func(name string, r *importer.Reader) {
		ext := strings.ToLower(path.Ext(name))
		n := 0
		for rec, err := range r.All() {
			var pe *importer.ParseError
			if errors.Is(err, importer.ErrUnsupportedFormat) {
				unsupported++
				continue
			}
			if errors.Is(err, importer.ErrNoGames) && ext == ".txt" {
				noGames++
				continue
			}
			if errors.Is(err, importer.ErrNotAGame) && ext == ".cbl" {
				sections++
				continue
			}
			if err != nil && !errors.As(err, &pe) || err != nil && rec == nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			n++
			formats[rec.Format]++
			switch ext {
			case ".txt":
				txtRecords++
			case ".pgn":
				d, ok := oracle[strings.TrimPrefix(name, "games/")]
				if !ok || n > 1 {
					t.Errorf("%s: record %d not in the oracle", name, n)
					continue
				}
				pgnGames++
				if err != nil || rec.Encoding != "gbk" || rec.Result != d.Result || len(rec.Moves) != d.Plies {
					t.Errorf("%s: err %v, encoding %s, result %q/%q, %d/%d moves", name, err, rec.Encoding, rec.Result, d.Result, len(rec.Moves), d.Plies)
					continue
				}
				pgnTokens += xqtest.CheckChinese(t, rec, d.FEN, strings.Fields(d.Moves))
			}
		}
	})
	// Four XQF files have no extension (李来群专集/085 …, 093 …): found by
	// their magic. Five .txt files hold header-less games in Chinese
	// text: 2001年象棋排位赛（文本版本）/象棋排位赛01a, 01b, 02, 03 (16, 40,
	// 27 and 37 games, "1. 炮二平五  马８进７ …" after a line naming the
	// players) and 035有谱无图局.txt (one annotated line); the 69 others
	// are prose and say "no game found".
	// Three CCBridge libraries give 13, 14 and 764 games and 20 section
	// titles; the fourth .CBL is of an older, compressed version.
	if formats["xqf"] != 26150+4 || pgnGames != 7942 || unsupported != 1+48 || txtRecords != 16+40+27+37+1 || noGames != 69 ||
		formats["cbl"] != 13+14+764 || sections != 20 {
		t.Errorf("formats %v, PGN games %d, unsupported %d, records in .txt files %d, .txt without a game %d, section titles %d; want 26,154 XQF, 7,942 PGN, 791 CCBridge, 49 unsupported, 121, 69, 20",
			formats, pgnGames, unsupported, txtRecords, noGames, sections)
	}
	// Every move token of the 7,942 GBK PGN games reads as the oracle's move.
	if pgnTokens != 1078032 {
		t.Errorf("%d PGN move tokens matched the oracle, want 1,078,032", pgnTokens)
	}
}

// TestSharedArchivesReadAsArchives opens the two shared tarballs as xqdb
// reads them (importer.Open: members as files, "archive!member"; CCPD's
// in TestCCPDOriginals): walker8088's 26,154 XQF files (four without an
// extension, found by their magic), 7,942 PGN games and 121 records of
// .txt notes, the 791 games of three CCBridge libraries (and their 20
// section titles, which are not games), and 118 unreadable members: 48
// .mxq and one .CBL of an older, compressed CCBridge version (formats
// xqdb does not read) and 69 prose notes without a game.
func TestSharedArchivesReadAsArchives(t *testing.T) {
	tests := []struct {
		rel         string
		formats     map[string]int
		unsupported int
		noGames     int
		sections    int
	}{
		{"xiangqi/walker8088-games/walker8088-cchess-games-2f4782f.tar.gz", map[string]int{"xqf": 26154, "pgn": 7942 + 121, "cbl": 13 + 14 + 764}, 1 + 48, 69, 20},
	}
	for _, tt := range tests {
		t.Run(path.Base(tt.rel), func(t *testing.T) {
			file := enginetest.SharedData(t, tt.rel)
			r, err := importer.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			r.ReuseRecord = true
			formats := map[string]int{}
			var unsupported, noGames, sections int
			for rec, err := range r.All() {
				switch {
				case errors.Is(err, importer.ErrUnsupportedFormat):
					unsupported++
				case errors.Is(err, importer.ErrNotAGame):
					sections++
				case errors.Is(err, importer.ErrNoGames):
					noGames++
				case rec == nil:
					t.Errorf("%v", err)
				default:
					if !strings.HasPrefix(rec.Source.File, file+"!") {
						t.Errorf("record of %q", rec.Source.File)
					}
					formats[rec.Format]++
				}
			}
			if !maps.Equal(formats, tt.formats) || unsupported != tt.unsupported || noGames != tt.noGames || sections != tt.sections {
				t.Errorf("records %v, %d unsupported, %d without a game, %d section titles; want %v, %d, %d, %d",
					formats, unsupported, noGames, sections, tt.formats, tt.unsupported, tt.noGames, tt.sections)
			}
		})
	}
}
