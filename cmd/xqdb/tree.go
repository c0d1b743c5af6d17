package main

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/index"
	"github.com/xqdb/xqdb/query"
	"github.com/xqdb/xqdb/query/api"
)

// positionFlags pick a position: a FEN, moves from it (or from the start),
// and the notation of the moves.
var positionFlags = []cli.Flag{
	gameFlag,
	&cli.StringFlag{Name: "fen", Usage: "the position (default: the standard start)"},
	&cli.StringFlag{Name: "moves", Aliases: []string{"m"}, Usage: "moves played from --fen or the start, any notation"},
	&cli.BoolFlag{Name: "mirror", Usage: "Xiangqi: count the left-right mirror image as the same position"},
	&cli.StringFlag{Name: "query", Aliases: []string{"q"}, Usage: `metadata query: every clause must match, OR between alternatives, e.g. 'black:"Lü Qin" date:>="1990"'`},
}

// askedPosition sets up the position of --fen and --moves; ok is false when
// neither is given.
func askedPosition(c *cli.Context, g engine.Game) (engine.Position, bool, error) {
	if c.Bool("mirror") && g != engine.Xiangqi {
		return nil, false, usagef("--mirror is for Xiangqi: a %v position is not found with its mirror image", g)
	}
	if !c.IsSet("fen") && !c.IsSet("moves") {
		return nil, false, nil
	}
	p, err := newPosition(g, c.String("fen"))
	if err != nil {
		return nil, false, err
	}
	n, err := readNotation(c, "notation")
	if err != nil {
		return nil, false, err
	}
	if err := playMoves(p, c.String("moves"), n); err != nil {
		return nil, false, err
	}
	return p, true, nil
}

