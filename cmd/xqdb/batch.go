package main

import (
	"bufio"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/engine"
)

// batchFlag is tree's and games' --batch: many positions answered by one
// process, each answer timed (the latency of a warm store, what
// bench/query.sh and bench/scale.sh measure).
var batchFlag = &cli.StringFlag{Name: "batch", Usage: "answer every position of FILE (a FEN a line, optionally after 'xiangqi' or 'chess' and a tab) as JSON lines with the time taken"}

// eachBatchPosition calls answer with each position of the --batch file
// (blank lines and # comments skipped), in file order. A line naming an
// unknown game is a usage error; a FEN that does not set up is passed on
// with its error, so the answer line can say so and the batch goes on.
func eachBatchPosition(path string, g engine.Game, answer func(pos engine.Position, fen string, err error) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		lg, fen := g, line
		if name, rest, ok := strings.Cut(line, "\t"); ok {
			if lg, err = engine.ParseGame(name); err != nil {
				return usageError{err}
			}
			fen = rest
		}
		pos, err := newPosition(lg, fen)
		if err := answer(pos, fen, err); err != nil {
			return err
		}
	}
	return sc.Err()
}
