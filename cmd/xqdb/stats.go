package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/query/api"
)

var statsCommand = &cli.Command{
	Name:      "stats",
	Usage:     "what the database holds and its size on disk",
	ArgsUsage: " ",
	Flags:     []cli.Flag{dbFlag, storeFlag, jsonFlag},
	Action:    runStats,
}

type statsJSON = api.Stats

func runStats(c *cli.Context) error {
	if cl := serverOf(c); cl != nil {
		var out statsJSON
		if err := cl.Get("/api/stats", nil, &out); err != nil {
			return remoteError(err)
		}
		return printStats(c, c.String("db"), out)
	}
	s, err := openDB(c)
	if err != nil {
		return err
	}
	defer s.Close()
	out, err := api.StatsOf(s)
	if err != nil {
		return err
	}
	return printStats(c, s.Dir(), out)
}

// printStats prints the counts of the database in dir.
func printStats(c *cli.Context, dir string, out statsJSON) error {
	if c.Bool("json") {
		return writeJSON(c.App.Writer, out)
	}
	w := c.App.Writer
	fmt.Fprintf(w, "%s: %d games (%d xiangqi, %d chess), %d plies, %d positions indexed (%d popular)\n", dir, out.Games,
		out.PerGame[engine.Xiangqi.String()], out.PerGame[engine.Chess.String()], out.Plies, out.Positions, out.Popular)
	fmt.Fprintf(w, "on disk: %.1f MB (Badger %.1f MB, Bleve %.1f MB)", float64(out.Bytes)/1e6, float64(out.BadgerBytes)/1e6, float64(out.BleveBytes)/1e6)
	if out.Games > 0 {
		fmt.Fprintf(w, ", %.0f bytes a game", float64(out.Bytes)/float64(out.Games))
	}
	fmt.Fprintln(w)
	if runs, ok := out.Entries["runs"].(map[string]any); ok {
		n, plural := entryCount(runs["live"]), "s"
		if n == 1 {
			plural = ""
		}
		fmt.Fprintf(w, "position index: %d run%s", n, plural)
		if m, ok := runs["merging"].(map[string]any); ok {
			fmt.Fprintf(w, ", a merge of %d of them under way (%d%% written; the next imports go on with it)",
				entryCount(m["runs"]), 100*entryCount(m["slices_done"])/max(1, entryCount(m["slices"])))
		}
		if n := entryCount(runs["awaiting_deletion"]); n > 0 {
			fmt.Fprintf(w, ", %d merged away awaiting deletion", n)
		}
		fmt.Fprintln(w)
	}
	return nil
}

// entryCount reads a count of stats' entries: an int from the store, a
// float64 from a server's JSON.
func entryCount(v any) int {
	switch n := v.(type) {
	case int:
		return n
	case float64:
		return int(n)
	}
	return 0
}
