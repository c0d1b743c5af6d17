package cbl_test

import (
	"archive/tar"
	"bytes"
	"errors"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/importer"
	"github.com/xqdb/xqdb/importer/cbl"
	"github.com/xqdb/xqdb/importer/internal/xqtest"
	"github.com/xqdb/xqdb/importer/record"
	"github.com/xqdb/xqdb/replay"
)

// libraryRead is what reading one library gave.
type libraryRead struct {
	games    []*record.Record
	sections []string // titles of the records reported as not games
	other    []error  // any other error
}

func readLibrary(t *testing.T, cr *cbl.Reader, name string) libraryRead {
	t.Helper()
	var out libraryRead
	for {
		rec, err := cr.Next()
		if err == io.EOF {
			return out
		}
		switch {
		case err == nil:
			out.games = append(out.games, rec)
		case errors.Is(err, record.ErrNotAGame):
			out.sections = append(out.sections, err.Error())
		default:
			out.other = append(out.other, err)
			if rec != nil {
				out.games = append(out.games, rec)
			}
			var pe *record.ParseError
			if !errors.As(err, &pe) {
				return out
			}
		}
	}
}

// replayAll replays every game (main line and variations) and returns
// each failure, which names file, game, ply, move and reason.
func replayAll(t *testing.T, games []*record.Record) (plies, variations int, problems []string) {
	t.Helper()
	var rp replay.Replayer
	var g replay.Game
	for _, rec := range games {
		if err := rp.Replay(rec, &g); err != nil {
			problems = append(problems, err.Error())
			continue
		}
		plies += len(g.Moves)
		for _, e := range rec.Elements {
			if e.Kind == record.VariationStart {
				variations++
			}
		}
		for _, ve := range g.VariationErrors {
			problems = append(problems, "variation: "+ve.Error())
		}
	}
	return plies, variations, problems
}

// titled matches the titles the two test libraries give their games,
// "初赛 保定邓裕如(红先负)哈尔滨王嘉良" and "第一轮 徐天红 先和 徐天利":
// Red, Red's result, Black.
var titled = regexp.MustCompile(`^(?:\S+ )?(\S+?) ?[(（]?红?先([胜负和])[)）]? ?(\S+)$`)

// disagree are the games whose title and fields disagree in the library
// itself: 1956 game 30 is titled a loss and stored a draw; 1989 game 6
// is titled 徐天利's and stored with 徐天红 as Red.
var disagree = map[string]bool{
	"xiangqi/samples/walker8088-tests/1956年全国象棋锦标赛93局.CBL#30":   true,
	"xiangqi/samples/walker8088-tests/1989年龙化杯象棋名师邀请赛35局.CBL#6": true,
}

// resultOf maps a title's 胜/负/和 (Red's result) to the PGN result.
var resultOf = map[string]string{"胜": "1-0", "负": "0-1", "和": "1/2-1/2"}

// TestSharedLibraries reads the CCBridge files of ../shared/data: the two
// libraries of walker8088's tests and the three of its game archive that
// start with the library magic. It pins the games and section titles of
// each, the players of the first and last game, and replays every game,
// variations included.
func TestSharedLibraries(t *testing.T) {
	tests := []struct {
		path            string
		games, sections int
		firstTitle      string
		firstSection    string
	}{
		{"xiangqi/samples/walker8088-tests/1956年全国象棋锦标赛93局.CBL", 93, 0,
			"初赛 保定邓裕如(红先负)哈尔滨王嘉良", ""},
		// 35 games, two section titles, and a second copy of the last game
		// (index state 5, title indented otherwise): 36 game records.
		{"xiangqi/samples/walker8088-tests/1989年龙化杯象棋名师邀请赛35局.CBL", 36, 2,
			"第一轮 徐天红 先和 徐天利", "龙化杯象棋名师邀请赛对局（男子组20局）"},
	}
	for _, tt := range tests {
		t.Run(tt.path[strings.LastIndexByte(tt.path, '/')+1:], func(t *testing.T) {
			f, err := os.Open(enginetest.SharedData(t, tt.path))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got := readLibrary(t, cbl.NewReader(f, tt.path), tt.path)
			for _, err := range got.other {
				t.Errorf("%v", err)
			}
			if len(got.games) != tt.games || len(got.sections) != tt.sections {
				t.Fatalf("%d games, %d section titles; want %d and %d", len(got.games), len(got.sections), tt.games, tt.sections)
			}
			if got := got.games[0].Tag("Title"); got != tt.firstTitle {
				t.Errorf("first title %q, want %q", got, tt.firstTitle)
			}
			if tt.sections > 0 && !strings.Contains(got.sections[0], tt.firstSection) {
				t.Errorf("first section %q, want %q", got.sections[0], tt.firstSection)
			}
			// Every title names the players and Red's result: the fields
			// must say the same (the 1956 titles prefix the city, as the
			// player fields do).
			for _, rec := range got.games {
				if disagree[rec.Source.File+"#"+strconv.Itoa(rec.Source.Game)] {
					continue
				}
				m := titled.FindStringSubmatch(rec.Tag("Title"))
				if m == nil {
					t.Errorf("game %d: title %q", rec.Source.Game, rec.Tag("Title"))
					continue
				}
				if rec.Tag("Red") != m[1] || rec.Tag("Black") != m[3] || rec.Tag("Result") != resultOf[m[2]] {
					t.Errorf("game %d %q: Red %q, Black %q, Result %q", rec.Source.Game, m[0], rec.Tag("Red"), rec.Tag("Black"), rec.Tag("Result"))
				}
			}
			plies, vars, problems := replayAll(t, got.games)
			for _, p := range problems {
				t.Errorf("%s", p)
			}
			t.Logf("%d games, %d plies, %d variations, %d section titles", len(got.games), plies, vars, len(got.sections))
		})
	}
}

