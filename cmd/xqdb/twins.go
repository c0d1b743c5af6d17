package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/index"
	"github.com/xqdb/xqdb/query"
)

var twinsCommand = &cli.Command{
	Name:      "twins",
	Usage:     "list groups of games with the same moves and other metadata",
	ArgsUsage: " ",
	Description: `Lists the stored games that share their start and every move but were kept
apart because their players, date or result differ (import --dedupe game):
often one game under two spellings, a wrong result or a mislabelled
record, sometimes two real games. Each group shows every game's id,
players, date, result, event and source file, for you to decide on; remove
the wrong copies with xqdb delete ID....

--query keeps the groups where at least one game matches the metadata
query (the syntax of xqdb games).

Example:
   xqdb twins --query 'alekhine' --limit 10
   xqdb delete 4425                # a wrong copy, by its id`,
	Flags: []cli.Flag{dbFlag,
		&cli.StringFlag{Name: "query", Aliases: []string{"q"}, Usage: "only groups with a game matching this metadata query"},
		&cli.IntFlag{Name: "limit", Value: 100, Usage: "groups to list (0: all)"},
		jsonFlag},
	Action: runTwins,
}

// twinsJSON is the JSON of xqdb twins.
type twinsJSON struct {
	Total  int             `json:"total"` // groups in all
	Groups []twinGroupJSON `json:"groups"`
}

type twinGroupJSON struct {
	Plies int            `json:"plies"`
	Games []twinGameJSON `json:"games"`
}

type twinGameJSON struct {
	gameLineJSON
	Source     string `json:"source"`
	SourceGame int    `json:"source_game"` // its place in the source file, from 1
}

func runTwins(c *cli.Context) error {
	q := c.String("query")
	if err := index.ValidateQuery(q); err != nil {
		return usageError{err}
	}
	if c.Int("limit") < 0 {
		return usagef("--limit must not be negative")
	}
	s, err := openStore(c)
	if err != nil {
		return err
	}
	defer s.Close()
	groups, err := s.TwinGroups()
	if err != nil {
		return err
	}
	if q != "" {
		var members []uint32
		for _, g := range groups {
			members = append(members, g...)
		}
		match, err := s.Search(members, q)
		if err != nil {
			return err
		}
		ok := make(map[uint32]bool, len(match))
		for _, gid := range match {
			ok[gid] = true
		}
		kept := groups[:0]
		for _, g := range groups {
			for _, gid := range g {
				if ok[gid] {
					kept = append(kept, g)
					break
				}
			}
		}
		groups = kept
	}
	out := twinsJSON{Total: len(groups), Groups: []twinGroupJSON{}}
	if n := c.Int("limit"); n > 0 && len(groups) > n {
		groups = groups[:n]
	}
	for _, g := range groups {
		grp := twinGroupJSON{Plies: int(s.Attrs(g[0]).Plies)}
		for _, gid := range g {
			r, err := s.Game(gid)
			if err != nil {
				return err
			}
			grp.Games = append(grp.Games, twinGameJSON{gameLine(query.GameRow{Record: r, Attrs: s.Attrs(gid), Ply: -1}), r.Source.File, r.Source.Index})
		}
		out.Groups = append(out.Groups, grp)
	}
	if c.Bool("json") {
		return writeJSON(c.App.Writer, out)
	}
	w := c.App.Writer
	fmt.Fprintf(w, "%d groups of games with the same moves and other metadata\n", out.Total)
	for _, g := range out.Groups {
		fmt.Fprintf(w, "\n%d games, %d plies:\n", len(g.Games), g.Plies)
		for _, l := range g.Games {
			fmt.Fprintf(w, "%7d  %-10s %-7s %s – %s, %s  (%s game %d)\n", l.ID, l.Date, l.Result, l.White, l.Black, l.Event, l.Source, l.SourceGame)
		}
	}
	return nil
}
