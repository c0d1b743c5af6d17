package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/index"
)

var migrateCommand = &cli.Command{
	Name:      "migrate",
	Usage:     "rewrite a database written by an older xqdb in this one's format",
	ArgsUsage: " ",
	Description: `Brings the database to the current on-disk format (schema version 11) in
place. A version 5 or 6 database (xqdb before and during the growth work of
issue 18) keys its position index and its game records by kind first;
version 7 keys them by the import run that wrote them, so that an import's
keys sort after all stored before. migrate rewrites those keys, which
takes about as long as reading the database once. Version 8 lets a small
import write coarser position blocks; a version 7 database is already
valid and only gets the new version number (at once). Version 9 keeps the
position index's runs and the global keys in Badgers of their own, where
migrate moves them. Version 11 indexes each distinct tag value once, with
the games that have it, not each game: migrate indexes the metadata of a
version 9 or 10 database again (as reindex --metadata does). Older
versions cannot be migrated: export their games with the xqdb that wrote
them and import them into a new folder. Other commands refuse an older
database with a message that says which to do. Stopped half-way, migrate
can be run again; on a current database it does nothing.

Example:
   xqdb migrate --db ./xqdb-data`,
	Flags:  []cli.Flag{dbFlag, jsonFlag},
	Action: runMigrate,
}

type migrateSummary struct {
	From int `json:"from_version"`
	To   int `json:"to_version"`
}

func runMigrate(c *cli.Context) error {
	from, err := index.Migrate(c.String("db"))
	if err != nil {
		return err
	}
	if from != index.SchemaVersion {
		// Version 11 indexes the metadata anew: now, rather than at the
		// next import (reindex --metadata does the same).
		s, err := index.Open(c.String("db"), index.Options{Existing: true, Opening: classifyRecord})
		if err != nil {
			return err
		}
		err = s.ReindexMetadata()
		if cerr := s.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	sum := migrateSummary{From: int(from), To: index.SchemaVersion}
	if c.Bool("json") {
		return writeJSON(c.App.Writer, sum)
	}
	if sum.From == sum.To {
		fmt.Fprintf(c.App.Writer, "%s already has schema version %d: nothing to do\n", c.String("db"), sum.To)
		return nil
	}
	fmt.Fprintf(c.App.Writer, "migrated %s from schema version %d to %d\n", c.String("db"), sum.From, sum.To)
	return nil
}
