package main

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/index"
)

var reindexCommand = &cli.Command{
	Name:      "reindex",
	Usage:     "rebuild the position or metadata index from the game records",
	ArgsUsage: " ",
	Description: `Rebuilds derived data from the stored game records, which stay as they are:
--positions the position index (tree, games --moves), --metadata the metadata
index (games --query), and both without either flag. Run it when xqdb check
reports a problem with an index, or when a read says the metadata index is
missing. Stopped midway, it can be run again.

Example:
   xqdb reindex --db games.xqdb --metadata`,
	Flags: []cli.Flag{dbFlag,
		&cli.BoolFlag{Name: "positions", Usage: "rebuild the position index only"},
		&cli.BoolFlag{Name: "metadata", Usage: "rebuild the metadata index only"},
		&cli.IntFlag{Name: "run-games", Value: 50_000, Usage: "games per write (memory vs speed)"},
		progressFlag,
		jsonFlag,
	},
	Action: runReindex,
}

// reindexSummary is the --json output of reindex: what was rebuilt.
type reindexSummary struct {
	DB        string  `json:"db"`
	Positions bool    `json:"positions"`
	Metadata  bool    `json:"metadata"`
	Games     int     `json:"games"`
	Seconds   float64 `json:"seconds"`
}

func runReindex(c *cli.Context) error {
	if c.NArg() > 0 {
		return usagef("reindex takes no arguments (the database is --db)")
	}
	positions, metadata := c.Bool("positions"), c.Bool("metadata")
	if positions && metadata {
		return usagef("give --positions or --metadata, or neither for both")
	}
	if !positions && !metadata {
		positions, metadata = true, true
	}
	start := time.Now()
	s, err := index.Open(c.String("db"), index.Options{Existing: true, RunGames: c.Int("run-games"), Opening: classifyRecord})
	if err != nil {
		return err
	}
	m, err := startProgress(c, "reindex", "", "", 0)
	if err != nil {
		s.Close()
		return err
	}
	defer m.Done()
	m.Games(s.Games())
	err = func() error {
		if positions {
			m.Phase("rebuilding the position index", "", 0)
			if err := s.ReindexPositions(); err != nil {
				return fmt.Errorf("reindex positions: %w", err)
			}
		}
		if metadata {
			m.Phase("rebuilding the metadata index", "", 0)
			if err := s.ReindexMetadata(); err != nil {
				return fmt.Errorf("reindex metadata: %w", err)
			}
		}
		return nil
	}()
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	m.Done()
	if err != nil {
		return err
	}
	if c.Bool("json") {
		return writeJSON(c.App.Writer, reindexSummary{DB: s.Dir(), Positions: positions, Metadata: metadata, Games: s.Games(), Seconds: time.Since(start).Seconds()})
	}
	what := map[[2]bool]string{{true, true}: "positions and metadata", {true, false}: "positions", {false, true}: "metadata"}[[2]bool{positions, metadata}]
	fmt.Fprintf(c.App.Writer, "%s: %s of %d games reindexed in %.1fs\n", s.Dir(), what, s.Games(), time.Since(start).Seconds())
	return nil
}
