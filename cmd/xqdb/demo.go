package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/index"
)

// demoFiles are the real games bundled in testdata/ (see its SOURCES.md).
var demoFiles = []string{"ccpd-masters-3001.pgn.gz", "pgnmentor-capablanca-fischer.pgn.gz"}

var demoCommand = &cli.Command{
	Name:      "demo",
	Usage:     "build a database from the bundled real games and query it",
	ArgsUsage: " ",
	Description: `Imports the real games bundled in the repository's testdata folder (3,001
Xiangqi master games from CCPD, CC BY 4.0, and 1,425 chess games of
Capablanca and Fischer) into --db, then prints an opening tree, a position
search and a metadata search. Run it again: the games are already there, so
nothing is added. Explore the database afterwards with tree, games and show.

--json prints one object: {"db", "steps": [{"title", "command", "output"}]},
where command is the xqdb command line of a step and output its own --json
output (import's summary, a tree, a games list, stats).

Example:
   xqdb demo
   xqdb demo --db ~/xqdb-demo --json`,
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "db", Value: "./xqdb-demo", Usage: "database folder to build"},
		&cli.StringFlag{Name: "data", Usage: "folder holding the bundled games (default: testdata/ of the repository)"},
		jsonFlag,
	},
}

// demoJSON is the JSON of xqdb demo: each step's command and its --json.
type demoJSON struct {
	DB    string         `json:"db"`
	Steps []demoStepJSON `json:"steps"`
}

type demoStepJSON struct {
	Title   string          `json:"title"`
	Command string          `json:"command"`
	Output  json.RawMessage `json:"output"`
}

// The demo runs other commands through run, which lists demoCommand: set
// its action after initialisation to break the cycle.
func init() { demoCommand.Action = runDemo }

func runDemo(c *cli.Context) error {
	data := c.String("data")
	if data == "" {
		data = findTestdata()
	}
	var files []string
	for _, f := range demoFiles {
		p := filepath.Join(data, f)
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("demo: %s not found; run the demo from the repository (or pass --data DIR): %w", p, err)
		}
		files = append(files, p)
	}
	db := c.String("db")
	w := c.App.Writer
	asJSON := c.Bool("json")
	if asJSON {
		w = c.App.ErrWriter // notes for a person; the JSON is written at the end
	}
	out := demoJSON{DB: db, Steps: []demoStepJSON{}}
	if !c.IsSet("db") {
		// The default folder is the demo's own: one another xqdb version
		// built is rebuilt rather than refused.
		if s, err := index.Open(db, index.Options{ReadOnly: true}); errors.Is(err, index.ErrSchemaMismatch) {
			fmt.Fprintf(w, "%s was built by another version of xqdb: building it again\n", db)
			if err := os.RemoveAll(db); err != nil {
				return err
			}
		} else if err == nil {
			s.Close()
		}
	}
	step := func(title string, args ...string) error {
		if asJSON {
			var b bytes.Buffer
			if code := run(append([]string{"xqdb"}, append(args, "--json")...), &b, c.App.ErrWriter); code != exitOK {
				return cli.Exit("", code)
			}
			out.Steps = append(out.Steps, demoStepJSON{Title: title, Command: "xqdb " + quoteArgs(args), Output: bytes.TrimSpace(b.Bytes())})
			return nil
		}
		fmt.Fprintf(w, "\n== %s\n$ xqdb %s\n", title, quoteArgs(args))
		if code := run(append([]string{"xqdb"}, args...), w, c.App.ErrWriter); code != exitOK {
			return cli.Exit("", code)
		}
		return nil
	}
	steps := [][]string{
		append([]string{"import", "--db", db}, files...),
		{"tree", "--db", db, "--moves", "炮二平五 馬８進７", "--mirror", "--limit", "8"},
		{"games", "--db", db, "--moves", "h2e2 h9g7 h0g2 i9h9", "--query", `black:"胡榮華"`, "--limit", "5"},
		{"games", "--db", db, "--query", `red:吕钦 result:1-0 date:>="1990"`, "--sort", "date", "--limit", "5"},
		{"tree", "--db", db, "--game", "chess", "--moves", "e4 e5 Nf3 Nc6 Bb5", "--limit", "6"},
		{"stats", "--db", db},
	}
	titles := []string{
		"import the bundled games (Xiangqi and chess)",
		"Xiangqi: after the central cannon and the horse reply, mirror images folded in",
		"position search: central cannon openings Hu Ronghua (胡榮華) played with Black",
		"metadata search: Lü Qin's wins with Red since 1990 (typed 吕钦, stored 呂欽)",
		"chess: the Ruy Lopez",
		"what the database holds",
	}
	for i, args := range steps {
		if err := step(titles[i], args...); err != nil {
			return err
		}
	}
	if asJSON {
		return writeJSON(c.App.Writer, out)
	}
	fmt.Fprintf(w, "\nExplore it: xqdb tree --db %s --moves \"h2e2\"; xqdb games --db %s --query 'white:fischer'; xqdb show --db %s 1\n", db, db, db)
	return nil
}

// findTestdata looks for the repository's testdata folder from the working
// directory upwards.
func findTestdata() string {
	dir, err := os.Getwd()
	if err != nil {
		return "testdata"
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "testdata", demoFiles[0])); err == nil {
			return filepath.Join(d, "testdata")
		}
		if filepath.Dir(d) == d {
			return "testdata"
		}
	}
}

func quoteArgs(args []string) string {
	s := ""
	for i, a := range args {
		if i > 0 {
			s += " "
		}
		if a == "" || containsAny(a, " '\"*") {
			a = "'" + a + "'"
		}
		s += a
	}
	return s
}

func containsAny(s, chars string) bool {
	for _, c := range chars {
		for _, d := range s {
			if c == d {
				return true
			}
		}
	}
	return false
}
