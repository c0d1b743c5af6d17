package main

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/index"
	"github.com/xqdb/xqdb/query/api"
	"github.com/xqdb/xqdb/query/book"
	"github.com/xqdb/xqdb/replay"
)

var bookFormatFlag = &cli.StringFlag{Name: "format", Aliases: []string{"f"}, Usage: "polyglot, eleeye or obk (default: from the file's extension: .bin, .dat, .obk)"}

var bookCommand = &cli.Command{
	Name:  "book",
	Usage: "build, probe, merge and dump opening books (Polyglot .bin, ElephantEye BOOK.DAT, BHGUI .obk)",
	Description: `Opening books that other programs read: Polyglot .bin for chess engines and
GUIs, ElephantEye's BOOK.DAT and BHGUI's .obk for Xiangqi programs.

Example:
   xqdb book build --game chess -o masters.bin games.pgn
   xqdb book build --db ./xqdb-data --query 'date:>="2000"' -o book.obk
   xqdb book probe --book masters.bin --moves "e4 c5"`,
	Subcommands: []*cli.Command{bookBuildCommand, bookProbeCommand, bookMergeCommand, bookDumpCommand, bookInfoCommand},
}

var bookBuildCommand = &cli.Command{
	Name:      "build",
	Usage:     "build a book from game files or a database",
	ArgsUsage: "[PATH…]",
	Description: `Counts every (position, move) of the games into a book. The games come from
PGN, XQF, DhtmlXQ and CCBridge (.cbl, .cbr) files (replayed and checked move by move; a game that
does not replay is skipped and reported, the build goes on; [FEN] starts are
honoured) or from a database (--db), optionally filtered by --query.

Weights: Polyglot as polyglot make-book (2 a win, 1 a draw or unknown result,
0 a loss for the mover; every occurrence counts; counts halved at 16,384);
BOOK.DAT as ElephantEye's MAKEBOOK (3 a win, 1 a draw, -1 a loss, the sum
divided by 4, not written below 4); .obk keeps wins, draws and losses per
move (each game once) and ranks by 2 a win + 1 a draw. A Xiangqi position
and its mirror image are one entry, stored once; readers look up both.
Defaults follow each format's reference builder: .bin --min-games 3
--max-ply 1024; BOOK.DAT and .obk no minimum and every ply.

With --polyglot-compat a .bin is byte for byte what polyglot make-book
writes from the same PGN and options (moves of equal weight in the order
first met; otherwise by move).`,
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "db", Usage: "build from this database instead of files", EnvVars: []string{"XQDB_DB"}},
		&cli.StringFlag{Name: "query", Aliases: []string{"q"}, Usage: `with --db: only the games matching this metadata query, e.g. 'white:carlsen OR black:carlsen' or 'date:>="2000"'`},
		&cli.StringFlag{Name: "game", Aliases: []string{"g"}, Usage: "chess or xiangqi (default: the format's game)"},
		bookFormatFlag,
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "the book to write (required; its extension picks the format)"},
		&cli.IntFlag{Name: "min-games", DefaultText: "3 for .bin, none otherwise", Usage: "drop moves played fewer times"},
		&cli.Float64Flag{Name: "min-score", Usage: "drop moves scoring below P% for the mover (a draw half a point)"},
		&cli.IntFlag{Name: "max-ply", DefaultText: "1024 for .bin, all otherwise", Usage: "count only the first P plies of each game"},
		&cli.BoolFlag{Name: "only-white", Usage: "keep only White's (Red's) moves"},
		&cli.BoolFlag{Name: "only-black", Usage: "keep only Black's moves"},
		&cli.BoolFlag{Name: "uniform", Usage: "give every kept move the same weight"},
		&cli.BoolFlag{Name: "polyglot-compat", Usage: "write exactly what polyglot make-book writes (ties in the order first met)"},
		&cli.StringFlag{Name: "report", Usage: "write a JSON line per skipped game to FILE"},
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), DefaultText: "the number of cores", Usage: "replay on this many workers"},
		progressFlag,
		jsonFlag,
	},
	Action: runBookBuild,
}

