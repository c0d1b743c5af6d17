// Command xqdb is a game-record database and position search tool for
// Xiangqi and chess. Each subcommand lives in its own file.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/index"
)

// Exit codes (DESIGN.md "CLI contract").
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
	// exitInterrupted is an import stopped by Ctrl-C or SIGTERM, its games
	// saved so far (128 + SIGINT, as shells report it).
	exitInterrupted = 130
	// exitBusy (busy.go): the database is being written by another process.
)

func main() {
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

// run executes the CLI and maps its error to an exit code; tests call it
// with captured writers. Errors go to stderr as one line ("xqdb: …"), or
// under --json as one JSON object {"error","kind","hint"}.
func run(args []string, stdout, stderr io.Writer) int {
	app := newApp(stdout, stderr)
	conventions(app.Commands, "")
	args = flagsFirst(app, args)
	unknown := false
	app.CommandNotFound = func(c *cli.Context, name string) {
		unknown = true
		report(stderr, args, usagef("no command %q", name), "usage", "see xqdb --help")
	}
	err := app.Run(args)
	if unknown {
		return exitUsage
	}
	if err == nil {
		return exitOK
	}
	if be, ok := databaseBusy(err); ok {
		report(stderr, args, be, "busy", "")
		return exitBusy
	}
	var ue usageError
	var qe *index.QueryError
	switch {
	case errors.As(err, &qe):
		report(stderr, args, err, "query", qe.Hint)
		return exitUsage
	case errors.As(err, &ue):
		report(stderr, args, err, "usage", "")
		return exitUsage
	}
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		if msg := err.Error(); msg != "" {
			report(stderr, args, err, "failure", "")
		}
		return ec.ExitCode()
	}
	if errors.Is(err, index.ErrNoMetadata) {
		report(stderr, args, err, "failure", "rebuild it from the game records with xqdb reindex --metadata")
		return exitFailure
	}
	report(stderr, args, err, "failure", "")
	return exitFailure
}

// report writes an error for a person (one line) or, when the command
// line asks for --json, for a script.
func report(w io.Writer, args []string, err error, kind, hint string) {
	for _, a := range args[1:] {
		if a == "--" {
			break
		}
		if a == "--json" || a == "-json" || a == "--json=true" {
			_ = writeJSON(w, struct {
				Error string `json:"error"`
				Kind  string `json:"kind"`
				Hint  string `json:"hint,omitempty"`
			}{err.Error(), kind, hint})
			return
		}
	}
	msg := err.Error()
	if hint != "" && !strings.Contains(msg, hint) {
		msg += "; " + hint
	}
	fmt.Fprintf(w, "xqdb: %s\n", msg)
}

// usageError marks an error in how xqdb was called (exit code 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

func newApp(stdout, stderr io.Writer) *cli.App {
	if _, ok := stderr.(*os.File); !ok {
		// A command's messages and its progress lines (meter.tick) come
		// from two goroutines; a file orders them, a buffer (tests, demo)
		// does not.
		stderr = &lockedWriter{w: stderr}
	}
	return &cli.App{
		Name:      "xqdb",
		Usage:     "game database and position search for Xiangqi and chess",
		Version:   version(),
		Writer:    stdout,
		ErrWriter: stderr,
		// Bad flags and unknown commands are usage errors: exit 2.
		OnUsageError: func(c *cli.Context, err error, isSubcommand bool) error {
			return usageError{fmt.Errorf("%w; see xqdb --help", err)}
		},
		// run maps errors to exit codes; urfave must not exit by itself.
		ExitErrHandler:  func(*cli.Context, error) {},
		HideHelpCommand: false,
		Commands:        commands(),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cpuprofile", Hidden: true, Usage: "write a CPU profile here (for developers)"},
			&cli.StringFlag{Name: "memprofile", Hidden: true, Usage: "write an allocation profile here on exit (for developers)"},
			&cli.StringFlag{Name: "trace", Hidden: true, Usage: "write an execution trace here (for developers: go tool trace)"},
		},
		Before: func(c *cli.Context) error {
			if err := startRecording(c.String("cpuprofile"), pprof.StartCPUProfile); err != nil {
				return err
			}
			return startRecording(c.String("trace"), trace.Start)
		},
		After: func(c *cli.Context) error {
			if c.String("cpuprofile") != "" {
				pprof.StopCPUProfile()
			}
			if c.String("trace") != "" {
				trace.Stop()
			}
			if path := c.String("memprofile"); path != "" {
				f, err := os.Create(path)
				if err != nil {
					return err
				}
				defer f.Close()
				// The profile is as of the last collection: without one
				// here it left out what the command allocated after it (an
				// import's merges and Close).
				runtime.GC()
				return pprof.Lookup("allocs").WriteTo(f, 0)
			}
			return nil
		},
	}
}

// commands lists the subcommands in the order --help shows them.
func commands() []*cli.Command {
	return []*cli.Command{perftCommand, positionCommand, cleanCommand, convertCommand, importCommand, twinsCommand, deleteCommand, compactCommand, migrateCommand, classifyCommand, treeCommand, gamesCommand, showCommand, exportCommand, bookCommand, statsCommand, serveCommand, storeCommand, checkCommand, reindexCommand, demoCommand, uciCommand, selfplayCommand, versionCommand}
}

// lockedWriter makes w safe for concurrent writes.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// startRecording starts a recorder (the CPU profile, the execution trace)
// into a new file at path, when path is set; After stops it.
func startRecording(path string, start func(io.Writer) error) error {
	if path == "" {
		return nil
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return start(f)
}
