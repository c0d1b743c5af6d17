package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/index"
)

var deleteCommand = &cli.Command{
	Name:      "delete",
	Usage:     "remove games from the database",
	ArgsUsage: "[ID...]",
	Description: `Removes the games given by id, those matching --query, and those imported
from --source FILE (as many --source as needed; the path as given to
import, or the same file by another path; an archive takes its members'
games with it). A game selected several ways is removed once. The games leave every index: records, positions (trees and
game lists count them no more), metadata and the de-duplication hashes
(importing them again stores them again); afterwards the database answers
exactly as if they had never been imported. Ids are not reused.

--dry-run says which games would go and changes nothing. The output counts
the games removed. Space is reclaimed by xqdb compact. Progress shows on
stderr as for import (--progress): selecting the games, then each index
as it is rewritten.

Example:
   xqdb delete --dry-run --source wrong-file.pgn
   xqdb delete 42 43
   xqdb delete --query 'event:"Manhattan blitz" date:1971'`,
	Flags: []cli.Flag{dbFlag,
		&cli.StringFlag{Name: "query", Aliases: []string{"q"}, Usage: "delete the games matching this metadata query"},
		&cli.StringSliceFlag{Name: "source", Usage: "delete the games imported from this file"},
		&cli.BoolFlag{Name: "dry-run", Usage: "only say what would be deleted"},
		progressFlag, jsonFlag},
	Action: runDelete,
}

// deleteSummary is the --json output of delete.
type deleteSummary struct {
	Deleted   int      `json:"deleted"` // games removed (or that would be, with --dry-run)
	DryRun    bool     `json:"dry_run"`
	IDs       []uint32 `json:"ids"`
	GamesLeft int      `json:"games_left"`
}

func runDelete(c *cli.Context) error {
	var ids []uint32
	for _, a := range c.Args().Slice() {
		n, err := strconv.ParseUint(a, 10, 32)
		if err != nil || n == 0 {
			return usagef("delete: %q is not a game id", a)
		}
		ids = append(ids, uint32(n))
	}
	q, sources := c.String("query"), c.StringSlice("source")
	if len(ids) == 0 && q == "" && len(sources) == 0 {
		return usagef("delete: say which games: ids, --query or --source (see xqdb delete --help)")
	}
	if err := index.ValidateQuery(q); q != "" && err != nil {
		return usageError{err}
	}
	dir := c.String("db")
	if _, err := os.Stat(filepath.Join(dir, "badger")); err != nil {
		return fmt.Errorf("%w: %s", index.ErrNoStore, dir)
	}
	s, err := index.Open(dir, index.Options{ReadOnly: c.Bool("dry-run")})
	if err != nil {
		return err
	}
	defer s.Close()
	// Selecting by --query or --source and rewriting the indexes take
	// seconds on a large database: the common meter shows which step runs.
	pm, err := startProgress(c, "delete", "selecting the games", "", 0)
	if err != nil {
		return err
	}
	defer pm.Done()
	var missing []string
	for _, gid := range ids {
		if !s.Has(gid) {
			missing = append(missing, strconv.FormatUint(uint64(gid), 10))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("delete: no game %s in %s; nothing deleted", strings.Join(missing, ", "), dir)
	}
	if q != "" {
		found, err := s.Search(nil, q)
		if err != nil {
			return err
		}
		ids = append(ids, found...)
	}
	if len(sources) > 0 {
		var paths []string
		for _, f := range sources {
			paths = append(paths, f, filepath.Clean(f))
			if abs, err := filepath.Abs(f); err == nil {
				paths = append(paths, abs)
			}
		}
		found, err := s.GamesFrom(paths...)
		if err != nil {
			return err
		}
		ids = append(ids, found...)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	sum := deleteSummary{Deleted: len(ids), DryRun: c.Bool("dry-run"), IDs: ids}
	if sum.IDs == nil {
		sum.IDs = []uint32{}
	}
	pm.Games(len(ids))
	if !sum.DryRun {
		if err := s.DeleteReporting(ids, func(what string) { pm.Phase("removing them from the "+deleteSteps[what], "", 0) }); err != nil {
			if errors.Is(err, index.ErrNoGame) {
				return fmt.Errorf("delete: %w; nothing deleted", err)
			}
			return err
		}
	}
	sum.GamesLeft = s.Games()
	if sum.DryRun {
		sum.GamesLeft -= len(ids)
	}
	pm.Done()
	if c.Bool("json") {
		return writeJSON(c.App.Writer, sum)
	}
	verb := "deleted"
	if sum.DryRun {
		verb = "would delete"
	}
	fmt.Fprintf(c.App.Writer, "%s %d games from %s (%d left)%s\n", verb, sum.Deleted, dir, sum.GamesLeft, idList(ids))
	return nil
}

// deleteSteps names the steps of index.Store.DeleteReporting for the meter.
var deleteSteps = map[string]string{
	"positions": "position index", "attributes": "attributes", "records": "game records",
}

// idList shows the first ids of a list.
func idList(ids []uint32) string {
	if len(ids) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(": ")
	for i, gid := range ids {
		if i == 20 {
			fmt.Fprintf(&b, " … and %d more", len(ids)-i)
			break
		}
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(strconv.FormatUint(uint64(gid), 10))
	}
	return b.String()
}
