package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/engine"
)

var positionCommand = &cli.Command{
	Name:      "position",
	Usage:     "show a position: FEN, key, side, check, status and every legal move in every notation",
	ArgsUsage: " ",
	Description: `Sets up a position (the start, or --fen), plays --moves on it and describes
the result. Moves may be written in any notation xqdb reads (ICCS h2e2, WXF
C2.5, Chinese 炮二平五, Vietnamese P2-5; SAN or UCI for chess); --notation
forces one where tokens are ambiguous (WXF and Vietnamese share letters).

Example:
   xqdb position --moves "h2e2 h9g7" --json
   xqdb position --moves "炮二平五 馬８進７ 馬二進三"`,
	Flags: []cli.Flag{
		gameFlag,
		&cli.StringFlag{Name: "fen", Usage: "start from this position (default: the standard start)"},
		&cli.StringFlag{Name: "moves", Aliases: []string{"m"}, Usage: "moves to play, space-separated"},
		&cli.StringFlag{Name: "notation", Aliases: []string{"n"}, Value: "auto", Usage: "notation of --moves: auto, iccs, wxf, chinese, vietnamese, san, uci"},
		jsonFlag,
	},
	Action: runPosition,
}

// positionResult is the JSON of `xqdb position`.
type positionResult struct {
	FEN        string              `json:"fen"`
	Key        string              `json:"key"`
	Side       string              `json:"side"`
	InCheck    bool                `json:"in_check"`
	Status     string              `json:"status"`
	LegalMoves []map[string]string `json:"legal_moves"`
}

// moveNotations lists, per game, the JSON field and notation of each
// rendering of a legal move.
var moveNotations = map[engine.Game][]struct {
	field string
	n     engine.Notation
}{
	engine.Xiangqi: {{"iccs", engine.ICCS}, {"wxf", engine.WXF}, {"chinese", engine.Chinese}, {"vietnamese", engine.Vietnamese}},
	engine.Chess:   {{"san", engine.SAN}, {"uci", engine.UCI}},
}

func runPosition(c *cli.Context) error {
	g, err := parseGameFlag(c)
	if err != nil {
		return err
	}
	n, err := engine.ParseNotation(c.String("notation"))
	if err != nil {
		return usageError{err}
	}
	if n != engine.Auto && n.Game() != g {
		return usagef("--notation %v is not a %v notation", n, g)
	}
	p, err := newPosition(g, c.String("fen"))
	if err != nil {
		return err
	}
	if err := playMoves(p, c.String("moves"), n); err != nil {
		return err
	}
	res := positionResult{
		FEN:        p.FEN(),
		Key:        fmt.Sprintf("%016x", p.Key()),
		Side:       p.SideToMove().Name(g),
		InCheck:    p.InCheck(),
		Status:     p.Status().String(),
		LegalMoves: []map[string]string{},
	}
	for _, m := range p.AppendLegalMoves(nil) {
		row := map[string]string{}
		for _, f := range moveNotations[g] {
			row[f.field] = p.FormatMove(m, f.n)
		}
		res.LegalMoves = append(res.LegalMoves, row)
	}
	if c.Bool("json") {
		return writeJSON(c.App.Writer, res)
	}
	w := c.App.Writer
	fmt.Fprintf(w, "fen       %s\nkey       %s\nside      %s\nin check  %v\nstatus    %s\nmoves     %d\n",
		res.FEN, res.Key, res.Side, res.InCheck, res.Status, len(res.LegalMoves))
	for _, row := range res.LegalMoves {
		var parts []string
		for _, f := range moveNotations[g] {
			parts = append(parts, row[f.field])
		}
		fmt.Fprintf(w, "  %s\n", strings.Join(parts, "  "))
	}
	return nil
}
