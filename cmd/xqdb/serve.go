package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/xiangqi"
	"github.com/xqdb/xqdb/importer/pgn"
	"github.com/xqdb/xqdb/importer/textenc"
	"github.com/xqdb/xqdb/index"
	"github.com/xqdb/xqdb/query/api"
	"github.com/xqdb/xqdb/query/book"
	"github.com/xqdb/xqdb/replay"
)

var serveCommand = &cli.Command{
	Name:      "serve",
	Usage:     "the web explorer and the JSON API of a database; it owns the store while it runs",
	ArgsUsage: " ",
	Description: `Serves the explorer page (a board, the tree of the position, its games and
a game viewer, for Xiangqi and chess) and the JSON API it uses: /api/tree,
/api/games, /api/game/ID, /api/position, /api/book, /api/stats and
/api/import, in the shapes of the CLI's --json. It listens on loopback unless
--addr says otherwise, prints the URL to open, and stops cleanly on Ctrl-C or
SIGTERM (an import it runs saves the games read so far).

While it runs, the server owns the database: it writes its address into
DIR/serve.json, and xqdb import, tree, games, show and stats on the same
--db go through it. An import sent to it commits run by run while the
explorer and the CLI keep reading the last committed run. Imports read only
files below the --import-root folders.

Example:
   xqdb serve --db xqdb-demo --import-root ~/games
   xqdb import --db xqdb-demo ~/games/new.pgn     # sent to the server`,
	Flags: []cli.Flag{dbFlag,
		&cli.StringFlag{Name: "addr", Value: "127.0.0.1:8080", Usage: "host:port to listen on (port 0: any free port)"},
		&cli.StringSliceFlag{Name: "book", Usage: "an opening book /api/book probes (.bin, .dat, .obk; repeat for more)"},
		&cli.StringSliceFlag{Name: "import-root", Usage: "a folder /api/import may read below (repeat for more; none: no imports)"},
		&cli.IntFlag{Name: "run-games", Value: 50_000, Usage: "games an import buffers before each commit"},
		jsonFlag,
	},
	Action: runServe,
}