// bookBuildJSON is the summary of book build.
type bookBuildJSON struct {
	Book    string  `json:"book"`
	Format  string  `json:"format"`
	Games   int     `json:"games"`
	Skipped int     `json:"skipped"`
	Empty   int     `json:"empty"`
	Entries int     `json:"entries"`
	Seconds float64 `json:"seconds"`
}

// bookFormat reads --format, else the extension of path.
func bookFormat(c *cli.Context, path string) (book.Format, error) {
	if s := c.String("format"); s != "" {
		f, err := book.ParseFormat(s)
		if err != nil {
			return "", usageError{err}
		}
		return f, nil
	}
	f, err := book.FormatOf(path)
	if err != nil {
		return "", usageError{err}
	}
	return f, nil
}

// bookGame checks --game against the format's game.
func bookGame(c *cli.Context, f book.Format) (engine.Game, error) {
	g := f.Game()
	if c.IsSet("game") {
		asked, err := engine.ParseGame(c.String("game"))
		if err != nil {
			return 0, usageError{err}
		}
		if asked != g {
			return 0, usagef("a %s book is for %v, not %v", f, g, asked)
		}
	}
	return g, nil
}

func bookOptions(c *cli.Context, f book.Format) book.Options {
	opt := book.Defaults(f)
	if c.IsSet("min-games") {
		opt.MinGames = c.Int("min-games")
	}
	if c.IsSet("max-ply") {
		opt.MaxPly = c.Int("max-ply")
	}
	opt.MinScore = c.Float64("min-score") / 100
	opt.OnlyWhite, opt.OnlyBlack, opt.Uniform = c.Bool("only-white"), c.Bool("only-black"), c.Bool("uniform")
	opt.PolyglotCompat = c.Bool("polyglot-compat")
	return opt
}

// required refuses a missing required flag: a one-line usage error
// (urfave/cli's own Required check prints the whole help).
func required(c *cli.Context, flag, what string) error {
	if c.String(flag) == "" {
		return usagef("%s: --%s %s is required", strings.TrimPrefix(c.Command.HelpName, "xqdb "), flag, what)
	}
	return nil
}

func runBookBuild(c *cli.Context) error {
	start := time.Now()
	if err := required(c, "output", "BOOK"); err != nil {
		return err
	}
	out := c.String("output")
	f, err := bookFormat(c, out)
	if err != nil {
		return err
	}
	g, err := bookGame(c, f)
	if err != nil {
		return err
	}
	if c.IsSet("max-ply") && c.Int("max-ply") < 0 {
		return usagef("--max-ply must be 0 (all) or more")
	}
	b, err := book.NewBuilder(f, bookOptions(c, f))
	if err != nil {
		return usageError{err}
	}
	sum := bookBuildJSON{Book: out, Format: string(f)}
	m, err := startProgress(c, "book build", "reading", "", 0)
	if err != nil {
		return err
	}
	defer m.Done()
	switch {
	case c.String("db") != "":
		if c.NArg() > 0 {
			return usagef("book build: give --db or files, not both")
		}
		err = buildFromDB(c, g, b, m)
	case c.NArg() == 0:
		return usagef("book build: give game files or --db")
	default:
		if c.IsSet("query") {
			return usagef("--query needs --db")
		}
		err = buildFromFiles(c, g, b, &sum, m)
	}
	if err != nil {
		return err
	}
	m.Phase("writing the book", "", 0)
	if sum.Entries, err = b.Save(out); err != nil {
		return err
	}
	m.Done()
	sum.Games = b.Games()
	sum.Seconds = time.Since(start).Seconds()
	if c.Bool("json") {
		return writeJSON(c.App.Writer, sum)
	}
	fmt.Fprintf(c.App.Writer, "%s: %s book, %d entries from %d games", out, f, sum.Entries, sum.Games)
	if sum.Skipped > 0 {
		where := "see " + c.String("report")
		if c.String("report") == "" {
			where = "listed on stderr; --report FILE lists them all"
		}
		fmt.Fprintf(c.App.Writer, "; %d skipped (%s)", sum.Skipped, where)
	}
	fmt.Fprintf(c.App.Writer, " in %.2f s\n", sum.Seconds)
	return nil
}

