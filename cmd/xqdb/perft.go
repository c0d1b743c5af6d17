package main

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/engine"
)

var perftCommand = &cli.Command{
	Name:      "perft",
	Usage:     "count the leaf nodes of the legal move tree (move generator check and speed)",
	ArgsUsage: " ",
	Description: `Counts all legal move sequences of the given depth from a position, the
standard test of a move generator. --divide prints the count under each
root move, to compare with another engine's and find the first difference.

Example:
   xqdb perft --depth 4
   xqdb perft --game chess --fen "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" --depth 3 --divide`,
	Flags: []cli.Flag{
		gameFlag,
		&cli.StringFlag{Name: "fen", Usage: "start from this position (default: the standard start)"},
		&cli.IntFlag{Name: "depth", Aliases: []string{"d"}, DefaultText: "none", Usage: "plies to count, 1-20 (required)"},
		&cli.BoolFlag{Name: "divide", Usage: "also count per root move"},
		jsonFlag,
	},
	Action: runPerft,
}

type perftResult struct {
	FEN     string            `json:"fen"`
	Depth   int               `json:"depth"`
	Nodes   uint64            `json:"nodes"`
	Seconds float64           `json:"seconds"`
	NPS     float64           `json:"nps"`
	Divide  map[string]uint64 `json:"divide,omitempty"`
}

func runPerft(c *cli.Context) error {
	g, err := parseGameFlag(c)
	if err != nil {
		return err
	}
	depth := c.Int("depth")
	if !c.IsSet("depth") {
		return usagef("perft: --depth is required")
	}
	if depth < 1 || depth > 20 {
		return usagef("--depth %d: want 1 to 20", depth)
	}
	p, err := newPosition(g, c.String("fen"))
	if err != nil {
		return err
	}
	res := perftResult{FEN: p.FEN(), Depth: depth}
	type divided struct {
		move  string
		nodes uint64
	}
	var rows []divided
	start := time.Now()
	if c.Bool("divide") {
		res.Divide = map[string]uint64{}
		for _, m := range p.AppendLegalMoves(nil) {
			mv := p.FormatMove(m, engine.Coordinate(g))
			p.Make(m)
			n := p.Perft(depth - 1)
			p.Unmake()
			res.Divide[mv] = n
			res.Nodes += n
			rows = append(rows, divided{mv, n})
		}
	} else {
		res.Nodes = p.Perft(depth)
	}
	res.Seconds = time.Since(start).Seconds()
	if res.Seconds > 0 {
		res.NPS = float64(res.Nodes) / res.Seconds
	}
	if c.Bool("json") {
		return writeJSON(c.App.Writer, res)
	}
	w := c.App.Writer
	for _, r := range rows {
		fmt.Fprintf(w, "%s: %d\n", r.move, r.nodes)
	}
	if rows != nil {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "fen     %s\ndepth   %d\nnodes   %d\ntime    %.3fs\nnps     %.0f\n", res.FEN, depth, res.Nodes, res.Seconds, res.NPS)
	return nil
}
