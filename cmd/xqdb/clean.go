package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/importer"
	"github.com/xqdb/xqdb/importer/pgn"
	"github.com/xqdb/xqdb/importer/textenc"
	"github.com/xqdb/xqdb/replay"
)

var cleanCommand = &cli.Command{
	Name:      "clean",
	Usage:     "replay every game of archives through the rules; keep the legal ones, report the rest",
	ArgsUsage: "PATH...",
	Description: `Reads PGN, XQF, DhtmlXQ and CCBridge (.cbl, .cbr) files (folders are searched recursively; .gz is
read transparently; GBK, Big5 and legacy Latin encodings are detected and
converted, XQF text is GBK as its format says; --encoding names the encoding
of files that are not what detection thinks),
replays every game move by move, and sorts them:

  --out       valid games, as UTF-8 PGN, in their own notation (or --notation)
  --rejects   rejected records, byte for byte as they were, each after a
              comment saying why
  --report    one JSON line per rejected or duplicate game:
              {"file","game","offset","line","ply","move","kind","reason"}
              kind: unreadable (a file or archive member that gave no
              game: empty, garbage, a format xqdb does not read, an
              archive that cannot be read; counted apart from games), parse, read (the file ends early: a truncated or
              corrupt archive or XQF file; the game cut off is named), illegal,
              ambiguous, bad_fen, empty, after_end
              (moves after mate or stalemate), duplicate (with
              "duplicate_of"), result_mismatch (the Result tag contradicts
              a mate, stalemate, automatic draw or decisive ruling at the
              last ply; the game is kept unless --strict-results),
              variation (an illegal or unreadable move in a variation:
              it cuts that variation only; the game is kept), not_a_game
              (a record that its format says is no game: the section
              titles of a CCBridge library; counted apart from games)

The summary counts games = valid + rejected + duplicates (empty games are
rejected games, also counted apart). Output order is input order whatever
--jobs is. The exit code is 0 even when games were rejected (the report
says so) unless --strict.

Example:
   xqdb clean --out good.pgn --rejects bad.pgn --report report.jsonl archive/`,
	Flags: append([]cli.Flag{
		&cli.StringFlag{Name: "game", Aliases: []string{"g"}, Value: "auto", Usage: "auto, xiangqi or chess"},
		&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "write valid games here (PGN)"},
		&cli.StringFlag{Name: "rejects", Usage: "write rejected records here, verbatim"},
		&cli.StringFlag{Name: "report", Usage: "write a JSON line per rejected or duplicate game here"},
		&cli.BoolFlag{Name: "dedupe", Usage: "drop repeats of a game already seen (same start, same moves)"},
		&cli.BoolFlag{Name: "keep-broken", Usage: "keep the legal prefix of a broken game in --out, cut before the error"},
		notationFlag,
		fromFlag,
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), DefaultText: "the number of cores", Usage: "replay on this many workers"},
		&cli.BoolFlag{Name: "strict", Usage: "exit 1 when any game was rejected"},
		encodingFlag,
		strictResultsFlag,
		progressFlag,
		jsonFlag,
	}, rulesFlags...),
	Action: runClean,
}

// cleanSummary is the --json output of clean.
type cleanSummary struct {
	Files int `json:"files"`
	// Unreadable counts files and archive members that gave no game
	// (kind "unreadable" in --report); they are not games.
	Unreadable int `json:"unreadable_files"`
	// NotGames counts records that hold no game by their format's own
	// account (CCBridge section titles; kind "not_a_game"); not games.
	NotGames   int     `json:"not_games"`
	Games      int     `json:"games"`
	Valid      int     `json:"valid"`
	Rejected   int     `json:"rejected"`
	Duplicates int     `json:"duplicates"`
	Empty      int     `json:"empty"`
	Plies      int     `json:"plies"`
	Seconds    float64 `json:"seconds"`
	// Mismatches counts kept games whose Result tag contradicts their end.
	Mismatches int `json:"result_mismatches"`
	// VariationErrors counts the variations cut at an illegal move (their
	// games are kept).
	VariationErrors int `json:"variation_errors"`
}

