package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/engine/search"
	"github.com/xqdb/xqdb/engine/search/selfplay"
	"github.com/xqdb/xqdb/importer"
	"github.com/xqdb/xqdb/importer/pgn"
	"github.com/xqdb/xqdb/index"
	"github.com/xqdb/xqdb/query"
	"github.com/xqdb/xqdb/query/book"
)

var selfplayCommand = &cli.Command{
	Name:      "selfplay",
	Usage:     "play games between two copies of xqdb's search: PGN, training data, database games",
	ArgsUsage: " ",
	Description: `Plays --games games of xqdb's own search (engine/search) against itself, one
game per core at a time (--jobs). Each move is searched within --nodes,
--depth or --movetime. Openings vary by --random-plies uniformly random
first moves, by --temperature (the next --temperature-plies moves drawn
with probability exp(score/(100*T)), T in pawns, from a shallow search of
every move), by --book: moves drawn from an opening book (Polyglot .bin
for chess, ElephantEye BOOK.DAT or BHGUI .obk for Xiangqi; --book-format
when the extension does not tell), weighted by the book's weights, for up
to --book-plies plies, or by --db: moves drawn from a database's tree,
weighted by the games that played them, for up to --db-plies plies.

Games end by the rules, as the referee judges them (--rules: mate,
stalemate, perpetual check or chase, repetition, the move limit, dead
material; chess: threefold, fifty moves), or by adjudication on the
scores: --resign-score/--resign-moves and --draw-score/--draw-moves/
--draw-ply, as cutechess-cli adjudicates, and --max-plies.

Each finished game is written at once as PGN (--out, default standard
output) with the tags Event, Site, Date, Round, White, Black, Result,
Termination, PlyCount (and FEN when the start is not the standard one),
every move with a {score/depth} comment as cutechess-cli writes it
(scores in pawns for the side that moved, M5 for a mate in 5). --data
writes every searched position in the .plain layout of Stockfish's
training tools (fen, move, score, ply, result, e); Xiangqi moves there are
in Fairy-Stockfish's coordinates, as xqdb uci writes them. --import-into
stores the games in a database through xqdb import as they finish: an
import run starts as soon as a game is over, with every game finished
since the last run, so the database holds each game a moment after its
PGN is written.

Ctrl-C (or SIGTERM) stops a run: the games under way are abandoned, the
finished ones are written and imported, it says "interrupted: N games
saved" and exits with code 130.

The same --seed gives the same games whatever --jobs is, when moves are
limited by --nodes or --depth (a game depends only on the seed and its
round number). A summary ends the run on standard error (--json: as JSON,
on standard output when the games go to --out).

Example:
   xqdb selfplay --game xiangqi --games 100 --nodes 20000 --random-plies 4 --out games.pgn
   xqdb selfplay --game chess --games 20 --depth 6 --db ./xqdb-data --data chess.plain`,
	Flags: append([]cli.Flag{
		&cli.StringFlag{Name: "game", Aliases: []string{"g"}, Value: "xiangqi", Usage: "xiangqi or chess"},
		&cli.IntFlag{Name: "games", Value: 10, Usage: "games to play"},
		&cli.Int64Flag{Name: "nodes", DefaultText: "20000 when no limit is given", Usage: "nodes per move"},
		&cli.IntFlag{Name: "depth", Usage: "plies per move"},
		&cli.IntFlag{Name: "movetime", Usage: "milliseconds per move"},
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), DefaultText: "the number of cores", Usage: "games played at once"},
		&cli.IntFlag{Name: "hash", Value: 16, Usage: "transposition table per game, MB"},
		&cli.IntFlag{Name: "random-plies", Usage: "uniformly random moves at the start of each game"},
		&cli.Float64Flag{Name: "temperature", Usage: "pick opening moves by exp(score/(100*T)), T in pawns (0: off)"},
		&cli.IntFlag{Name: "temperature-plies", Value: 8, Usage: "moves picked by --temperature"},
		&cli.StringFlag{Name: "db", Usage: "draw openings from this database's tree, weighted by games"},
		&cli.IntFlag{Name: "db-plies", Value: 12, Usage: "plies drawn from --db at most"},
		&cli.StringFlag{Name: "book", Usage: "draw openings from this opening book (.bin, BOOK.DAT, .obk), weighted by its weights"},
		&cli.StringFlag{Name: "book-format", Usage: "the --book's format: polyglot, eleeye or obk (default: from its extension)"},
		&cli.IntFlag{Name: "book-plies", Value: 12, Usage: "plies drawn from --book at most"},
		&cli.Uint64Flag{Name: "seed", DefaultText: "from the clock", Usage: "random seed (printed with --json)"},
		&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "write the games here as PGN (default: standard output)"},
		&cli.StringFlag{Name: "data", Usage: "write every searched position here in the .plain training layout"},
		&cli.StringFlag{Name: "import-into", Usage: "store the games in this database (xqdb import) as they finish"},
		&cli.IntFlag{Name: "max-plies", Value: 600, Usage: "adjudicate a draw after this many plies"},
		&cli.IntFlag{Name: "resign-score", Value: 1000, Usage: "adjudicate a loss at this score (centipawns) ..."},
		&cli.IntFlag{Name: "resign-moves", Usage: "... held this many moves by each side (0: off)"},
		&cli.IntFlag{Name: "draw-score", Value: 10, Usage: "adjudicate a draw within this score ..."},
		&cli.IntFlag{Name: "draw-moves", Usage: "... held this many plies in a row (0: off) ..."},
		&cli.IntFlag{Name: "draw-ply", Value: 80, Usage: "... from this ply on"},
		progressFlag,
		jsonFlag,
	}, rulesFlags...),
	Action: runSelfplay,
}

