package index

import (
	"strings"

	"github.com/xqdb/xqdb/engine"
)

// QueryGame reports the game a query is about when its fields or values
// say it (issue 14): game:xiangqi or game:chess; ecco: and the Red
// fields (red, redelo, redteam, … — tags only Xiangqi records have) say
// Xiangqi; eco: says chess. Clauses under NOT and alternatives that
// disagree say nothing. UnknownGame when nothing decides, or the query
// does not parse (the search reports that).
func QueryGame(src string) engine.Game {
	if strings.TrimSpace(src) == "" {
		return engine.UnknownGame
	}
	n, err := parseQueryTree(src)
	if err != nil {
		return engine.UnknownGame
	}
	g, _ := nodeGame(n)
	return g
}

// nodeGame is the game n requires; conflict says its clauses require
// both.
func nodeGame(n *qnode) (g engine.Game, conflict bool) {
	switch n.kind {
	case qNot, qAll:
		return engine.UnknownGame, false
	case qAnd:
		for _, k := range n.kids {
			kg, kc := nodeGame(k)
			if kc || (kg != engine.UnknownGame && g != engine.UnknownGame && kg != g) {
				return engine.UnknownGame, true
			}
			if kg != engine.UnknownGame {
				g = kg
			}
		}
		return g, false
	case qOr:
		// Every alternative must say the same game.
		for i, k := range n.kids {
			kg, kc := nodeGame(k)
			if kc || kg == engine.UnknownGame || (i > 0 && kg != g) {
				return engine.UnknownGame, false
			}
			g = kg
		}
		return g, false
	}
	return fieldGame(n.field, n.value), false
}

// fieldGame is the game a clause field:value names.
func fieldGame(field, value string) engine.Game {
	switch {
	case field == "game":
		if g, err := engine.ParseGame(value); err == nil {
			return g
		}
	case field == "ecco", strings.HasPrefix(field, "red"):
		return engine.Xiangqi
	case field == "eco":
		return engine.Chess
	}
	return engine.UnknownGame
}