// reportLine is one line of --report.
type reportLine struct {
	File        string   `json:"file"`
	Game        int      `json:"game"`
	Offset      int64    `json:"offset"`
	Line        int      `json:"line"`
	Ply         int      `json:"ply"`
	Move        string   `json:"move"`
	Kind        string   `json:"kind"`
	Reason      string   `json:"reason"`
	DuplicateOf *gameRef `json:"duplicate_of,omitempty"`
}

// gameRef names the first copy of a duplicate: its source (clean) or its
// database id (import).
type gameRef struct {
	File string `json:"file,omitempty"`
	Game int    `json:"game,omitempty"`
	ID   uint32 `json:"id,omitempty"`
}

// encodingFlag is how clean, convert and import are told the encoding of
// files that are not what detection thinks.
var encodingFlag = &cli.StringFlag{Name: "encoding", Value: "auto",
	Usage: "decode every record from this encoding (" + textenc.Choices + "); auto detects it per record (XQF: GBK, its format's)"}

// readEncoding reads --encoding; an unknown name is a usage error.
func readEncoding(c *cli.Context) (textenc.Encoding, error) {
	e, err := textenc.Parse(c.String("encoding"))
	if err != nil {
		return 0, usageError{err}
	}
	return e, nil
}

// readGameNotation reads what clean, convert, import and classify share:
// --game, and --from-notation, the notation the files' moves are read in.
func readGameNotation(c *cli.Context) (engine.Game, engine.Notation, error) {
	var g engine.Game
	if s := c.String("game"); s != "" && s != "auto" {
		var err error
		if g, err = engine.ParseGame(s); err != nil {
			return 0, 0, usageError{err}
		}
	}
	from, err := readNotation(c, "from-notation")
	if err != nil {
		return 0, 0, err
	}
	if err := checkNotation("from-notation", from, g); err != nil {
		return 0, 0, err
	}
	if c.IsSet("notation") {
		n, err := readNotation(c, "notation")
		if err != nil {
			return 0, 0, err
		}
		if err := checkNotation("notation", n, g); err != nil {
			return 0, 0, err
		}
	}
	return g, from, nil
}

// outNotation is the notation a clean or convert output writes game g
// in: --notation for its own game's games, and otherwise (auto, or a game
// of the other game) the moves as the record wrote them.
func outNotation(n engine.Notation, g engine.Game) engine.Notation {
	if n.Game() != g {
		return engine.Auto
	}
	return n
}

func inputFiles(c *cli.Context) ([]string, error) {
	if c.NArg() == 0 {
		return nil, usagef("%s: give at least one file or folder", c.Command.Name)
	}
	files, err := importer.Files(c.Args().Slice())
	if err != nil {
		return nil, err
	}
	return files, nil
}

