package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// gameFlag is the --game flag shared by the commands that set up positions.
var gameFlag = &cli.StringFlag{Name: "game", Aliases: []string{"g"}, Value: "xiangqi", Usage: "xiangqi or chess"}

var jsonFlag = &cli.BoolFlag{Name: "json", Usage: "print one JSON document for scripts"}

// parseGameFlag reads --game; a bad name is a usage error.
func parseGameFlag(c *cli.Context) (engine.Game, error) {
	g, err := engine.ParseGame(c.String("game"))
	if err != nil {
		return 0, usageError{err}
	}
	return g, nil
}

// newPosition sets up a position of game g from fen, or the standard start
// when fen is empty.
func newPosition(g engine.Game, fen string) (engine.Position, error) {
	return games.New(g, fen)
}

// playMoves makes each whitespace-separated move of text on p, reading them
// in notation n (engine.Auto recognises each token).
func playMoves(p engine.Position, text string, n engine.Notation) error {
	for i, tok := range strings.Fields(text) {
		m, err := p.ParseMove(tok, n)
		if err != nil {
			return fmt.Errorf("move %d %q: %w", i+1, tok, err)
		}
		p.Make(m)
	}
	return nil
}

// writeJSON prints v as one line of JSON, UTF-8 unescaped.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
