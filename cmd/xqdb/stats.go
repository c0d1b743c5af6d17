package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/engine"
)

var statsCommand = &cli.Command{
	Name:      "stats",
	Usage:     "what the database holds and its size on disk",
	ArgsUsage: " ",
	Flags:     []cli.Flag{dbFlag, storeFlag, jsonFlag},
	Action:    runStats,
}

type statsJSON struct {
	Games   int            `json:"games"`
	PerGame map[string]int `json:"per_game"`
	Plies   int64          `json:"plies"`
	// Positions counts (game, position) pairs in the index: each game once
	// per distinct position it reached. Popular counts the positions with
	// their own statistics (reached by many games).
	Positions   int64          `json:"positions"`
	Popular     int64          `json:"popular_positions"`
	BadgerBytes int64          `json:"badger_bytes"`
	BleveBytes  int64          `json:"bleve_bytes"`
	Bytes       int64          `json:"bytes"`
	Entries     map[string]any `json:"entries"`
}

func runStats(c *cli.Context) error {
	s, err := openDB(c)
	if err != nil {
		return err
	}
	defer s.Close()
	sum, err := s.Summary()
	if err != nil {
		return err
	}
	out := statsJSON{Games: sum.Games, PerGame: sum.PerGame, Plies: sum.Plies, Positions: sum.Positions, Popular: sum.Popular,
		BadgerBytes: sum.Bytes["badger"], BleveBytes: sum.Bytes["bleve"], Entries: sum.Entries}
	for _, b := range sum.Bytes {
		out.Bytes += b
	}
	if c.Bool("json") {
		return writeJSON(c.App.Writer, out)
	}
	w := c.App.Writer
	fmt.Fprintf(w, "%s: %d games (%d xiangqi, %d chess), %d plies, %d positions indexed (%d popular)\n", s.Dir(), out.Games,
		out.PerGame[engine.Xiangqi.String()], out.PerGame[engine.Chess.String()], out.Plies, out.Positions, out.Popular)
	fmt.Fprintf(w, "on disk: %.1f MB (Badger %.1f MB, Bleve %.1f MB)", float64(out.Bytes)/1e6, float64(out.BadgerBytes)/1e6, float64(out.BleveBytes)/1e6)
	if out.Games > 0 {
		fmt.Fprintf(w, ", %.0f bytes a game", float64(out.Bytes)/float64(out.Games))
	}
	fmt.Fprintln(w)
	return nil
}