// buildFromFiles replays the files on the pipeline and counts the legal
// games in file order (make-book's halving depends on the order).
func buildFromFiles(c *cli.Context, g engine.Game, b *book.Builder, sum *bookBuildJSON, m *meter) error {
	files, err := inputFiles(c)
	if err != nil {
		return err
	}
	if err := checkOutputs(c.Args().Slice(), files, c.String("output"), c.String("report")); err != nil {
		return err
	}
	repF, err := createOutput(c.String("report"))
	if err != nil {
		return err
	}
	var rep *reportWriter
	if repF != nil {
		defer repF.abort()
		rep = newReportWriter(repF)
	}
	size := totalSize(files)
	// About one ply per 8 bytes of PGN (a gzip'd file has more).
	b.SizeHint(int(min(size/8, 1<<30)))
	m.Expect("bytes", size)
	// A book needs only legal moves, not the referee's rulings; the workers
	// also ready each game for the builder (a Polyglot book's keys and
	// moves), which then only counts, in file order.
	workers := sync.Pool{New: func() any { return b.NewWorker() }}
	p := &pipeline{files: files, jobs: c.Int("jobs"), progress: m.Add, mainLineOnly: true,
		replayer: replay.Replayer{Game: g, NoReferee: true},
		work: func(it *item) {
			if it.hasRec && it.err == nil {
				w := workers.Get().(*book.Worker)
				w.Ready(&it.ready, it.game.StartFEN, it.game.Moves, it.game.Keys, it.game.Result)
				workers.Put(w)
			}
		}}
	shown, games := 0, 0
	err = p.run(c.Context, func(it *item) error {
		games++
		m.Games(games)
		if it.hasRec && it.err == nil {
			return b.AddReady(&it.ready, it.game.StartFEN, it.game.Moves, it.game.Result)
		}
		l := rejectLine(it)
		if l.Kind == "empty" {
			sum.Empty++
			return nil
		}
		if l.Kind == "not_a_game" { // a CCBridge section title: no game to skip
			return rep.write(l)
		}
		sum.Skipped++
		if rep == nil && shown < 10 && !c.Bool("json") {
			fmt.Fprintf(c.App.ErrWriter, "xqdb: skipped: %s\n", l)
			if shown++; shown == 10 {
				fmt.Fprintf(c.App.ErrWriter, "xqdb: (more skipped games: give --report FILE for all)\n")
			}
		}
		return rep.write(l)
	})
	return commitAll(firstError(err, rep.flush), repF)
}

// buildFromDB counts the database's games of g (those matching --query),
// in id order.
func buildFromDB(c *cli.Context, g engine.Game, b *book.Builder, m *meter) error {
	s, err := openStore(c)
	if err != nil {
		return err
	}
	defer s.Close()
	var ids []uint32
	if q := c.String("query"); strings.TrimSpace(q) != "" {
		if ids, err = s.Search(nil, q); err != nil {
			return usageError{err}
		}
		slices.Sort(ids)
	} else {
		for gid := 1; gid <= s.Games(); gid++ {
			ids = append(ids, uint32(gid))
		}
	}
	// About 84 plies a game (the pgnmentor corpus's average) sizes the
	// Polyglot builder's buckets.
	b.SizeHint(84 * len(ids))
	// Reading a stored game decodes its moves (a move generation a ply):
	// the workers read a chunk of games and ready them for the builder,
	// then the builder counts them in id order.
	jobs := max(c.Int("jobs"), 1)
	workers := make([]*book.Worker, jobs)
	for w := range workers {
		workers[w] = b.NewWorker()
	}
	m.Expect("games", int64(len(ids)))
	done := 0
	recs := make([]*index.Record, 512)
	errs := make([]error, len(recs))
	ready := make([]book.Ready, len(recs))
	for len(ids) > 0 {
		chunk := ids[:min(len(ids), len(recs))]
		ids = ids[len(chunk):]
		var wg sync.WaitGroup
		for w := range jobs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w; i < len(chunk); i += jobs {
					recs[i], errs[i] = s.Game(chunk[i])
					if r := recs[i]; errs[i] == nil && r.Game == g {
						workers[w].Ready(&ready[i], r.StartFEN, r.Moves, nil, r.Result)
					}
				}
			}()
		}
		wg.Wait()
		done += len(chunk)
		m.Add(int64(len(chunk)))
		m.Games(done)
		for i, gid := range chunk {
			if errs[i] != nil {
				return errs[i]
			}
			r := recs[i]
			if r.Game != g {
				continue
			}
			if err := b.AddReady(&ready[i], r.StartFEN, r.Moves, r.Result); err != nil {
				return fmt.Errorf("game %d: %w", gid, err)
			}
		}
	}
	return nil
}

