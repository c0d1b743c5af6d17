package main

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/query"
	"github.com/xqdb/xqdb/query/api"
)

// While xqdb serve runs on a database it owns the store (Badger locks the
// folder), so import, tree, games, show and stats on that --db go through
// its API (issue 17): the same answers, in the same shapes, and reads
// answer during an import from the last committed run.

// serverOf returns a client of the server of --db, or nil when none runs
// (or when --store names another backend, which has no folder lock).
func serverOf(c *cli.Context) *api.Client {
	if c.String("store") != "" {
		return nil
	}
	return api.FindServer(c.String("db"))
}

// remoteError maps a server's refusal of a parameter to a usage error
// (exit 2), as the same mistake made locally is.
func remoteError(err error) error {
	var re *api.RemoteError
	if errors.As(err, &re) && re.BadRequest() {
		return usageError{err}
	}
	return err
}

// remoteParams are a position request's parameters from the flags: the
// game and notation as the command read them, and the flags named.
func remoteParams(c *cli.Context, g engine.Game, n engine.Notation, flags ...string) url.Values {
	v := url.Values{"game": {g.String()}}
	if n != engine.Auto {
		v.Set("notation", n.String())
	}
	for _, f := range flags {
		if !c.IsSet(f) {
			continue
		}
		switch f {
		case "mirror":
			v.Set(f, strconv.FormatBool(c.Bool(f)))
		case "limit", "offset":
			v.Set(f, strconv.Itoa(c.Int(f)))
		default:
			v.Set(f, c.String(f))
		}
	}
	return v
}

// remoteGames asks the server for the games of req, page by page when
// more than a page is asked (--limit 0: all).
func remoteGames(c *cli.Context, cl *api.Client, req query.ListRequest) (gamesJSON, error) {
	v := url.Values{}
	if req.Position != nil || c.IsSet("game") {
		g, err := parseGameFlag(c)
		if err != nil {
			return gamesJSON{}, err
		}
		v.Set("game", g.String())
	}
	for _, f := range []string{"fen", "moves", "query", "sort"} {
		if c.IsSet(f) {
			v.Set(f, c.String(f))
		}
	}
	if c.Bool("mirror") {
		v.Set("mirror", "true")
	}
	out := gamesJSON{Games: []gameLineJSON{}}
	offset, want := req.Offset, req.Limit
	for {
		page := api.MaxGames
		if want > 0 {
			page = min(page, want-len(out.Games))
		}
		v.Set("offset", strconv.Itoa(offset))
		v.Set("limit", strconv.Itoa(page))
		var part gamesJSON
		if err := cl.Get("/api/games", v, &part); err != nil {
			return out, remoteError(err)
		}
		out.Total = part.Total
		out.Games = append(out.Games, part.Games...)
		offset += len(part.Games)
		if len(part.Games) < page || (want > 0 && len(out.Games) >= want) || offset >= part.Total {
			return out, nil
		}
	}
}

// remoteImport sends an import to the server, follows its progress and
// prints the summary import prints.
func remoteImport(c *cli.Context, cl *api.Client, files []string) error {
	if c.IsSet("report") || c.IsSet("run-games") || c.IsSet("jobs") || c.IsSet("move-limit") {
		return usagef("xqdb serve runs the imports of %s (%s): --report, --run-games, --jobs and --move-limit are not sent to it; stop the server to use them", c.String("db"), cl.Info.URL)
	}
	paths := c.Args().Slice()
	if err := absolutePaths(paths); err != nil {
		return err
	}
	req := api.ImportRequest{Paths: paths, Dedupe: c.String("dedupe"), StrictResults: c.Bool("strict-results")}
	for _, f := range []struct {
		name string
		to   *string
	}{{"game", &req.Game}, {"notation", &req.Notation}, {"encoding", &req.Encoding}, {"rules", &req.Rules}} {
		if c.IsSet(f.name) {
			*f.to = c.String(f.name)
		}
	}
	var st api.ImportStatus
	if err := cl.Post("/api/import", req, &st); err != nil {
		var re *api.RemoteError
		if errors.As(err, &re) && re.Status/100 == 4 {
			return usageError{fmt.Errorf("xqdb serve at %s refused the import: %w", cl.Info.URL, err)}
		}
		return err
	}
	fmt.Fprintf(c.App.ErrWriter, "xqdb: %s is served at %s: the server runs this import (import %d); reads go on meanwhile\n", c.String("db"), cl.Info.URL, st.ID)
	m, err := startProgress(c, "import", "reading", "bytes", st.Bytes)
	if err != nil {
		return err
	}
	progress, finish := m.Add, m.Done
	done := int64(0)
	path := "/api/import/" + strconv.Itoa(st.ID)
	for st.State == "running" {
		time.Sleep(100 * time.Millisecond)
		if err := cl.Get(path, nil, &st); err != nil {
			finish()
			return fmt.Errorf("following import %d: %w", st.ID, err)
		}
		if progress != nil && st.BytesDone > done {
			progress(st.BytesDone - done)
			done = st.BytesDone
		}
	}
	finish()
	switch st.State {
	case "done":
	case "interrupted":
		saved := 0
		if st.Summary != nil {
			saved = st.Summary.Added
		}
		return cli.Exit(fmt.Sprintf("interrupted: the server stopped; %d games saved; rerun the same command to finish", saved), exitInterrupted)
	default:
		return fmt.Errorf("import %d: %s", st.ID, st.Error)
	}
	sum := *st.Summary
	if c.Bool("json") {
		return writeJSON(c.App.Writer, sum)
	}
	printImportSummary(c.App.Writer, sum, c.String("db"), st.GamesTotal)
	return nil
}