func runServe(c *cli.Context) error {
	dir := c.String("db")
	if c.NArg() > 0 {
		return usagef("serve takes no arguments (the database is --db)")
	}
	if cl := api.FindServer(dir); cl != nil {
		return fmt.Errorf("%s is already served at %s (pid %d)", dir, cl.Info.URL, cl.Info.PID)
	}
	var roots []string
	for _, r := range c.StringSlice("import-root") {
		abs, err := filepath.Abs(r)
		if err != nil {
			return err
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return usagef("--import-root %s is not a folder", r)
		}
		roots = append(roots, abs)
	}
	var books []*book.Book
	for _, path := range c.StringSlice("book") {
		f, err := book.FormatOf(path)
		if err != nil {
			return usageError{err}
		}
		bk, err := book.Open(path, f)
		if err != nil {
			return err
		}
		defer bk.Close()
		books = append(books, bk)
	}
	s, err := index.Open(dir, index.Options{RunGames: c.Int("run-games"), Opening: classifyRecord})
	switch {
	case errors.Is(err, index.ErrNotDatabase):
		return usageError{err}
	case err != nil && strings.Contains(err.Error(), "Cannot acquire directory lock"):
		return fmt.Errorf("%s is in use by another xqdb (an import?); serve it when that has finished: %w", dir, err)
	case err != nil:
		return err
	}
	defer s.Close()
	ln, err := net.Listen("tcp", c.String("addr"))
	if err != nil {
		return usagef("--addr %s: %v", c.String("addr"), err)
	}
	// Before the URL is printed: a script that reads it and then sends
	// SIGTERM must find the handler in place, not the default that kills
	// the process (which left the serve file behind).
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := newAPIServer(s, books, c.StringSlice("book"), roots)
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		MaxHeaderBytes: api.MaxQueryBytes + 8<<10}
	addr := ln.Addr().String()
	if err := api.WriteServeFile(dir, addr); err != nil {
		ln.Close()
		return err
	}
	defer api.RemoveServeFile(dir)
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok && !tcp.IP.IsLoopback() {
		fmt.Fprintf(c.App.ErrWriter, "xqdb: warning: listening on %s, not loopback: anyone who reaches it reads the database\n", addr)
	}
	if c.Bool("json") {
		// One line for scripts: where the server listens.
		if err := writeJSON(c.App.Writer, api.ServeInfo{PID: os.Getpid(), Addr: addr, URL: "http://" + addr + "/"}); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(c.App.Writer, "xqdb: serving %s (%d games) at http://%s/ — open it in a browser; Ctrl-C stops\n", dir, s.Games(), addr)
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err = <-errc:
	case <-ctx.Done():
		stop()
		fmt.Fprintln(c.App.ErrWriter, "xqdb: stopping")
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = hs.Shutdown(sctx)
		cancel()
	}
	srv.Close() // an import saves what it read and commits
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// newAPIServer serves store s with what the CLI knows: PGN as show writes
// it, imports as import runs them.
func newAPIServer(s *index.Store, books []*book.Book, bookNames, roots []string) *api.Server {
	// Load the attributes before an import can grow them (Read loads them
	// only when none are in memory).
	_ = s.Read(func() error { return nil })
	return api.New(api.Config{Store: s, Books: books, BookNames: bookNames, ImportRoots: roots,
		PGN: func(r *index.Record, n engine.Notation, annotate bool) string {
			if n == engine.Auto || n.Game() != r.Game {
				n = engine.Chinese // show's default (exportNotation)
				if r.Game == engine.Chess {
					n = engine.SAN
				}
			}
			var b strings.Builder
			w := pgn.NewWriter(&b)
			writeStored(w, r, n, annotate)
			w.Flush()
			return b.String()
		},
		Import: func(req api.ImportRequest, files []string) (func(context.Context, func(int64)) (api.ImportSummary, error), error) {
			job, err := serverImportJob(req, files)
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context, progress func(int64)) (api.ImportSummary, error) {
				job.progress = progress
				return job.run(ctx, s)
			}, nil
		},
	})
}

// serverImportJob reads an import request's options as import reads its
// flags.
func serverImportJob(req api.ImportRequest, files []string) (*importJob, error) {
	var g engine.Game
	if req.Game != "" && req.Game != "auto" {
		var err error
		if g, err = engine.ParseGame(req.Game); err != nil {
			return nil, api.ParamError("game", err)
		}
	}
	n, err := engine.ParseNotation(req.Notation)
	if err != nil {
		return nil, api.ParamError("notation", err)
	}
	if g != engine.UnknownGame && n != engine.Auto && n.Game() != g {
		return nil, api.ParamError("notation", fmt.Errorf("%v is not a %v notation", n, g))
	}
	dedupe := index.DedupeGame
	if req.Dedupe != "" {
		if dedupe, err = index.ParseDedupe(req.Dedupe); err != nil {
			return nil, api.ParamError("dedupe", err)
		}
	}
	enc := textenc.Auto
	if req.Encoding != "" {
		enc, err = textenc.Parse(req.Encoding)
	}
	if err != nil {
		return nil, api.ParamError("encoding", err)
	}
	profile, err := xiangqi.ParseProfile(req.Rules)
	if err != nil {
		return nil, api.ParamError("rules", err)
	}
	rules := xiangqi.Rules{Profile: profile, MoveLimit: xiangqi.DefaultMoveLimit}
	return &importJob{files: files, jobs: runtime.NumCPU(), encoding: enc, dedupe: dedupe, warn: discard{},
		replayer: replay.Replayer{Game: g, Notation: n, Rules: rules, StrictResults: req.StrictResults, Ranks: true, KeepEmpty: true}}, nil
}

type discard struct{}

func (discard) Write(b []byte) (int, error) { return len(b), nil }
