package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/importer"
	"github.com/xqdb/xqdb/importer/pgn"
	"github.com/xqdb/xqdb/query/api"
	"github.com/xqdb/xqdb/query/opening"
	"github.com/xqdb/xqdb/replay"
)

var classifyCommand = &cli.Command{
	Name:      "classify",
	Usage:     "add each game's opening (ECO or ECCO code and name) to its tags, as pgn-extract -e does",
	ArgsUsage: "PATH...",
	Description: `Reads every record of the archives (PGN, XQF, DhtmlXQ, CCBridge .cbl/.cbr, any encoding),
replays it, and writes every game back as UTF-8 PGN with an ECO tag (chess)
or an ECCO tag (Xiangqi) and an Opening tag (and Variation, when the ECCO
code has one), in place of the tags of that name the game had. The rest of
the game is written as read. Output goes to standard output unless -o is
given.

Chess is classified by position: the deepest position of the game that
lichess's opening table names (so transpositions get the same name). A
game that reaches no named position keeps its tags. Xiangqi is classified
by the order of the first 20 plies, as xqbase's classifier does, with a
table learned from the CCPD's labelled games; a game from a set-up
position is A00.

A record that does not replay is written back unchanged and reported on
standard error. --json writes a JSON line per game instead of PGN:
{"file","game","opening","opening_name"} (or "error").

Example:
   xqdb classify games.pgn > classified.pgn
   xqdb classify --json -o openings.jsonl archive/`,
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "game", Aliases: []string{"g"}, Value: "auto", Usage: "auto, xiangqi or chess"},
		fromFlag,
		&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "output file (default: standard output)"},
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), DefaultText: "the number of cores", Usage: "replay on this many workers"},
		jsonFlag,
	},
	Action: runClassify,
}

// classifyJSON is a line of classify --json.
type classifyJSON struct {
	File        string `json:"file"`
	Game        int    `json:"game"`
	Opening     string `json:"opening,omitempty"`
	OpeningName string `json:"opening_name,omitempty"`
	Error       string `json:"error,omitempty"`
}

// openingTags are the tags a classification replaces.
var openingTags = []string{"ECO", "ECCO", "Opening", "Variation", "SubVariation"}

// classifiedTags returns tags without their opening tags, followed by
// the tags of o: ECO or ECCO, Opening, and Variation when o has one.
func classifiedTags(tags []importer.Tag, g engine.Game, o opening.Opening) []importer.Tag {
	out := make([]importer.Tag, 0, len(tags)+3)
	for _, t := range tags {
		drop := false
		for _, n := range openingTags {
			drop = drop || strings.EqualFold(t.Name, n)
		}
		if !drop {
			out = append(out, t)
		}
	}
	code := "ECO"
	if g == engine.Xiangqi {
		code = "ECCO"
	}
	out = append(out, importer.Tag{Name: code, Value: o.Code}, importer.Tag{Name: "Opening", Value: o.Name})
	if o.Variation != "" {
		out = append(out, importer.Tag{Name: "Variation", Value: o.Variation})
	}
	return out
}

func runClassify(c *cli.Context) error {
	g, n, err := readGameNotation(c)
	if err != nil {
		return err
	}
	files, err := inputFiles(c)
	if err != nil {
		return err
	}
	if err := checkOutputs(c.Args().Slice(), files, c.String("out")); err != nil {
		return err
	}
	var w io.Writer = c.App.Writer
	f, err := createOutput(c.String("out"))
	if err != nil {
		return err
	}
	if f != nil {
		defer f.abort()
		w = f
	}
	asJSON := c.Bool("json")
	out := pgn.NewWriter(w)
	p := &pipeline{files: files, jobs: c.Int("jobs"), replayer: replay.Replayer{Game: g, Notation: n},
		work: func(it *item) {
			if !it.hasRec {
				return
			}
			var o opening.Opening
			ok := false
			if it.err == nil {
				o, ok = opening.Classify(it.game.Game, it.game.StartFEN, it.game.Moves, it.game.Keys)
			}
			if asJSON {
				l := classifyJSON{File: it.rec.Source.File, Game: it.rec.Source.Game, Opening: o.Code, OpeningName: o.FullName()}
				if it.err != nil {
					l.Error = rejectLine(it).Reason
				}
				writeJSON(&it.out, l)
				return
			}
			if ok {
				it.rec.Tags = classifiedTags(it.rec.Tags, it.game.Game, o)
			}
			if it.err != nil { // written back as read
				wr := gameWriters.Get().(*pgn.Writer)
				wr.Reset(&it.out)
				wr.WriteRecord(&it.rec)
				wr.Flush()
				gameWriters.Put(wr)
				return
			}
			formatGame(&it.out, &it.rec, &it.game, engine.Auto, reportLine{})
		}}
	var games, classified, rejected int
	err = p.run(c.Context, func(it *item) error {
		if l, ok := notAGame(it); ok {
			fmt.Fprintf(c.App.ErrWriter, "xqdb: not classified: %s\n", l)
			return nil
		}
		games++
		if !it.hasRec || it.err != nil {
			rejected++
			fmt.Fprintf(c.App.ErrWriter, "xqdb: not classified: %s\n", rejectLine(it))
		} else {
			classified++
		}
		if it.out.Len() > 0 {
			if asJSON {
				_, err := w.Write(it.out.Bytes())
				return err
			}
			out.WriteRaw(it.out.Bytes())
		}
		return nil
	})
	if err = commitAll(firstError(err, out.Flush), f); err != nil {
		return err
	}
	fmt.Fprintf(c.App.ErrWriter, "classified %d of %d games (%d not replayed)\n", classified, games, rejected)
	return nil
}

// pathOpening names the opening of the position reached from fen (""
// for the standard start) by the moves of text (any notation), for tree:
// the deepest named position of the path in chess, the ECCO code of the
// moves in Xiangqi. ok is false when nothing names it (a Xiangqi position
// given by a FEN, without moves from the start: ECCO goes by move order).
func pathOpening(g engine.Game, fen, text string) (opening.Opening, bool) {
	return api.PathOpening(g, fen, text)
}
