package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/index"
)

var statsCommand = &cli.Command{
	Name:      "stats",
	Usage:     "what the database holds and its size on disk",
	ArgsUsage: " ",
	Flags:     []cli.Flag{dbFlag, jsonFlag},
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
	s, err := openStore(c)
	if err != nil {
		return err
	}
	defer s.Close()
	out := statsJSON{Games: s.Games(), PerGame: map[string]int{}, Entries: map[string]any{}}
	err = s.EachGame(func(_ uint32, a index.Attrs) {
		out.PerGame[a.Game.String()]++
		out.Plies += int64(a.Plies)
	})
	if err != nil {
		return err
	}
	popular, popPostings, tail, err := s.PositionCounts()
	if err != nil {
		return err
	}
	out.Positions, out.Popular = popPostings+tail, popular
	out.BadgerBytes, out.BleveBytes = s.DiskBytes()
	out.Bytes = out.BadgerBytes + out.BleveBytes
	usage, err := s.Usage()
	if err != nil {
		return err
	}
	for k, v := range usage {
		out.Entries[k] = v
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