var bookProbeCommand = &cli.Command{
	Name:      "probe",
	Usage:     "list a position's book moves with their weights and shares",
	ArgsUsage: " ",
	Description: `Looks a position up in a book: its moves (only those legal in the position;
book keys can collide), each with the book's weight, its share of the
position's total, and wins/draws/losses for the mover where the format keeps
them (.obk). A Xiangqi position is also looked up as its mirror image, the
moves mapped back.

Example:
   xqdb book probe --book BOOK.DAT --moves "h2e2 h9g7"
   xqdb book probe --book performance.bin --fen "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" --json`,
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "book", Aliases: []string{"b"}, Usage: "the book file (required)"},
		bookFormatFlag,
		&cli.StringFlag{Name: "game", Aliases: []string{"g"}, Usage: "chess or xiangqi (default: the book's game)"},
		&cli.StringFlag{Name: "fen", Usage: "the position (default: the standard start)"},
		&cli.StringFlag{Name: "moves", Aliases: []string{"m"}, Usage: "moves played from --fen or the start, any notation"},
		notationFlag,
		jsonFlag,
	},
	Action: runBookProbe,
}

// bookProbeJSON is the JSON of book probe: api.BookProbe, which /api/book
// serves too.
type bookProbeJSON = api.BookProbe

func openBook(c *cli.Context, path string) (*book.Book, error) {
	f, err := bookFormat(c, path)
	if err != nil {
		return nil, err
	}
	return book.Open(path, f)
}

func runBookProbe(c *cli.Context) error {
	if err := required(c, "book", "BOOK"); err != nil {
		return err
	}
	bk, err := openBook(c, c.String("book"))
	if err != nil {
		return err
	}
	defer bk.Close()
	g, err := bookGame(c, bk.Format())
	if err != nil {
		return err
	}
	n, err := writeNotation(c, g)
	if err != nil {
		return err
	}
	pos, err := newPosition(g, c.String("fen"))
	if err != nil {
		return usageError{err}
	}
	if err := playMoves(pos, c.String("moves"), n); err != nil {
		return usageError{err}
	}
	moves, err := bk.Probe(pos)
	if err != nil {
		return err
	}
	out := api.NewBookProbe(bk.Format(), pos, moves, n)
	if c.Bool("json") {
		return writeJSON(c.App.Writer, out)
	}
	w := c.App.Writer
	fmt.Fprintf(w, "%s\n%s book: %d moves\n\n", out.FEN, out.Format, len(out.Moves))
	if len(out.Moves) == 0 {
		return nil
	}
	fmt.Fprintf(w, "%-8s %-6s %7s %7s", "move", strings.ToUpper(engine.Coordinate(g).String()), "weight", "share")
	if bk.Format().KeepsCounts() {
		fmt.Fprintf(w, " %6s %6s %6s", "wins", "draws", "losses")
	}
	fmt.Fprintln(w)
	for _, m := range out.Moves {
		fmt.Fprintf(w, "%s %-6s %7d %6.1f%%", padRight(m.Move, 8), m.UCI, m.Weight, 100*m.Share)
		if m.Wins != nil {
			fmt.Fprintf(w, " %6d %6d %6d", *m.Wins, *m.Draws, *m.Losses)
		}
		fmt.Fprintln(w)
	}
	return nil
}

