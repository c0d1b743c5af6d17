package xiangqi

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
)

// ccpdGame is one master game of the Chinese Chess Practical Dataset (CCPD,
// CC BY 4.0: Yu-Han Tseng and Bo-Nian Chen (2026). Chinese Chess Practical
// Dataset (CCPD)), as ccpd_unique_derived.tsv.gz gives it.
type ccpdGame struct {
	id, path, fen, tag string
	moves              []engine.Move
}

var (
	ccpdOnce  sync.Once
	ccpdGames []ccpdGame
	ccpdErr   error
)

// ccpdMasterGames returns the CCPD master games (first_path under
// 對局/大師對局) that the derivation replayed ("ok"), with their ICCS main
// lines parsed (not yet checked for legality).
func ccpdMasterGames(tb testing.TB) []ccpdGame {
	tb.Helper()
	path := enginetest.SharedData(tb, "xiangqi/ccpd/ccpd_unique_derived.tsv.gz")
	ccpdOnce.Do(func() { ccpdGames, ccpdErr = readCCPD(path) })
	if ccpdErr != nil {
		tb.Fatal(ccpdErr)
	}
	return ccpdGames
}

func readCCPD(path string) ([]ccpdGame, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	var out []ccpdGame
	for first := true; sc.Scan(); first = false {
		c := strings.Split(sc.Text(), "\t")
		if first || len(c) < 12 || !strings.HasPrefix(c[3], "Dataset/對局/大師對局/") || c[8] != "ok" {
			continue
		}
		g := ccpdGame{id: c[0], path: c[3], fen: c[4], tag: c[5]}
		for _, tok := range strings.Fields(c[11]) {
			m, ok := ParseICCSMove(tok)
			if !ok {
				break
			}
			g.moves = append(g.moves, m)
		}
		out = append(out, g)
	}
	return out, sc.Err()
}

// ccpdSummary is what the referee finds at the end of the master games.
type ccpdSummary struct {
	// ends counts the games whose last ply is decided, by status.
	ends map[engine.Status]int
	// contradicted counts the games whose Result tag contradicts a decided
	// end (mate, stalemate, perpetual check or chase: RULES X17).
	contradicted int
	// unfinished counts decided games tagged "*".
	unfinished int
	// drawnAgainstTag counts draws by rule (repetition, move limit,
	// material) at the last ply of games tagged as won: not contradictions,
	// since such draws are an arbiter's to apply (RULES X14–X16).
	drawnAgainstTag int
}

func summarizeCCPD(t *testing.T, games []ccpdGame, rules Rules) ccpdSummary {
	t.Helper()
	s := ccpdSummary{ends: map[engine.Status]int{}}
	for _, g := range games {
		p, err := ParseFEN(g.fen)
		if err != nil {
			t.Fatalf("game %s: %v", g.id, err)
		}
		ref := NewReferee(p, rules)
		for i, m := range g.moves {
			if !p.IsLegal(m) {
				t.Fatalf("game %s: move %d %s is not legal", g.id, i+1, ICCS(m))
			}
			ref.Play(m)
		}
		last := ref.Last()
		if !last.Decided() {
			continue
		}
		s.ends[last.Status]++
		tag, _ := engine.ParseResult(g.tag)
		switch {
		case tag == engine.NoResult:
			s.unfinished++
		case tag == last.Result:
		case last.Result == engine.Draw:
			s.drawnAgainstTag++
		default:
			s.contradicted++
		}
	}
	return s
}

