package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/index/clickhouse/chtest"
)

// exampleWant is what an example must do: exit with code (0 unless the
// example shows an error) and print something matching out (stdout and
// stderr together), besides writing well-formed outputs
// (checkExampleOutputs).
type exampleWant struct {
	code int
	out  string // a regular expression
}

// helpExampleWants holds every example line of every help text, as
// printed, with what it must do in the test's workspace (see
// examples_test.go). A help example without an entry here fails
// TestHelpExamples, and so does an entry no help text has.
var helpExampleWants = map[string]exampleWant{
	`xqdb book merge -o all.bin a.bin b.bin`:                                                                           {out: `all\.bin: polyglot book, \d+ entries from 2 books`},
	`xqdb book probe --book BOOK.DAT --moves "h2e2 h9g7"`:                                                              {out: `eleeye book: \d+ moves\n(?s:.*)\n马二进三 h0g2 `},
	`xqdb book probe --book performance.bin --fen "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" --json`: {out: `"uci":"c7c5"`},
	`xqdb book build --game chess -o masters.bin games.pgn`:                                                            {out: `masters\.bin: polyglot book, \d+ entries from 1424 games; 1 skipped`},
	`xqdb book build --db ./xqdb-data --query 'date:>="2000"' -o book.obk`:                                             {out: `book\.obk: obk book, \d+ entries from \d+ games`},
	`xqdb book probe --book masters.bin --moves "e4 c5"`:                                                               {out: `polyglot book: \d+ moves\n(?s:.*)\nNf3 +g1f3 `},
	`xqdb check --db games.xqdb`:                                                                                       {out: `4473 games`},
	`xqdb classify games.pgn > classified.pgn`:                                                                         {},
	`xqdb classify --json -o openings.jsonl archive/`:                                                                  {},
	`xqdb clean --out good.pgn --rejects bad.pgn --report report.jsonl archive/`:                                       {out: `files 2 \(0 unreadable\), games 3050: 3048 valid, 2 rejected \(1 empty\)`},
	`xqdb delete --source wrong-file.pgn && xqdb compact`:                                                              {out: `(?s)deleted 49 games from \./xqdb-data \(4424 left\).*compacted \./xqdb-data: 4424 games`},
	`xqdb convert --notation wxf -o games-wxf.pgn games/*.xqf`:                                                         {out: `converted 7 of 10 games \(3 rejected\) to games-wxf\.pgn`},
	`xqdb delete --dry-run --source wrong-file.pgn`:                                                                    {out: `would delete 49 games from \./xqdb-data \(4424 left\): 4425 4426 `},
	`xqdb delete 42 43`: {out: `deleted 2 games from \./xqdb-data \(4471 left\): 42 43\n`},
	`xqdb delete --query 'event:"Manhattan blitz" date:1971'`: {out: `deleted \d+ games from \./xqdb-data`},
	`xqdb demo`:                         {out: `(?s)4424 added.*Explore it: xqdb tree --db \./xqdb-demo`},
	`xqdb demo --db ~/xqdb-demo --json`: {out: `"command":"xqdb import --db [^"]*/xqdb-demo `},
	`xqdb export --moves "h2e2 h9g7" --query 'date:>="2000"' -o central-cannon.pgn`: {out: `exported \d+ games to central-cannon\.pgn`},
	`xqdb games --moves "h2e2 h9g7" --query 'black:"胡榮華"' --limit 5`:                {out: `^\d+ games\n.* – .*胡榮華`},
	`xqdb games --query 'white:fischer result:1-0' --sort -rating`:                  {out: `^\d+ games\n +\d+ +1972\.\?\?\.\?\? 1-0 +2722 +Fischer`},
	`xqdb games --query 'fischer -result:1/2-1/2 date:>=1970'`:                      {out: `^\d+ games\n +\d+ +19[79]\d`},
	`xqdb import --report rejects.jsonl games/`:                                     {out: `games 331: 10 added, 320 duplicates, 1 rejected`},
	`xqdb migrate --db ./xqdb-data`:                                                 {out: `already has schema version \d+: nothing to do`},
	`xqdb perft --depth 4`:                                                          {out: `nodes +3290240\n`},
	`xqdb perft --game chess --fen "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" --depth 3 --divide`: {out: `97862`},
	`xqdb position --moves "h2e2 h9g7" --json`:                                                           {out: `"fen":"rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w`},
	`xqdb position --moves "炮二平五 馬８進７ 馬二進三"`:                                                             {out: `rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b`},
	`xqdb reindex --db games.xqdb --metadata`:                                                            {out: `4473`},
	`xqdb selfplay --game xiangqi --games 100 --nodes 20000 --random-plies 4 --out games.pgn`:            {out: `selfplay: 2 xiangqi games`},
	`xqdb selfplay --game chess --games 20 --depth 6 --db ./xqdb-data --data chess.plain`:                {out: `(?s)\[Event "xqdb selfplay"\].*selfplay: 2 chess games`},
	`xqdb serve --db xqdb-demo --import-root ~/games`:                                                    {out: `serving xqdb-demo \(\d+ games\) at http://127\.0\.0\.1:\d+/`},
	`xqdb import --db xqdb-demo ~/games/new.pgn     # sent to the server`:                                {out: `games 20: 20 added`},
	`xqdb show 42 --notation wxf`:                                                                        {out: `(?s)\[Game "Chinese Chess"\].*1\. [A-Z+\-]`},
	`xqdb show 42 --json`:                                                                                {out: `"id":42`},
	`xqdb store copy --from xqdb-data --to clickhouse://127.0.0.1:8123/xqdb`:                             {out: `4473`},
	`xqdb tree --moves "h2e2 h9g7"`:                                                                      {out: `\n马二进三 h0g2 +\d+`},
	`xqdb tree --game chess --moves "e4 c5" --query 'white:fischer'`:                                     {out: `\nNf3 +g1f3 +\d+`},
	`xqdb twins --query 'alekhine' --limit 10`:                                                           {out: `^49 groups(?s:.*)\n +4425 +1923\.`},
	`xqdb delete 4425                # a wrong copy, by its id`:                                          {out: `deleted 1 games from \./xqdb-data \(4472 left\): 4425\n`},
	`printf 'uci\nsetoption name UCI_Variant value xiangqi\nposition startpos\ngo depth 6\n' | xqdb uci`: {out: `\ninfo depth 6 .*\nbestmove [a-i]\d+[a-i]\d+\n`},
}