// openDB opens the database the reading commands (tree, games, show,
// export, stats) ask through index.DB.
func openDB(c *cli.Context) (index.DB, error) {
	debug.SetGCPercent(readerGCPercent)
	if c.String("store") != "" {
		return index.OpenDB(c.String("store"), index.Options{ReadOnly: true})
	}
	s, err := openStore(c)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// openStore opens the database folder --db read-only, for the commands
// that maintain Badger and Bleve themselves.
func openStore(c *cli.Context) (*index.Store, error) {
	opts := index.Options{ReadOnly: true}
	if c.Command.Name == "check" {
		opts.Opening = classifyRecord // the metadata's openings, as indexed
	}
	s, err := index.Open(c.String("db"), opts)
	switch {
	case errors.Is(err, index.ErrNoStore):
		return nil, fmt.Errorf("%w (create one with xqdb import or xqdb demo)", err)
	}
	if err == nil && s.MetadataMissing() && c.Command.Name != "check" {
		fmt.Fprintf(c.App.ErrWriter, "xqdb: warning: %s has no metadata index (meta.bleve): --query and game lists cannot be answered; rebuild it with xqdb reindex --metadata --db %s\n", s.Dir(), s.Dir())
	}
	return s, err
}

// readerGCPercent is the collector's setting of the commands that query
// the store (openDB). Their heap is mostly the games' attributes, loaded
// once and kept; their lookups' garbage is the Badger blocks they
// decompress. At Go's default, 100, the heap grows to twice the
// attributes, into fresh memory whose first touch cost a process of 1,000
// trees more than the collections it spared: at 50, on a million-game
// store after ten growth imports, trees p50 / p99 446 / 2,822 → 413 /
// 2,330 µs and game lists 573 / 3,851 → 516 / 3,132 µs (medians of four
// passes; issue 18).
const readerGCPercent = 50

var treeCommand = &cli.Command{
	Name:      "tree",
	Usage:     "what was played from a position, and how it scored",
	ArgsUsage: " ",
	Description: `Lists every move played from the position in the database's games, with
the number of games, the wins of each side and the draws (white means Red in
Xiangqi, as in the lichess explorer), the average rating where known and the
last date played. --mirror folds in the left-right mirror image of a Xiangqi
position, its moves mapped back. --query keeps only the games whose metadata
match a query (the query language of xqdb games --help).

Example:
   xqdb tree --moves "h2e2 h9g7"
   xqdb tree --game chess --moves "e4 c5" --query 'white:fischer'`,
	Flags: append(append([]cli.Flag{dbFlag, storeFlag}, positionFlags...),
		&cli.IntFlag{Name: "limit", Value: 0, Usage: "show at most this many moves (0: all)"},
		batchFlag,
		notationFlag,
		jsonFlag),
	Action: runTree,
}

// treeJSON is the JSON of xqdb tree: api.Tree, which /api/tree serves too.
type treeJSON = api.Tree

type treeMoveJSON = api.TreeMove

func runTree(c *cli.Context) error {
	g, err := parseGameFlag(c)
	if err != nil {
		return err
	}
	if c.IsSet("batch") {
		return runTreeBatch(c, g)
	}
	n, err := writeNotation(c, g)
	if err != nil {
		return err
	}
	pos, ok, err := askedPosition(c, g)
	if err != nil {
		return err
	}
	if !ok {
		if pos, err = newPosition(g, ""); err != nil {
			return err
		}
	}
	var out treeJSON
	if cl := serverOf(c); cl != nil {
		// The server owns the store: ask it (issue 17).
		if err := cl.Get("/api/tree", remoteParams(c, g, n, "fen", "moves", "mirror", "query", "limit"), &out); err != nil {
			return remoteError(err)
		}
		return printTree(c, g, out)
	}
	s, err := openDB(c)
	if err != nil {
		return err
	}
	defer s.Close()
	t, err := query.BuildTree(s, pos, query.Options{Mirror: c.Bool("mirror"), Query: c.String("query")})
	if err != nil {
		return err
	}
	out = treeOutput(pos, t, n, c.Int("limit"))
	if out.Games == 0 {
		if out.Hint, err = otherGameHint(s, g, c.String("query")); err != nil {
			return err
		}
	}
	if o, ok := pathOpening(g, c.String("fen"), c.String("moves")); ok {
		out.Opening, out.OpeningName = o.Code, o.FullName()
	}
	return printTree(c, g, out)
}

// printTree prints a tree, asked here or of a server.
func printTree(c *cli.Context, g engine.Game, out treeJSON) error {
	if c.Bool("json") {
		return writeJSON(c.App.Writer, out)
	}
	w := c.App.Writer
	first := engine.First.Name(g)
	fmt.Fprintf(w, "%s\n", out.FEN)
	if out.Opening != "" {
		fmt.Fprintf(w, "opening %s %s\n", out.Opening, out.OpeningName)
	}
	fmt.Fprintf(w, "%d games: %s %s, draws %s, black %s, unknown %s", out.Games, first, pct(out.White, out.Games), pct(out.Draws, out.Games), pct(out.Black, out.Games), pct(out.Unknown, out.Games))
	if out.EndedHere > 0 {
		fmt.Fprintf(w, "; %d ended here", out.EndedHere)
	}
	if out.Hint != "" {
		fmt.Fprintf(w, "\n%s", out.Hint)
	}
	fmt.Fprintf(w, "\n\n%-8s %-10s %7s %7s %7s %7s %7s %6s  %s\n", "move", strings.ToUpper(engine.Coordinate(g).String()), "games", first, "draws", "black", "unknown", "rating", "last")
	for _, m := range out.Moves {
		rating := ""
		if m.AvgRating > 0 {
			rating = fmt.Sprint(m.AvgRating)
		}
		fmt.Fprintf(w, "%s %-10s %7d %7s %7s %7s %7s %6s  %s\n", padRight(m.Move, 8), m.UCI, m.Games, pct(m.White, m.Games), pct(m.Draws, m.Games), pct(m.Black, m.Games), pct(m.Unknown, m.Games), rating, m.LastDate)
	}
	return nil
}

// treeOutput renders a tree for output.
func treeOutput(pos engine.Position, t *query.Tree, n engine.Notation, limit int) treeJSON {
	return api.NewTree(pos, t, n, limit)
}

// batchLine is one answer of tree --batch.
type batchLine struct {
	treeJSON
	Micros int64  `json:"micros"`
	Error  string `json:"error,omitempty"`
}

// runTreeBatch answers many positions in one process, timing each query
// (what bench/query.sh measures: the latency of a warm store).
func runTreeBatch(c *cli.Context, g engine.Game) error {
	s, err := openDB(c)
	if err != nil {
		return err
	}
	defer s.Close()
	opt := query.Options{Mirror: c.Bool("mirror"), Query: c.String("query")}
	return eachBatchPosition(c.String("batch"), g, func(pos engine.Position, fen string, err error) error {
		var out batchLine
		if err == nil {
			start := time.Now()
			var t *query.Tree
			if t, err = query.BuildTree(s, pos, opt); err == nil {
				out.Micros = time.Since(start).Microseconds()
				out.treeJSON = treeOutput(pos, t, defaultNotation(pos.Game()), c.Int("limit"))
			}
		}
		if err != nil {
			out.FEN, out.Error = fen, err.Error()
		}
		return writeJSON(c.App.Writer, out)
	})
}

func pct(n, of int) string {
	if of == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(n)/float64(of))
}
