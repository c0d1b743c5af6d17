// Command xqdb is a game-record database and position search tool for
// Xiangqi and chess. Each subcommand lives in its own file.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/index"
)

// Exit codes (DESIGN.md "CLI contract").
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

func main() {
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

// run executes the CLI and maps its error to an exit code; tests call it
// with captured writers.
func run(args []string, stdout, stderr io.Writer) int {
	app := newApp(stdout, stderr)
	unknown := false
	app.CommandNotFound = func(c *cli.Context, name string) {
		fmt.Fprintf(c.App.ErrWriter, "xqdb: no command %q; see xqdb --help\n", name)
		unknown = true
	}
	err := app.Run(args)
	if unknown {
		return exitUsage
	}
	if err == nil {
		return exitOK
	}
	var ue usageError
	if errors.As(err, &ue) || index.IsQueryError(err) {
		fmt.Fprintf(stderr, "xqdb: %v\n", err)
		return exitUsage
	}
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		if msg := err.Error(); msg != "" {
			fmt.Fprintf(stderr, "xqdb: %s\n", msg)
		}
		return ec.ExitCode()
	}
	fmt.Fprintf(stderr, "xqdb: %v\n", err)
	return exitFailure
}

// usageError marks an error in how xqdb was called (exit code 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

func newApp(stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name:      "xqdb",
		Usage:     "game database and position search for Xiangqi and chess",
		Writer:    stdout,
		ErrWriter: stderr,
		// Bad flags and unknown commands are usage errors: exit 2.
		OnUsageError: func(c *cli.Context, err error, isSubcommand bool) error {
			return usageError{err}
		},
		// run maps errors to exit codes; urfave must not exit by itself.
		ExitErrHandler:  func(*cli.Context, error) {},
		HideHelpCommand: false,
		Commands:        commands(),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cpuprofile", Hidden: true, Usage: "write a CPU profile here (for developers)"},
			&cli.StringFlag{Name: "memprofile", Hidden: true, Usage: "write an allocation profile here on exit (for developers)"},
		},
		Before: func(c *cli.Context) error {
			if path := c.String("cpuprofile"); path != "" {
				f, err := os.Create(path)
				if err != nil {
					return err
				}
				if err := pprof.StartCPUProfile(f); err != nil {
					return err
				}
			}
			return nil
		},
		After: func(c *cli.Context) error {
			if c.String("cpuprofile") != "" {
				pprof.StopCPUProfile()
			}
			if path := c.String("memprofile"); path != "" {
				f, err := os.Create(path)
				if err != nil {
					return err
				}
				defer f.Close()
				return pprof.Lookup("allocs").WriteTo(f, 0)
			}
			return nil
		},
	}
}

// commands lists the subcommands in the order --help shows them.
func commands() []*cli.Command {
	return []*cli.Command{perftCommand, positionCommand, cleanCommand, convertCommand, importCommand, classifyCommand, treeCommand, gamesCommand, showCommand, exportCommand, statsCommand, demoCommand, uciCommand, selfplayCommand}
}