// TestRefereeCCPDMasterGames runs the referee over the 27,508 CCPD master
// games (RULES X12–X17) under both profiles and pins what it finds at their
// last ply. Most contradictions are perpetual chases in games agreed drawn:
// the records stop where the rule would have forced the chaser to change.
func TestRefereeCCPDMasterGames(t *testing.T) {
	games := ccpdMasterGames(t)
	if len(games) != 27508 {
		t.Fatalf("%d master games, want 27508", len(games))
	}
	for _, tc := range []struct {
		rules Rules
		want  ccpdSummary
	}{
		{Rules{}, ccpdSummary{
			ends: map[engine.Status]int{engine.Checkmate: 326, engine.Stalemate: 2, engine.PerpetualCheck: 5,
				engine.PerpetualChase: 22, engine.Repetition: 455, engine.MoveLimit: 27},
			contradicted: 20, unfinished: 1, drawnAgainstTag: 8,
		}},
		{Rules{Profile: Asian}, ccpdSummary{
			ends: map[engine.Status]int{engine.Checkmate: 326, engine.Stalemate: 2, engine.PerpetualCheck: 12,
				engine.PerpetualChase: 47, engine.Repetition: 455, engine.MoveLimit: 27},
			contradicted: 44, unfinished: 1, drawnAgainstTag: 8,
		}},
	} {
		t.Run(tc.rules.Profile.String(), func(t *testing.T) {
			got := summarizeCCPD(t, games, tc.rules)
			t.Logf("decided ends %v; tag contradicts %d, tag unfinished %d, drawn by rule against the tag %d",
				got.ends, got.contradicted, got.unfinished, got.drawnAgainstTag)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// readFixtureRows returns the rows of a tab-separated fixture under
// testdata/referee, each with cols columns; '#' lines are comments.
func readFixtureRows(t *testing.T, name string, cols int) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "referee", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	var rows [][]string
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) != cols {
			t.Fatalf("%s: line has %d columns, want %d: %q", name, len(c), cols, line)
		}
		rows = append(rows, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// fixtureRuling replays a fixture game under the named profile and checks
// that its last ruling is want.
func fixtureRuling(t *testing.T, profile, fen, moves, want string) Ruling {
	t.Helper()
	pr, err := ParseProfile(profile)
	if err != nil {
		t.Fatal(err)
	}
	last := replay(t, fen, moves, Rules{Profile: pr}).Last()
	if got := refereeCaseVerdict(last); got != want {
		t.Fatalf("final ruling %v, want %s", last, want)
	}
	return last
}

// TestRefereeCCPDFixtures replays the hand-checked CCPD games of
// testdata/referee/ccpd_mismatches.tsv, whose Result tags contradict the
// referee's decided end (RULES X17), and checks that ruling.
func TestRefereeCCPDFixtures(t *testing.T) {
	rows := readFixtureRows(t, "ccpd_mismatches.tsv", 8)
	for _, c := range rows {
		id, profile, tagText, want, fen, moves := c[0], c[2], c[3], c[4], c[5], c[6]
		t.Run(id+"/"+profile, func(t *testing.T) {
			last := fixtureRuling(t, profile, fen, moves, want)
			if tag, ok := engine.ParseResult(tagText); !ok || tag == last.Result {
				t.Errorf("tag %s does not contradict the ruling %v", tagText, last)
			}
		})
	}
	if len(rows) < 5 {
		t.Errorf("%d fixtures, want at least 5", len(rows))
	}
}

// TestRefereeCCPDOneCheckOneChase replays the hand-checked CCPD games of
// testdata/referee/ccpd_one_check_one_chase.tsv, whose final ruling changed
// when RULES X13 made "one check, one chase" a chase violation and the vn
// allowance came to count checks and chases together, met by the latest
// moves alone: each gives its new ruling, which differs from the one it
// gave before.
func TestRefereeCCPDOneCheckOneChase(t *testing.T) {
	rows := readFixtureRows(t, "ccpd_one_check_one_chase.tsv", 9)
	for _, c := range rows {
		id, profile, before, want, fen, moves := c[0], c[2], c[4], c[5], c[6], c[7]
		t.Run(id+"/"+profile, func(t *testing.T) {
			if before == want {
				t.Fatalf("ruling %s did not change", want)
			}
			fixtureRuling(t, profile, fen, moves, want)
		})
	}
	if len(rows) < 5 {
		t.Errorf("%d fixtures, want at least 5", len(rows))
	}
}