// selfplaySummary is the --json output of selfplay.
type selfplaySummary struct {
	Game         string         `json:"game"`
	Games        int            `json:"games"`
	FirstWins    int            `json:"first_wins"`
	Draws        int            `json:"draws"`
	SecondWins   int            `json:"second_wins"`
	Plies        int            `json:"plies"`
	Seconds      float64        `json:"seconds"`
	GamesPerMin  float64        `json:"games_per_minute"`
	Seed         uint64         `json:"seed"`
	Terminations map[string]int `json:"terminations"`
	Imported     bool           `json:"imported,omitempty"`
	// ImportRuns counts the imports --import-into ran.
	ImportRuns int `json:"import_runs,omitempty"`
}

// selfplayRun is one run's settings and outputs.
type selfplayRun struct {
	cfg      selfplay.Config
	player   string // the White/Black tag
	seed     uint64
	pgn      *pgn.Writer
	pgnFile  io.Writer
	data     *bufio.Writer
	importer *selfplayImporter
	importTo string
	rulesArg []string
}

func runSelfplay(c *cli.Context) error {
	if c.NArg() > 0 {
		return usagef("selfplay: no arguments expected (flags only)")
	}
	g, err := engine.ParseGame(c.String("game"))
	if err != nil {
		return usageError{err}
	}
	rules, err := readRules(c)
	if err != nil {
		return err
	}
	n := c.Int("games")
	jobs := c.Int("jobs")
	if n < 1 || jobs < 1 {
		return usagef("selfplay: --games and --jobs must be at least 1")
	}
	var lim search.Limits
	var setting []string
	limits := 0
	if c.IsSet("nodes") {
		lim.Nodes, limits = c.Int64("nodes"), limits+1
		setting = append(setting, "nodes="+strconv.FormatInt(lim.Nodes, 10))
	}
	if c.IsSet("depth") {
		lim.Depth, limits = c.Int("depth"), limits+1
		setting = append(setting, "depth="+strconv.Itoa(lim.Depth))
	}
	if c.IsSet("movetime") {
		lim.Time, limits = time.Duration(c.Int("movetime"))*time.Millisecond, limits+1
		setting = append(setting, "movetime="+strconv.Itoa(c.Int("movetime")))
	}
	switch {
	case limits > 1:
		return usagef("selfplay: give one of --nodes, --depth, --movetime")
	case limits == 0:
		lim.Nodes = 20000
		setting = append(setting, "nodes=20000")
	case lim.Nodes < 0 || lim.Depth < 0 || lim.Time < 0 || c.IsSet("nodes") && lim.Nodes == 0 || c.IsSet("depth") && lim.Depth == 0 || c.IsSet("movetime") && lim.Time == 0:
		return usagef("selfplay: the move limit must be positive")
	}
	seed := c.Uint64("seed")
	if !c.IsSet("seed") {
		seed = uint64(time.Now().UnixNano())
	}
	run := &selfplayRun{
		cfg: selfplay.Config{Game: g, Limits: lim, RandomPlies: c.Int("random-plies"), Temperature: c.Float64("temperature"),
			TemperaturePlies: c.Int("temperature-plies"), Rules: rules, MaxPlies: c.Int("max-plies"),
			ResignScore: c.Int("resign-score"), ResignMoves: c.Int("resign-moves"),
			DrawScore: c.Int("draw-score"), DrawMoves: c.Int("draw-moves"), DrawPly: c.Int("draw-ply")},
		player:   "xqdb " + strings.Join(setting, " "),
		seed:     seed,
		importTo: c.String("import-into"),
		rulesArg: []string{"--rules", c.String("rules"), "--move-limit", strconv.Itoa(c.Int("move-limit"))},
	}
	// Outputs are written game by game, so an interrupted run keeps every
	// finished game: no temporary file.
	run.pgnFile = c.App.Writer
	if out := c.String("out"); out != "" {
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		defer f.Close()
		run.pgnFile = f
	}
	run.pgn = pgn.NewWriter(run.pgnFile)
	if path := c.String("data"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		defer f.Close()
		run.data = bufio.NewWriter(f)
	}
	var openings [][]engine.Move
	if c.String("book") != "" {
		if c.String("db") != "" {
			return usagef("selfplay: give --book or --db, not both")
		}
		openings, err = bookOpenings(c.String("book"), c.String("book-format"), g, n, c.Int("book-plies"), seed)
	} else {
		openings, err = dbOpenings(c.String("db"), g, n, c.Int("db-plies"), seed)
	}
	if err != nil {
		return err
	}

	if run.importTo != "" {
		run.importer = newSelfplayImporter(run.importTo, append([]string{"--game", g.String()}, run.rulesArg...))
	}
	// Ctrl-C or SIGTERM ends the run: no new game starts, the games under
	// way are abandoned, the finished ones are saved below. A second
	// signal kills at once (stop restores the default).
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); stop() }()

	type result struct {
		round int
		game  *selfplay.Game
		err   error
	}
	rounds := make(chan int)
	results := make(chan result)
	var wg sync.WaitGroup
	for range min(jobs, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := search.New(g, c.Int("hash"))
			for r := range rounds {
				rng := rand.New(rand.NewPCG(seed, uint64(r)))
				var open []engine.Move
				if openings != nil {
					open = openings[r-1]
				}
				game, err := selfplay.PlayContext(ctx, s, run.cfg, open, rng)
				results <- result{r, game, err}
			}
		}()
	}
	go func() {
	dispatch:
		for r := 1; r <= n; r++ {
			select {
			case rounds <- r:
			case <-ctx.Done():
				break dispatch
			}
		}
		close(rounds)
		wg.Wait()
		close(results)
	}()

	start := time.Now()
	sum := selfplaySummary{Game: g.String(), Seed: seed, Terminations: map[string]int{}}
	m, err := startProgress(c, "selfplay", "playing", "games", int64(n))
	if err != nil {
		return err
	}
	defer m.Done()
	var firstErr error
	for res := range results {
		if res.err != nil {
			if firstErr == nil && ctx.Err() == nil {
				firstErr = fmt.Errorf("selfplay: game %d: %w", res.round, res.err)
			}
			continue
		}
		if err := run.write(res.round, res.game); err != nil && firstErr == nil {
			firstErr = err
		}
		sum.Games++
		sum.Plies += len(res.game.Plies)
		sum.Terminations[res.game.Termination]++
		switch res.game.Result {
		case engine.FirstWins:
			sum.FirstWins++
		case engine.SecondWins:
			sum.SecondWins++
		default:
			sum.Draws++
		}
		perMin := float64(sum.Games) / time.Since(start).Minutes()
		m.Note(fmt.Sprintf("%.1f games/min, +%d =%d -%d", perMin, sum.FirstWins, sum.Draws, sum.SecondWins))
		m.Games(sum.Games)
		m.Add(1)
	}
	m.Done()
	interrupted := ctx.Err() != nil && c.Context.Err() == nil
	if run.importer != nil {
		runs, err := run.importer.close()
		if err != nil && firstErr == nil {
			firstErr = err
		}
		sum.Imported, sum.ImportRuns = firstErr == nil, runs
	}
	if interrupted && firstErr == nil {
		saved := ""
		if run.importTo != "" {
			saved = " (in " + run.importTo + " too)"
		}
		return cli.Exit(fmt.Sprintf("interrupted: %d games saved%s", sum.Games, saved), exitInterrupted)
	}
	sum.Seconds = time.Since(start).Seconds()
	if sum.Seconds > 0 {
		sum.GamesPerMin = float64(sum.Games) / sum.Seconds * 60
	}
	if firstErr != nil {
		return firstErr
	}
	if c.Bool("json") {
		enc := json.NewEncoder(c.App.ErrWriter)
		if c.String("out") != "" {
			enc = json.NewEncoder(c.App.Writer)
		}
		return enc.Encode(sum)
	}
	fmt.Fprintf(c.App.ErrWriter, "selfplay: %d %s games in %.1f s (%.1f games/min): %d-%d-%d (%s wins, draws, %s wins), seed %d\n",
		sum.Games, g, sum.Seconds, sum.GamesPerMin, sum.FirstWins, sum.Draws, sum.SecondWins,
		engine.First.Name(g), engine.Second.Name(g), seed)
	return nil
}