// helpExamples returns the example lines of a command's help text.
func helpExamples(c *cli.Command) []string {
	_, ex, ok := strings.Cut(c.Description, "Example:\n")
	if !ok {
		return nil
	}
	var lines []string
	for _, l := range strings.Split(ex, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// TestHelpExamples runs every example of every help text as printed, in
// order, in the examples' workspace (examples_test.go) as built, for each
// command, changing only what exampleLimits documents (issue 14). Each
// must exit as helpExampleWants says, print what it says, and write
// well-formed outputs. The ClickHouse example runs on a server the test
// starts (skipped, with a message, without clickhouse-server; a failure
// under CI).
func TestHelpExamples(t *testing.T) {
	ws := examplesWorkspace(t)
	seen := map[string]bool{}
	eachCommand(func(path string, c *cli.Command) {
		lines := helpExamples(c)
		if len(lines) == 0 {
			return
		}
		for _, l := range lines {
			seen[l] = true
		}
		t.Run(strings.ReplaceAll(path, " ", "_"), func(t *testing.T) {
			sh := &shell{dir: ws.reset(t)}
			defer sh.stop(t)
			ch := map[string]string{}
			if slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "clickhouse://") }) {
				u := chtest.Start(t, 1, "xqdb")
				ch["clickhouse://127.0.0.1:8123/"] = strings.TrimSuffix(u, "xqdb")
			}
			for _, line := range lines {
				want, ok := helpExampleWants[line]
				if !ok {
					t.Errorf("help example %q has no entry in helpExampleWants", line)
				}
				runExample(t, sh, line, want, ch)
			}
		})
	})
	for line := range helpExampleWants {
		if !seen[line] {
			t.Errorf("helpExampleWants has %q, which no help text shows", line)
		}
	}
}

// runExample runs one example line in sh, checks it against want and
// returns what it printed (of a line run in the background, what it
// printed once it serves).
func runExample(t *testing.T, sh *shell, line string, want exampleWant, ch map[string]string) (stdout, stderr string) {
	t.Helper()
	run := exampleLimits(line, ch)
	if strings.HasPrefix(run, "exec xqdb serve") {
		out, errOut := sh.start(t, run)
		waitServing(t, out, errOut)
		stdout, stderr = readAll(out), readAll(errOut)
		if want.out != "" && !regexp.MustCompile(want.out).MatchString(stdout) {
			t.Errorf("%s: printed %q; want a match of %q", line, stdout, want.out)
		}
		return stdout, stderr
	}
	code, stdout, stderr, err := sh.run(run)
	switch {
	case err != nil:
		t.Errorf("%s: %v", line, err)
		return
	case code != want.code:
		t.Errorf("%s: exit %d, want %d: %.2000s", line, code, want.code, stderr)
		return
	case stdout == "" && stderr == "" && !strings.Contains(run, ">"):
		t.Errorf("%s: printed nothing", line)
	case want.out != "" && !regexp.MustCompile(want.out).MatchString(stdout+stderr):
		t.Errorf("%s: printed\n%.3000s\n%.1000s\nwant a match of %q", line, stdout, stderr, want.out)
	}
	for _, bad := range checkExampleOutputs(t, sh.dir, run, stdout) {
		t.Errorf("%s: %s", line, bad)
	}
	return stdout, stderr
}
