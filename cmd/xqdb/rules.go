package main

import (
	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/engine/xiangqi"
)

// rulesFlags choose how game ends are adjudicated (RULES X13–X16).
var rulesFlags = []cli.Flag{
	&cli.StringFlag{Name: "rules", Value: "vn", Usage: "Xiangqi adjudication: vn (the user's rules: 6/12/18-move allowance) or asian (verdict at the 3rd repetition)"},
	&cli.IntFlag{Name: "move-limit", Value: xiangqi.DefaultMoveLimit, Usage: "Xiangqi: plies without a capture before a draw (RULES X15; negative: off)"},
}

// readRules reads --rules and --move-limit.
func readRules(c *cli.Context) (xiangqi.Rules, error) {
	p, err := xiangqi.ParseProfile(c.String("rules"))
	if err != nil {
		return xiangqi.Rules{}, usageError{err}
	}
	limit := c.Int("move-limit")
	if limit == 0 {
		return xiangqi.Rules{}, usagef("--move-limit 0: give a number of plies, or a negative one to turn the limit off")
	}
	return xiangqi.Rules{Profile: p, MoveLimit: limit}, nil
}

var strictResultsFlag = &cli.BoolFlag{Name: "strict-results", Usage: "reject games whose Result tag contradicts how they end (without it they are kept and reported)"}