func runClean(c *cli.Context) error {
	start := time.Now()
	g, from, err := readGameNotation(c)
	if err != nil {
		return err
	}
	n, _ := readNotation(c, "notation") // checked by readGameNotation
	enc, err := readEncoding(c)
	if err != nil {
		return err
	}
	files, err := inputFiles(c)
	if err != nil {
		return err
	}
	if err := checkOutputs(c.Args().Slice(), files, c.String("out"), c.String("rejects"), c.String("report")); err != nil {
		return err
	}
	var outF, rejF, repF *output
	for _, o := range []struct {
		f    **output
		flag string
	}{{&outF, "out"}, {&rejF, "rejects"}, {&repF, "report"}} {
		if *o.f, err = createOutput(c.String(o.flag)); err != nil {
			return err
		}
		defer (*o.f).abort()
	}
	var out, rej *pgn.Writer
	var rep *reportWriter
	if outF != nil {
		out = pgn.NewWriter(outF)
	}
	if rejF != nil {
		rej = pgn.NewWriter(rejF)
	}
	if repF != nil {
		rep = newReportWriter(repF)
	}
	rules, err := readRules(c)
	if err != nil {
		return err
	}
	m, err := startProgress(c, "clean", "reading", "bytes", totalSize(files))
	if err != nil {
		return err
	}
	defer m.Done()
	p := &pipeline{files: files, jobs: c.Int("jobs"), progress: m.Add, encoding: enc,
		replayer: replay.Replayer{Game: g, Notation: from, Rules: rules, StrictResults: c.Bool("strict-results")}}
	if out != nil {
		p.work = func(it *item) { // format valid games on the workers
			if it.hasRec && it.err == nil {
				formatGame(&it.out, &it.rec, &it.game, outNotation(n, it.game.Game), reportLine{})
			}
		}
	}
	sum := cleanSummary{Files: len(files)}
	seen := map[[16]byte]gameRef{}
	dedupe, keepBroken := c.Bool("dedupe"), c.Bool("keep-broken")
	report := rep.write
	err = p.run(c.Context, func(it *item) error {
		if l, ok := unreadableFile(it, c.App.ErrWriter); ok {
			sum.Unreadable++
			return report(l)
		}
		if l, ok := notAGame(it); ok {
			sum.NotGames++
			return report(l)
		}
		sum.Games++
		m.Games(sum.Games)
		if !it.hasRec || it.err != nil {
			sum.Rejected++
			l := rejectLine(it)
			if l.Kind == "empty" {
				sum.Empty++
			}
			if rej != nil {
				rej.Comment("xqdb: rejected: " + l.String())
				if it.hasRec {
					rej.WriteRaw(it.rec.Raw)
				} else {
					rej.EndGame("*")
				}
			}
			if out != nil && keepBroken && it.hasRec && len(it.game.Moves) > 0 {
				writeGame(out, &it.rec, &it.game, outNotation(n, it.game.Game), l)
			}
			return report(l)
		}
		if dedupe {
			h := replay.Hash(&it.game)
			if first, ok := seen[h]; ok {
				sum.Duplicates++
				src := it.rec.Source
				return report(reportLine{File: src.File, Game: src.Game, Offset: src.Offset, Line: src.Line,
					Kind: "duplicate", Reason: fmt.Sprintf("same start and moves as %s game %d", first.File, first.Game), DuplicateOf: &first})
			}
			seen[h] = gameRef{File: it.rec.Source.File, Game: it.rec.Source.Game}
		}
		sum.Valid++
		sum.Plies += len(it.game.Moves)
		if out != nil {
			out.WriteRaw(it.out.Bytes())
		}
		for _, ge := range it.game.VariationErrors {
			sum.VariationErrors++
			if err := report(variationLine(ge)); err != nil {
				return err
			}
		}
		if it.game.Mismatch != "" {
			sum.Mismatches++
			return report(mismatchLine(it))
		}
		return nil
	})
	m.Done()
	for _, w := range []*pgn.Writer{out, rej} {
		if w != nil {
			err = firstError(err, w.Flush)
		}
	}
	if err = commitAll(firstError(err, rep.flush), outF, rejF, repF); err != nil {
		return err
	}
	sum.Seconds = time.Since(start).Seconds()
	if c.Bool("json") {
		if err := writeJSON(c.App.Writer, sum); err != nil {
			return err
		}
	} else {
		notGames := ""
		if sum.NotGames > 0 {
			notGames = fmt.Sprintf(" (and %d records that are not games)", sum.NotGames)
		}
		fmt.Fprintf(c.App.Writer, "files %d (%d unreadable), games %d%s: %d valid, %d rejected (%d empty), %d duplicates, %d result mismatches; %d plies in %.1fs\n",
			sum.Files, sum.Unreadable, sum.Games, notGames, sum.Valid, sum.Rejected, sum.Empty, sum.Duplicates, sum.Mismatches, sum.Plies, sum.Seconds)
	}
	if c.Bool("strict") && sum.Rejected > 0 {
		return cli.Exit(fmt.Sprintf("%d games rejected (--strict)", sum.Rejected), exitFailure)
	}
	return nil
}

func (l reportLine) String() string {
	s := l.File
	if l.Line > 0 {
		s += ":" + strconv.Itoa(l.Line)
	}
	s += fmt.Sprintf(": game %d", l.Game)
	if l.Ply > 0 {
		s += fmt.Sprintf(": ply %d %q", l.Ply, l.Move)
	}
	return s + ": " + l.Kind + ": " + l.Reason
}

// mismatchLine reports a kept game whose Result tag contradicts its end.
func mismatchLine(it *item) reportLine {
	src, t := it.rec.Source, it.game.Termination
	l := reportLine{File: src.File, Game: src.Game, Offset: src.Offset, Line: src.Line, Ply: t.Ply,
		Kind: "result_mismatch", Reason: it.game.Mismatch}
	if t.Ply > 0 && t.Ply <= len(it.rec.Moves) {
		l.Move = string(it.rec.MoveText(t.Ply - 1))
	}
	return l
}

