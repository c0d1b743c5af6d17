package main

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/urfave/cli/v2"
	"golang.org/x/text/width"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/importer/record"
	"github.com/xqdb/xqdb/index"
	"github.com/xqdb/xqdb/query/api"
)

// gameFlag is the --game flag shared by the commands that set up positions.
var gameFlag = &cli.StringFlag{Name: "game", Aliases: []string{"g"},
	Usage: "xiangqi or chess (default: the game the position, the query's fields (ecco:, red: or eco:) or --notation say; else Xiangqi)"}

var jsonFlag = &cli.BoolFlag{Name: "json", Usage: "print one JSON document for scripts"}

// parseGameFlag reads --game; a bad name is a usage error. Without it,
// the position asked says the game, as a user of either game expects
// (xqdb tree --moves "e4 c5"): a FEN's shape (8 ranks: chess), a
// notation's game, or the game whose rules read every move (Xiangqi
// first); Xiangqi when nothing says.
func parseGameFlag(c *cli.Context) (engine.Game, error) {
	if !c.IsSet("game") {
		return impliedGame(c), nil
	}
	g, err := engine.ParseGame(c.String("game"))
	if err != nil {
		return 0, usageError{err}
	}
	return g, nil
}

func impliedGame(c *cli.Context) engine.Game {
	fen := c.String("fen")
	switch record.FENRanks(fen) {
	case 8:
		return engine.Chess
	case 10:
		return engine.Xiangqi
	}
	// The moves before --notation: `--moves "h2e2" --notation san` is a
	// Xiangqi position asked with a chess notation (a usage error), not a
	// chess position with an illegal move.
	if moves := c.String("moves"); moves != "" {
		for _, g := range []engine.Game{engine.Xiangqi, engine.Chess} {
			if p, err := newPosition(g, fen); err == nil && playMoves(p, moves, engine.Auto) == nil {
				return g
			}
		}
	}
	// A query's fields may say the game: ecco: and red: are Xiangqi's,
	// eco: chess's (issue 14).
	if g := index.QueryGame(c.String("query")); g != engine.UnknownGame {
		return g
	}
	if n, err := engine.ParseNotation(c.String("notation")); err == nil && n != engine.Auto {
		return n.Game()
	}
	return engine.Xiangqi
}

// newPosition sets up a position of game g from fen, or the standard start
// when fen is empty.
func newPosition(g engine.Game, fen string) (engine.Position, error) {
	return games.New(g, fen)
}

// playMoves makes each whitespace-separated move of text on p, reading them
// in notation n (engine.Auto recognises each token).
func playMoves(p engine.Position, text string, n engine.Notation) error {
	for i, tok := range api.MoveTokens(text) {
		m, err := parseMove(p, tok, n)
		if err != nil {
			return usagef("--moves: move %d %q: %w", i+1, tok, err)
		}
		p.Make(m)
	}
	return nil
}

// padRight pads s with spaces to cols terminal columns: Chinese
// characters and full-width digits (马８进７) take two columns, so counting
// bytes or runes would misalign a table.
func padRight(s string, cols int) string {
	n := 0
	for _, r := range s {
		switch width.LookupRune(r).Kind() {
		case width.EastAsianWide, width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	if n >= cols {
		return s
	}
	return s + strings.Repeat(" ", cols-n)
}

// writeJSON prints v as one line of JSON, UTF-8 unescaped.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
