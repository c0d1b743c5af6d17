package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// Conventions every command shares (issue 14), applied to the command tree
// once: flags may follow the positional arguments, a bad flag is a one-line
// usage error, and counts are checked before any work starts.

// flagsFirst moves each command's flags before its positional arguments
// (urfave/cli, like Go's flag package, stops reading flags at the first
// argument): `xqdb show 42 --notation wxf` reads as `xqdb show --notation
// wxf 42`. Everything after "--" stays as it is.
func flagsFirst(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	out := []string{args[0]}
	rest := args[1:]
	cmds := app.Commands
	flags := app.Flags
	// Walk down the command path: app flags, then each (sub)command name.
	for {
		i := 0
		var moved, positional []string
		var next *cli.Command
		for i < len(rest) {
			a := rest[i]
			if a == "--" {
				positional = append(positional, rest[i:]...)
				break
			}
			if strings.HasPrefix(a, "-") && len(a) > 1 {
				moved = append(moved, a)
				if takesValue(flags, a) && !strings.Contains(a, "=") && i+1 < len(rest) {
					moved = append(moved, rest[i+1])
					i++
				}
				i++
				continue
			}
			if len(positional) == 0 && next == nil {
				if c := findCommand(cmds, a); c != nil {
					next = c
					rest = rest[i+1:]
					break
				}
			}
			positional = append(positional, a)
			i++
		}
		out = append(out, moved...)
		if next == nil {
			return append(out, positional...)
		}
		out = append(out, positional...) // none: a command name comes first
		out = append(out, next.Name)
		cmds, flags = next.Subcommands, next.Flags
	}
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// takesValue reports whether the flag written as arg (-x, --name) takes
// the next argument as its value.
func takesValue(flags []cli.Flag, arg string) bool {
	name := strings.TrimLeft(arg, "-")
	for _, f := range flags {
		for _, n := range f.Names() {
			if n != name {
				continue
			}
			if _, ok := f.(*cli.BoolFlag); ok {
				return false
			}
			return true
		}
	}
	return false
}

// countBounds are the ranges of the counts users give; outside them a
// value is a usage error, not a panic or a silent "all".
var countBounds = map[string][2]int64{
	"limit":     {0, 1_000_000_000},
	"offset":    {0, 1_000_000_000},
	"jobs":      {1, 1024},
	"run-games": {1, 10_000_000},
	"games":     {1, 1_000_000_000},
	"hash":      {1, 65536},
}

// conventions gives every command of the tree the shared behaviour: its
// usage errors are one line naming the command's help, and its counts are
// checked against countBounds.
func conventions(cmds []*cli.Command, path string) {
	for _, c := range cmds {
		full := strings.TrimSpace(path + " " + c.Name)
		// urfave/cli prefixes a command's HelpName with its parent's each
		// time it runs one; the commands are package variables that tests
		// run many times, so each run starts afresh.
		c.HelpName = ""
		if c.OnUsageError == nil {
			c.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
				return usageError{fmt.Errorf("%s: %w; see xqdb %s --help", full, err, full)}
			}
		}
		for _, f := range c.Flags {
			switch f := f.(type) {
			case *cli.IntFlag:
				if b, ok := countBounds[f.Name]; ok && f.Action == nil {
					f.Action = func(_ *cli.Context, v int) error { return checkCount(f.Name, int64(v), b) }
				}
			case *cli.Int64Flag:
				if b, ok := countBounds[f.Name]; ok && f.Action == nil {
					f.Action = func(_ *cli.Context, v int64) error { return checkCount(f.Name, v, b) }
				}
			}
		}
		conventions(c.Subcommands, full)
	}
}

func checkCount(name string, v int64, b [2]int64) error {
	if v < b[0] || v > b[1] {
		return usagef("--%s %d is out of range (%d to %d)", name, v, b[0], b[1])
	}
	return nil
}