// write writes one finished game to every output.
func (sp *selfplayRun) write(round int, g *selfplay.Game) error {
	text := sp.formatPGN(round, g)
	if _, err := sp.pgnFile.Write(text); err != nil {
		return err
	}
	if sp.importer != nil {
		sp.importer.add(text)
	}
	if sp.data != nil {
		if err := sp.writeData(g); err != nil {
			return err
		}
	}
	return nil
}

// formatPGN writes a game as PGN, with a {score/depth} comment per move
// as cutechess-cli writes them.
func (sp *selfplayRun) formatPGN(round int, g *selfplay.Game) []byte {
	var buf strings.Builder
	w := pgn.NewWriter(&buf)
	game := sp.cfg.Game
	tags := []importer.Tag{
		{Name: "Event", Value: "xqdb selfplay"},
		{Name: "Site", Value: "xqdb"},
		{Name: "Date", Value: time.Now().UTC().Format("2006.01.02")},
		{Name: "Round", Value: strconv.Itoa(round)},
		{Name: "White", Value: sp.player},
		{Name: "Black", Value: sp.player},
		{Name: "Result", Value: g.Result.String()},
	}
	if game == engine.Xiangqi {
		tags = append(tags, importer.Tag{Name: "Game", Value: "Chinese Chess"})
	}
	if g.StartFEN != "" {
		if game == engine.Chess {
			tags = append(tags, importer.Tag{Name: "SetUp", Value: "1"})
		}
		tags = append(tags, importer.Tag{Name: "FEN", Value: g.StartFEN})
	}
	tags = append(tags,
		importer.Tag{Name: "Termination", Value: g.Termination},
		importer.Tag{Name: "PlyCount", Value: strconv.Itoa(len(g.Plies))},
		importer.Tag{Name: "Seed", Value: strconv.FormatUint(sp.seed, 10)})
	w.WriteTags(tags)
	n := engine.SAN
	if game == engine.Xiangqi {
		n = engine.ICCS
	}
	moves := make([]engine.Move, len(g.Plies))
	for i, p := range g.Plies {
		moves[i] = p.Move
	}
	writeMainLine(w, game, g.StartFEN, moves, func(i int, pos engine.Position, m engine.Move) {
		w.Word(pos.FormatMove(m, n))
		w.Comment(plyComment(g.Plies[i]))
	})
	if g.Detail != "" {
		w.Comment(g.Detail)
	}
	w.EndGame(g.Result.String())
	w.Flush()
	return []byte(buf.String())
}

