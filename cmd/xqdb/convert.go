package main

import (
	"fmt"
	"runtime"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/importer/pgn"
	"github.com/xqdb/xqdb/replay"
)

var convertCommand = &cli.Command{
	Name:      "convert",
	Usage:     "convert archives (PGN, XQF, DhtmlXQ, CCBridge; any encoding) to UTF-8 PGN in one notation",
	ArgsUsage: "PATH...",
	Description: `Reads every record like clean does and writes each valid game to -o as
UTF-8 PGN with its main line in --notation: iccs, wxf, chinese,
chinese-traditional or vietnamese for Xiangqi, san or uci for chess. Games
of the other game, and all games with --notation auto, keep the moves as
written. Rejected records are counted and described on stderr (use clean
for a full report).

Example:
   xqdb convert --notation wxf -o games-wxf.pgn games/*.xqf`,
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "game", Aliases: []string{"g"}, Value: "auto", Usage: "auto, xiangqi or chess"},
		notationFlag,
		fromFlag,
		&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "output PGN file (required)"},
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), DefaultText: "the number of cores", Usage: "replay on this many workers"},
		encodingFlag,
		progressFlag,
		jsonFlag,
	},
	Action: runConvert,
}

func runConvert(c *cli.Context) error {
	start := time.Now()
	g, from, err := readGameNotation(c)
	if err != nil {
		return err
	}
	n, _ := readNotation(c, "notation") // checked by readGameNotation
	if c.String("out") == "" {
		return usagef("convert: -o OUT.pgn is required")
	}
	enc, err := readEncoding(c)
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
	f, err := createOutput(c.String("out"))
	if err != nil {
		return err
	}
	defer f.abort()
	out := pgn.NewWriter(f)
	m, err := startProgress(c, "convert", "reading", "bytes", totalSize(files))
	if err != nil {
		return err
	}
	defer m.Done()
	p := &pipeline{files: files, jobs: c.Int("jobs"), replayer: replay.Replayer{Game: g, Notation: from}, progress: m.Add, encoding: enc,
		work: func(it *item) {
			if it.hasRec && it.err == nil {
				formatGame(&it.out, &it.rec, &it.game, outNotation(n, it.game.Game), reportLine{})
			}
		}}
	sum := cleanSummary{Files: len(files)}
	err = p.run(c.Context, func(it *item) error {
		if _, ok := unreadableFile(it, c.App.ErrWriter); ok {
			sum.Unreadable++
			return nil
		}
		if l, ok := notAGame(it); ok {
			sum.NotGames++
			fmt.Fprintf(c.App.ErrWriter, "xqdb: skipped %s\n", l)
			return nil
		}
		sum.Games++
		m.Games(sum.Games)
		if !it.hasRec || it.err != nil {
			sum.Rejected++
			fmt.Fprintf(c.App.ErrWriter, "xqdb: skipped %s\n", rejectLine(it))
			return nil
		}
		sum.Valid++
		sum.Plies += len(it.game.Moves)
		out.WriteRaw(it.out.Bytes())
		return nil
	})
	m.Done()
	if err = commitAll(firstError(err, out.Flush), f); err != nil {
		return err
	}
	sum.Seconds = time.Since(start).Seconds()
	if c.Bool("json") {
		return writeJSON(c.App.Writer, sum)
	}
	fmt.Fprintf(c.App.Writer, "converted %d of %d games (%d rejected) to %s in %.1fs\n", sum.Valid, sum.Games, sum.Rejected, c.String("out"), sum.Seconds)
	return nil
}
