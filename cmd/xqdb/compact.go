package main

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/index"
)

var compactCommand = &cli.Command{
	Name:      "compact",
	Usage:     "reclaim the space deletions and imports left",
	ArgsUsage: " ",
	Description: `Rewrites the database to take less space and answer from fewer values:
merges the position index's runs into one, merges the metadata index into
one segment (which drops the documents of deleted games), and rewrites
Badger's folder with the live values only (deleted and replaced values
stay in Badger's files until then). The answers do not change. It needs
the database to itself, like an import, and room for a copy of Badger's
folder; if it is stopped, the next command finishes or undoes the swap.

Example:
   xqdb delete --source wrong-file.pgn && xqdb compact`,
	Flags:  []cli.Flag{dbFlag, progressFlag, jsonFlag},
	Action: runCompact,
}

type compactSummary struct {
	Games       int     `json:"games"`
	BytesBefore int64   `json:"bytes_before"`
	BytesAfter  int64   `json:"bytes_after"`
	Seconds     float64 `json:"seconds"`
}

func runCompact(c *cli.Context) error {
	start := time.Now()
	s, err := openStore(c) // refuses a folder with no database
	if err != nil {
		return err
	}
	// Sizes are taken with the store closed: an open Badger has its value
	// log file grown to its full size ahead of writes.
	b, m := s.DiskBytes()
	sum := compactSummary{Games: s.Games(), BytesBefore: b + m}
	s.Close()
	if s, err = index.Open(c.String("db"), index.Options{}); err != nil {
		return err
	}
	pm, err := startProgress(c, "compact", "compacting", "", 0)
	if err != nil {
		s.Close()
		return err
	}
	pm.Games(sum.Games)
	err = s.Compact()
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	pm.Done()
	if err != nil {
		return err
	}
	b, m = s.DiskBytes()
	sum.BytesAfter, sum.Seconds = b+m, time.Since(start).Seconds()
	if c.Bool("json") {
		return writeJSON(c.App.Writer, sum)
	}
	fmt.Fprintf(c.App.Writer, "compacted %s: %d games, %.1f MB before, %.1f MB after, in %.1fs\n", s.Dir(), sum.Games,
		float64(sum.BytesBefore)/1e6, float64(sum.BytesAfter)/1e6, sum.Seconds)
	return nil
}