// plyComment is cutechess-cli's move comment: score in pawns for the side
// that moved, or M/−M and the moves to mate, then the depth.
func plyComment(p selfplay.Ply) string {
	switch p.Kind {
	case "book":
		return "book"
	case "random":
		return "random"
	}
	score := fmt.Sprintf("%+.2f", float64(p.Score)/100)
	if m, ok := search.IsMate(p.Score); ok {
		if m > 0 {
			score = fmt.Sprintf("+M%d", 2*m-1)
		} else {
			score = fmt.Sprintf("-M%d", -2*m)
		}
	}
	return score + "/" + strconv.Itoa(p.Depth)
}

// writeData writes every searched position of g in the .plain layout.
func (sp *selfplayRun) writeData(g *selfplay.Game) error {
	pos, err := games.New(sp.cfg.Game, g.StartFEN)
	if err != nil {
		return err
	}
	for i, p := range g.Plies {
		if p.Kind == "" {
			res := 0
			switch g.Result {
			case engine.WinFor(pos.SideToMove()):
				res = 1
			case engine.WinFor(pos.SideToMove().Other()):
				res = -1
			}
			fmt.Fprintf(sp.data, "fen %s\nmove %s\nscore %d\nply %d\nresult %d\ne\n", pos.FEN(), formatUCIMove(pos, p.Move), p.Score, i, res)
		}
		pos.Make(p.Move)
	}
	return sp.data.Flush()
}