var bookMergeCommand = &cli.Command{
	Name:      "merge",
	Usage:     "merge books of one format into one",
	ArgsUsage: "BOOK…",
	Description: `Writes one book holding every entry of the given books; a (position, move)
found in several has its weights (and .obk counts) summed.

Example:
   xqdb book merge -o all.bin a.bin b.bin`,
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "the book to write (required)"},
		bookFormatFlag,
		jsonFlag,
	},
	Action: func(c *cli.Context) error {
		if c.NArg() == 0 {
			return usagef("book merge: give the books to merge")
		}
		if err := required(c, "output", "BOOK"); err != nil {
			return err
		}
		out := c.String("output")
		f, err := bookFormat(c, out)
		if err != nil {
			return err
		}
		var books []*book.Book
		defer func() {
			for _, b := range books {
				b.Close()
			}
		}()
		for _, path := range c.Args().Slice() {
			b, err := book.Open(path, f)
			if err != nil {
				return err
			}
			books = append(books, b)
		}
		n, err := book.Merge(out, f, books...)
		if err != nil {
			if errors.Is(err, book.ErrOption) {
				return usageError{err}
			}
			return err
		}
		if c.Bool("json") {
			return writeJSON(c.App.Writer, map[string]any{"book": out, "format": f, "entries": n, "merged": c.NArg()})
		}
		fmt.Fprintf(c.App.Writer, "%s: %s book, %d entries from %d books\n", out, f, n, c.NArg())
		return nil
	},
}

var bookDumpCommand = &cli.Command{
	Name:      "dump",
	Usage:     "print every entry of a book",
	ArgsUsage: "BOOK",
	Description: `Prints each stored entry: the format's key, the move in coordinates as
stored (Polyglot castling as king takes rook), the weight and, for .obk,
wins/draws/losses and the ply. --json prints one JSON object a line.`,
	Flags:  []cli.Flag{bookFormatFlag, jsonFlag},
	Action: runBookDump,
}

type bookEntryJSON struct {
	Key    string `json:"key"`
	Move   string `json:"move"`
	Weight int    `json:"weight"`
	Wins   *int   `json:"wins,omitempty"`
	Draws  *int   `json:"draws,omitempty"`
	Losses *int   `json:"losses,omitempty"`
	Ply    *int   `json:"ply,omitempty"`
}

func runBookDump(c *cli.Context) error {
	if c.NArg() != 1 {
		return usagef("book dump: give one book")
	}
	bk, err := openBook(c, c.Args().First())
	if err != nil {
		return err
	}
	defer bk.Close()
	es, err := bk.Entries()
	if err != nil {
		return err
	}
	w := c.App.Writer
	for _, e := range es {
		j := bookEntryJSON{Key: fmt.Sprintf("%016x", e.Key), Move: book.CodeText(bk.Format(), e.Code), Weight: e.Weight}
		if bk.Format() == book.Eleeye {
			j.Key = fmt.Sprintf("%08x", e.Key)
		}
		if bk.Format().KeepsCounts() {
			e := e
			j.Wins, j.Draws, j.Losses, j.Ply = &e.Wins, &e.Draws, &e.Losses, &e.Index
		}
		if c.Bool("json") {
			if err := writeJSON(w, j); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(w, "%s %s %d", j.Key, j.Move, j.Weight)
		if j.Wins != nil {
			fmt.Fprintf(w, " %d/%d/%d ply %d", *j.Wins, *j.Draws, *j.Losses, *j.Ply)
		}
		fmt.Fprintln(w)
	}
	return nil
}

var bookInfoCommand = &cli.Command{
	Name:      "info",
	Usage:     "say what a book holds",
	ArgsUsage: "BOOK",
	Flags:     []cli.Flag{bookFormatFlag, jsonFlag},
	Action: func(c *cli.Context) error {
		if c.NArg() != 1 {
			return usagef("book info: give one book")
		}
		path := c.Args().First()
		bk, err := openBook(c, path)
		if err != nil {
			return err
		}
		defer bk.Close()
		es, err := bk.Entries()
		if err != nil {
			return err
		}
		keys := map[uint64]struct{}{}
		total := 0
		for _, e := range es {
			keys[e.Key] = struct{}{}
			total += e.Weight
		}
		info := map[string]any{"book": path, "format": bk.Format(), "game": bk.Format().Game().String(),
			"entries": len(es), "positions": len(keys), "total_weight": total}
		if c.Bool("json") {
			return writeJSON(c.App.Writer, info)
		}
		fmt.Fprintf(c.App.Writer, "%s: %s book for %v, %d entries, %d positions, total weight %d\n",
			path, bk.Format(), bk.Format().Game(), len(es), len(keys), total)
		return nil
	},
}
