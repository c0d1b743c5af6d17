package book

import (
	"errors"
	"io"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/importer"
	"github.com/xqdb/xqdb/replay"
)

// ReadGames reads every record of the files, replays it as game g and
// hands each legal game to add, in file order. A record that does not
// replay is handed to skip (a *replay.GameError, or an *importer.ParseError
// when the record could not be read) and the build goes on; an I/O error
// of a file ends it. The CLI runs the same importer and replay on several
// workers (cmd/xqdb's pipeline); this is the one-goroutine form.
func ReadGames(paths []string, g engine.Game, add func(*replay.Game) error, skip func(error)) error {
	rp := replay.Replayer{Game: g}
	var out replay.Game
	for _, path := range paths {
		r, err := importer.Open(path)
		if err != nil {
			return err
		}
		r.ReuseRecord, r.MainLineOnly = true, true
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			var pe *importer.ParseError
			if err != nil && !errors.As(err, &pe) {
				r.Close()
				return err
			}
			if err != nil || rec == nil {
				skip(err)
				continue
			}
			if err := rp.Replay(rec, &out); err != nil {
				skip(err)
				continue
			}
			if err := add(&out); err != nil {
				r.Close()
				return err
			}
		}
		r.Close()
	}
	return nil
}