// selfplayImporter stores finished games in a database through the
// import command, in the background: a run starts as soon as a game is
// handed over and the previous run is done, and takes every game finished
// since, so a game waits at most one import run (issue 16: an interrupted
// run keeps its finished games in the database).
type selfplayImporter struct {
	dir  string
	args []string // import flags: --game, --rules, …
	wake chan struct{}
	done chan struct{}

	mu      sync.Mutex
	pending []byte // PGN of the games not yet imported
	runs    int
	err     error
}

func newSelfplayImporter(dir string, args []string) *selfplayImporter {
	im := &selfplayImporter{dir: dir, args: args, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go im.loop()
	return im
}

// add hands over one finished game's PGN.
func (im *selfplayImporter) add(pgnText []byte) {
	im.mu.Lock()
	im.pending = append(im.pending, pgnText...)
	im.mu.Unlock()
	select {
	case im.wake <- struct{}{}:
	default: // a run is due already and will take this game too
	}
}

func (im *selfplayImporter) loop() {
	defer close(im.done)
	for range im.wake {
		im.flush()
	}
	im.flush() // what came with the last wake-up
}

// flush imports the pending games. A failed import keeps them pending,
// for the next run to try again (an import is idempotent: games it saved
// before count as already in the database).
func (im *selfplayImporter) flush() {
	im.mu.Lock()
	batch := im.pending
	im.pending = nil
	im.mu.Unlock()
	if len(batch) == 0 {
		return
	}
	err := im.importPGN(batch)
	im.mu.Lock()
	im.runs++
	if err != nil {
		im.pending = append(batch, im.pending...)
	}
	im.err = err
	runs := im.runs
	im.mu.Unlock()
	if selfplayImportHook != nil && err == nil {
		selfplayImportHook(im.dir, runs)
	}
}

// close imports what is still pending and returns the runs made and the
// last run's error.
func (im *selfplayImporter) close() (int, error) {
	close(im.wake)
	<-im.done
	return im.runs, im.err
}

// selfplayImportHook, when set (by tests), is called after each import run
// that succeeded, with the database and the runs so far.
var selfplayImportHook func(dir string, runs int)

func (im *selfplayImporter) importPGN(batch []byte) error {
	f, err := os.CreateTemp("", "xqdb-selfplay-*.pgn")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(batch); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	args := append(append([]string{"xqdb", "import", "--progress", "never", "--db", im.dir}, im.args...), f.Name())
	var errs strings.Builder
	if code := runNested(args, io.Discard, &errs); code != exitOK {
		return fmt.Errorf("selfplay: import into %s failed: %s", im.dir, strings.TrimSpace(errs.String()))
	}
	return nil
}

// runNested runs another xqdb command in this process (set by init: the
// command table refers to selfplay, which refers back to it).
var runNested func(args []string, stdout, stderr io.Writer) int

func init() { runNested = run }

// dbOpenings draws n opening lines from the tree of the database at dir,
// each move weighted by the games that played it, up to plies moves or
// until no game went on. It returns nil when dir is empty.
func dbOpenings(dir string, g engine.Game, n, plies int, seed uint64) ([][]engine.Move, error) {
	if dir == "" {
		return nil, nil
	}
	if _, err := os.Stat(filepath.Join(dir)); err != nil {
		return nil, fmt.Errorf("selfplay: --db %s: %w", dir, err)
	}
	s, err := index.Open(dir, index.Options{})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	out := make([][]engine.Move, n)
	for i := range out {
		// Its own stream, apart from the games' (which use the round).
		rng := rand.New(rand.NewPCG(seed^0x6f70656e696e67, uint64(i+1)))
		pos, err := games.New(g, "")
		if err != nil {
			return nil, err
		}
		for len(out[i]) < plies {
			t, err := query.BuildTree(s, pos, query.Options{})
			if err != nil {
				return nil, err
			}
			went := t.Games - t.EndedHere // games that played a move here
			if went == 0 {
				break
			}
			x := rng.IntN(went)
			for _, m := range t.Moves {
				if x -= m.Games; x < 0 {
					out[i] = append(out[i], m.Move)
					pos.Make(m.Move)
					break
				}
			}
		}
	}
	return out, nil
}

// bookOpenings draws n opening lines from the book at path, each move
// with probability proportional to its weight in the book (as engines play
// from a Polyglot book), up to plies moves or until the book has no move.
func bookOpenings(path, format string, g engine.Game, n, plies int, seed uint64) ([][]engine.Move, error) {
	var f book.Format
	if format != "" {
		var err error
		if f, err = book.ParseFormat(format); err != nil {
			return nil, usageError{err}
		}
	} else {
		var err error
		if f, err = book.FormatOf(path); err != nil {
			return nil, usageError{err}
		}
	}
	if f.Game() != g {
		return nil, usagef("selfplay: --book %s is a %s book (%s), the games are %s", path, f.Game(), f, g)
	}
	b, err := book.Open(path, f)
	if err != nil {
		return nil, fmt.Errorf("selfplay: --book: %w", err)
	}
	defer b.Close()
	out := make([][]engine.Move, n)
	for i := range out {
		// Its own stream, apart from the games' (which use the round).
		rng := rand.New(rand.NewPCG(seed^0x626f6f6b, uint64(i+1)))
		pos, err := games.New(g, "")
		if err != nil {
			return nil, err
		}
		for len(out[i]) < plies {
			moves, err := b.Probe(pos)
			if err != nil {
				return nil, fmt.Errorf("selfplay: --book: %w", err)
			}
			total := 0
			for _, m := range moves {
				total += max(m.Weight, 0)
			}
			if total == 0 {
				break
			}
			x := rng.IntN(total)
			for _, m := range moves {
				if x -= max(m.Weight, 0); x < 0 {
					out[i] = append(out[i], m.Move)
					pos.Make(m.Move)
					break
				}
			}
		}
	}
	return out, nil
}
