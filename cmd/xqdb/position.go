package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/query/api"
	"github.com/xqdb/xqdb/replay"
)

var positionCommand = &cli.Command{
	Name:      "position",
	Usage:     "show a position: FEN, key, side, check, status and every legal move in every notation",
	ArgsUsage: " ",
	Description: `Sets up a position (the start, or --fen), plays --moves on it and describes
the result. Moves may be written in any notation xqdb reads (ICCS h2e2, WXF
C2.5, Chinese 炮二平五, Vietnamese P2-5; SAN or UCI for chess), each read in
--notation first where it could be read two ways (WXF and Vietnamese share
letters). The listing shows every legal move in every notation of the
game, or in the coordinate notation and --notation when it is given.

A referee follows the moves: status and result are those of the first
decided end met (mate, stalemate, or a ruling: perpetual check or chase,
repetition, move limit, dead material; in chess also threefold, fifty and
seventy-five moves, fivefold), with end_ply its ply, else of the final
position (end_ply 0). --rules picks the Xiangqi profile.

Example:
   xqdb position --moves "h2e2 h9g7" --json
   xqdb position --moves "炮二平五 馬８進７ 馬二進三"`,
	Flags: append([]cli.Flag{
		gameFlag,
		&cli.StringFlag{Name: "fen", Usage: "start from this position (default: the standard start)"},
		&cli.StringFlag{Name: "moves", Aliases: []string{"m"}, Usage: "moves played from --fen or the start, any notation"},
		notationFlag,
		jsonFlag,
	}, rulesFlags...),
	Action: runPosition,
}

func runPosition(c *cli.Context) error {
	g, err := parseGameFlag(c)
	if err != nil {
		return err
	}
	n, err := readNotation(c, "notation")
	if err != nil {
		return err
	}
	if err := checkNotation("notation", n, g); err != nil {
		return err
	}
	rules, err := readRules(c)
	if err != nil {
		return err
	}
	p, err := newPosition(g, c.String("fen"))
	if err != nil {
		return err
	}
	ref := replay.NewReferee(p, rules)
	end := ref.Last()
	line := []map[string]string{}
	for i, tok := range api.MoveTokens(c.String("moves")) {
		m, err := parseMove(p, tok, n)
		if err != nil {
			return usagef("--moves: move %d %q: %w", i+1, tok, err)
		}
		line = append(line, api.MoveNames(p, m))
		if r := ref.Play(m); r.Decided() && !end.Decided() {
			end = r
		}
	}
	if !end.Decided() {
		end = engine.Ruling{Game: g} // ongoing, end_ply 0
	}
	res := api.Describe(p, end)
	res.Line = line
	if c.Bool("json") {
		return writeJSON(c.App.Writer, res)
	}
	w := c.App.Writer
	fmt.Fprintf(w, "fen       %s\nkey       %s\nside      %s\nin check  %v\nstatus    %s %s", res.FEN, res.Key, res.Side, res.InCheck, res.Status, res.Result)
	if res.EndPly > 0 {
		fmt.Fprintf(w, " at ply %d", res.EndPly)
	}
	if end.Detail != "" {
		fmt.Fprintf(w, " (%s)", end.Detail)
	}
	fmt.Fprintf(w, "\nmoves     %d\n", len(res.LegalMoves))
	for _, row := range res.LegalMoves {
		var parts []string
		for _, f := range api.MoveNotations[g] {
			// --notation picks the one the listing writes (JSON has all).
			if n == engine.Auto || f.Notation == n || f.Notation == engine.Coordinate(g) {
				parts = append(parts, row[f.Field])
			}
		}
		fmt.Fprintf(w, "  %s\n", strings.Join(parts, "  "))
	}
	return nil
}
