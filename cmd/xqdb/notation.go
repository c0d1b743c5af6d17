package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/engine"
)

// One meaning for --notation in every command (issue 14): the notation
// xqdb writes moves in (a tree's or a book's move column, show, export,
// clean --out, convert -o, position's listing), and the one it tries
// first when it reads --moves. The notation of the moves of game files is
// --from-notation. A notation of the other game is the same usage error everywhere
// (checkNotation).

// notationFlag is --notation, shared by every command that has it.
var notationFlag = &cli.StringFlag{Name: "notation", Aliases: []string{"n"}, Value: "auto",
	Usage: "the notation moves are written in: auto, " + notationChoices + "; auto writes a record's moves as it wrote them where xqdb has the record (clean, convert), else Chinese for Xiangqi and SAN for chess; --moves are read in any notation, this one first"}

// fromFlag is --from-notation: the notation of the moves of the game files a
// command reads (clean, convert, import, classify).
var fromFlag = &cli.StringFlag{Name: "from-notation", Value: "auto",
	Usage: "the notation the files' moves are read in: auto (recognised game by game) or one of --notation's"}

const notationChoices = "iccs, wxf, chinese, chinese-traditional, vietnamese (Xiangqi), san, uci (chess)"

// gameNotations lists the notations of g, as --notation names them.
func gameNotations(g engine.Game) string {
	var names []string
	for n := engine.ICCS; n <= engine.UCI; n++ {
		if n.Game() == g {
			names = append(names, n.String())
		}
	}
	return strings.Join(names, ", ")
}

// readNotation reads the notation flag name; an unknown one is a usage
// error.
func readNotation(c *cli.Context, name string) (engine.Notation, error) {
	n, err := engine.ParseNotation(c.String(name))
	if err != nil {
		return 0, usagef("--%s %q is not a notation (auto, %s)", name, c.String(name), notationChoices)
	}
	return n, nil
}

// checkNotation refuses a notation of the other game than g: the one usage
// error every command gives for it.
func checkNotation(flag string, n engine.Notation, g engine.Game) error {
	if n == engine.Auto || g == engine.UnknownGame || n.Game() == g {
		return nil
	}
	return usagef("--%s %v is a %v notation, not a %v one (%v: %s)", flag, n, n.Game(), g, g, gameNotations(g))
}

// defaultNotation is what auto writes when xqdb has no record's own
// notation: Chinese for Xiangqi, as its archives and players write it,
// and SAN for chess.
func defaultNotation(g engine.Game) engine.Notation {
	if g == engine.Xiangqi {
		return engine.Chinese
	}
	return engine.SAN
}

// writeNotation reads --notation for writing the moves of game g.
func writeNotation(c *cli.Context, g engine.Game) (engine.Notation, error) {
	n, err := readNotation(c, "notation")
	if err != nil {
		return 0, err
	}
	if err := checkNotation("notation", n, g); err != nil {
		return 0, err
	}
	if n == engine.Auto {
		return defaultNotation(g), nil
	}
	return n, nil
}

// parseMove reads a move of --moves: in notation n first, then in any
// (a user pastes moves in whatever notation they have at hand).
func parseMove(p engine.Position, tok string, n engine.Notation) (engine.Move, error) {
	m, err := p.ParseMove(tok, n)
	if err != nil && n != engine.Auto {
		if m2, err2 := p.ParseMove(tok, engine.Auto); err2 == nil {
			return m2, nil
		}
	}
	return m, err
}
