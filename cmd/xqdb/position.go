package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/engine"
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

// positionResult is the JSON of `xqdb position`.
type positionResult struct {
	FEN        string              `json:"fen"`
	Key        string              `json:"key"`
	Side       string              `json:"side"`
	InCheck    bool                `json:"in_check"`
	Status     string              `json:"status"`
	Result     string              `json:"result"`
	EndPly     int                 `json:"end_ply"`
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
	for i, tok := range moveTokens(c.String("moves")) {
		m, err := parseMove(p, tok, n)
		if err != nil {
			return usagef("--moves: move %d %q: %w", i+1, tok, err)
		}
		if r := ref.Play(m); r.Decided() && !end.Decided() {
			end = r
		}
	}
	if !end.Decided() {
		end = engine.Ruling{Game: g} // ongoing, end_ply 0
	}
	res := positionResult{
		FEN:        p.FEN(),
		Key:        fmt.Sprintf("%016x", p.Key()),
		Side:       p.SideToMove().Name(g),
		InCheck:    p.InCheck(),
		Status:     end.StatusName(),
		Result:     end.Result.String(),
		EndPly:     end.Ply,
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
		for _, f := range moveNotations[g] {
			// --notation picks the one the listing writes (JSON has all).
			if n == engine.Auto || f.n == n || f.n == engine.Coordinate(g) {
				parts = append(parts, row[f.field])
			}
		}
		fmt.Fprintf(w, "  %s\n", strings.Join(parts, "  "))
	}
	return nil
}
