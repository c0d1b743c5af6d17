package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

var checkCommand = &cli.Command{
	Name:      "check",
	Usage:     "compare the game records with the position and metadata indexes",
	ArgsUsage: " ",
	Description: `Reads the whole database and compares its three parts: every game must have
a record that replays, exactly one entry in the position index for each
distinct position it reached (tree, games --moves), and a metadata document
(games --query); the summaries a game list's first page is read from must
agree with the position index, and the position filters of small runs must
let through every position of their games. It says what is missing or
inconsistent and which command repairs it (xqdb reindex rebuilds either
index from the records), and exits with code 1 when it finds a problem. It
changes nothing.

Example:
   xqdb check --db games.xqdb`,
	Flags:  []cli.Flag{dbFlag, jsonFlag},
	Action: runCheck,
}

func runCheck(c *cli.Context) error {
	if c.NArg() > 0 {
		return usagef("check takes no arguments (the database is --db)")
	}
	s, err := openStore(c)
	if err != nil {
		return err
	}
	defer s.Close()
	rep, err := s.Check()
	if err != nil {
		return err
	}
	if c.Bool("json") {
		if err := writeJSON(c.App.Writer, rep); err != nil {
			return err
		}
	} else {
		w := c.App.Writer
		meta := fmt.Sprintf("%d metadata documents", rep.MetadataDocs)
		if rep.MetadataMissing {
			meta = "no metadata index"
		}
		fmt.Fprintf(w, "%s: %d games, %d position entries for %d positions in the records, %s\n", s.Dir(), rep.Games, rep.Positions, rep.ExpectedPositions, meta)
		for _, p := range rep.Problems {
			fmt.Fprintf(w, "problem: %s\n", p)
		}
		if len(rep.Problems) == 0 {
			fmt.Fprintln(w, "ok: records, positions and metadata agree")
		}
	}
	if len(rep.Problems) > 0 {
		return cli.Exit(fmt.Sprintf("%s: %d problems found", s.Dir(), len(rep.Problems)), exitFailure)
	}
	return nil
}
