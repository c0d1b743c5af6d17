package main

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/index"
	_ "github.com/xqdb/xqdb/index/clickhouse" // clickhouse:// databases
)

// storeFlag selects another backend than the --db folder (issue 19).
var storeFlag = &cli.StringFlag{Name: "store", EnvVars: []string{"XQDB_STORE"},
	Usage: "the database in another backend instead of --db: clickhouse://HOST:PORT[,HOST:PORT…]/DB[?cluster=NAME] (HTTP ports)"}

// location is where a command's database is: --store, else --db.
func location(c *cli.Context) string {
	if s := c.String("store"); s != "" {
		return s
	}
	return c.String("db")
}

var storeCommand = &cli.Command{
	Name:  "store",
	Usage: "move a database between backends",
	Subcommands: []*cli.Command{{
		Name:      "copy",
		Usage:     "copy every game of a database into another (a folder into ClickHouse)",
		ArgsUsage: " ",
		Description: `Reads every game of --from (a database folder or URL) in id order and adds
it to --to, as an import would: the games keep their ids when --to is new,
and a copy run again adds nothing.

Example:
   xqdb store copy --from xqdb-data --to clickhouse://127.0.0.1:8123/xqdb`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Usage: "database to read (folder or URL; required)"},
			&cli.StringFlag{Name: "to", Usage: "database to add to (folder or URL; required)"},
			&cli.IntFlag{Name: "run-games", Value: 50_000, Usage: "games per insert batch"},
			jsonFlag,
		},
		Action: runStoreCopy,
	}},
}

type storeCopyJSON struct {
	Games     int     `json:"games"`
	Added     int     `json:"added"`
	Positions int     `json:"positions"`
	Seconds   float64 `json:"seconds"`
}

func runStoreCopy(c *cli.Context) error {
	start := time.Now()
	for _, f := range []string{"from", "to"} {
		if err := required(c, f, "DB"); err != nil {
			return err
		}
	}
	if c.String("from") == c.String("to") {
		return usagef("store copy: --from and --to are the same database")
	}
	src, err := index.OpenDB(c.String("from"), index.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := index.OpenDB(c.String("to"), index.Options{RunGames: c.Int("run-games"), Opening: classifyRecord})
	if err != nil {
		return err
	}
	defer dst.Close()
	w, err := dst.NewGameWriter()
	if err != nil {
		return err
	}
	var sum storeCopyJSON
	err = index.CopyGames(src, w, classifyRecord, func(p *index.Prepared, res index.AddResult) {
		sum.Games++
		if !res.Duplicate {
			sum.Added++
			sum.Positions += p.Positions()
		}
	})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	sum.Seconds = time.Since(start).Seconds()
	if c.Bool("json") {
		return writeJSON(c.App.Writer, sum)
	}
	fmt.Fprintf(c.App.Writer, "copied %d games (%d added, %d positions) from %s to %s in %.1fs; it holds %d games\n",
		sum.Games, sum.Added, sum.Positions, src.Dir(), dst.Dir(), sum.Seconds, dst.Games())
	return nil
}