// variationLine reports a move that cut a variation of a kept game.
func variationLine(ge *replay.GameError) reportLine {
	return reportLine{File: ge.File, Game: ge.Game, Offset: ge.Offset, Line: ge.Line, Ply: ge.Ply, Move: ge.Move,
		Kind: "variation", Reason: "in a variation, cut there: " + ge.Reason()}
}

// rejectLine describes why an item was rejected.
func rejectLine(it *item) reportLine {
	var ge *replay.GameError
	if errors.As(it.err, &ge) {
		return reportLine{File: ge.File, Game: ge.Game, Offset: ge.Offset, Line: ge.Line, Ply: ge.Ply, Move: ge.Move,
			Kind: replay.Kind(ge.Err), Reason: ge.Reason()}
	}
	l := reportLine{File: it.file, Kind: "parse"}
	if it.readErr != nil {
		l.Reason = it.readErr.Error()
	}
	if errors.Is(it.readErr, importer.ErrNotAGame) {
		l.Kind = "not_a_game"
	}
	var pe *importer.ParseError
	if errors.As(it.readErr, &pe) {
		l.File, l.Game, l.Offset, l.Line = pe.Source.File, pe.Source.Game, pe.Source.Offset, pe.Source.Line
		l.Reason = pe.Err.Error()
	}
	var re *importer.ReadError
	if errors.As(it.readErr, &re) {
		l.File, l.Game, l.Offset, l.Line, l.Kind = re.Source.File, re.Source.Game, re.Source.Offset, re.Source.Line, "read"
		l.Reason = "the file ends early (" + re.Err.Error() + "): this game is cut off and lost"
		if !re.Cut {
			l.Reason = "the file ends early (" + re.Err.Error() + ") after the previous game"
		}
	}
	return l
}

// gameWriters are the PGN writers workers format games with.
var gameWriters = sync.Pool{New: func() any { return pgn.NewWriter(io.Discard) }}

// formatGame formats a game as writeGame does into buf.
func formatGame(buf *bytes.Buffer, rec *importer.Record, g *replay.Game, n engine.Notation, cut reportLine) {
	w := gameWriters.Get().(*pgn.Writer)
	w.Reset(buf)
	writeGame(w, rec, g, n, cut)
	w.Flush()
	gameWriters.Put(w)
}

// writeGame writes a valid game (or, with cut set, the legal prefix of a
// broken one): as read when n is Auto, else with its main line in n.
func writeGame(w *pgn.Writer, rec *importer.Record, g *replay.Game, n engine.Notation, cut reportLine) {
	var extra []importer.Tag
	if g.Game == engine.Xiangqi && rec.Tag("Game") == "" {
		extra = append(extra, importer.Tag{Name: "Game", Value: "Chinese Chess"})
	}
	if g.StartFEN != "" && rec.Tag("FEN") == "" {
		if g.Game == engine.Chess {
			extra = append(extra, importer.Tag{Name: "SetUp", Value: "1"})
		}
		extra = append(extra, importer.Tag{Name: "FEN", Value: g.StartFEN})
	}
	if n == engine.Auto && cut.Kind == "" {
		w.WriteRecord(rec, extra...)
		return
	}
	w.WriteTags(append(append([]importer.Tag(nil), rec.Tags...), extra...))
	writeMainLine(w, g.Game, g.StartFEN, g.Moves, func(i int, pos engine.Position, m engine.Move) {
		if n == engine.Auto {
			w.WordBytes(rec.MoveText(i))
		} else {
			w.Word(pos.FormatMove(m, n))
		}
	})
	result := g.Result.String()
	if cut.Kind != "" {
		w.Comment(fmt.Sprintf("xqdb: cut before ply %d %q: %s", cut.Ply, cut.Move, cut.Reason))
		result = "*"
	}
	w.EndGame(result)
}

// fullMoveNumber reads the move number field of a position's FEN.
func fullMoveNumber(p engine.Position) int {
	f := p.FEN()
	i := len(f) - 1
	for i >= 0 && f[i] != ' ' {
		i--
	}
	n, err := strconv.Atoi(f[i+1:])
	if err != nil {
		return 1
	}
	return n
}