// TestArchiveLibraries reads the .CBL members of walker8088's game
// archive: three libraries, and one file of an older CCBridge version
// (zlib-compressed, GBK) that is not read and says why.
func TestArchiveLibraries(t *testing.T) {
	tr := tar.NewReader(xqtest.OpenShared(t, "xiangqi/walker8088-games/walker8088-cchess-games-2f4782f.tar.gz"))
	want := map[string]struct {
		games, sections int
		problems        []string // replay failures, real defects of the data
	}{
		"games/古谱/专辑何顺安.CBL": {13, 0, nil},
		"games/古谱/专辑林兴荣.CBL": {14, 0, nil},
		"games/残局谱/象棋实用残局/残局全书.CBL": {764, 20, []string{
			// Two diagrams without moves (header-only games).
			"games/残局谱/象棋实用残局/残局全书.CBL: game 159: no moves",
			"games/残局谱/象棋实用残局/残局全书.CBL: game 175: no moves",
			// A composed position whose Red, to move, is already mated.
			`games/残局谱/象棋实用残局/残局全书.CBL: game 362: ply 1 "h8h9": move after the end of the game: checkmate at ply 0`,
			`variation: games/残局谱/象棋实用残局/残局全书.CBL: game 779: in a variation: ply 8 "f9e8": xiangqi: "f9e8": leaves the general in check: illegal move`,
		}},
		"games/残局谱/象棋实用残局/残局的生死棋型.CBL": {-1, -1, nil},
	}
	seen := 0
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(strings.ToLower(h.Name), ".cbl") {
			continue
		}
		seen++
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		w, ok := want[h.Name]
		if !ok {
			t.Errorf("unexpected library %s", h.Name)
			continue
		}
		if w.games < 0 {
			r := importer.NewReader(bytes.NewReader(data), h.Name)
			_, err := r.Next()
			var ue *importer.UnreadableError
			if !errors.As(err, &ue) || !errors.Is(err, importer.ErrUnsupportedFormat) {
				t.Errorf("%s: %v, want an unreadable, unsupported format", h.Name, err)
			}
			continue
		}
		got := readLibrary(t, cbl.NewReader(bytes.NewReader(data), h.Name), h.Name)
		for _, err := range got.other {
			t.Errorf("%v", err)
		}
		if len(got.games) != w.games || len(got.sections) != w.sections {
			t.Errorf("%s: %d games, %d section titles; want %d and %d", h.Name, len(got.games), len(got.sections), w.games, w.sections)
		}
		plies, vars, problems := replayAll(t, got.games)
		if strings.Join(problems, "\n") != strings.Join(w.problems, "\n") {
			t.Errorf("%s: replay problems\n%s\nwant\n%s", h.Name, strings.Join(problems, "\n"), strings.Join(w.problems, "\n"))
		}
		t.Logf("%s: %d games, %d plies, %d variations, %d section titles", h.Name, len(got.games), plies, vars, len(got.sections))
	}
	if seen != len(want) {
		t.Errorf("%d .CBL members, want %d", seen, len(want))
	}
}
