// Package book builds, probes, merges and dumps opening books in the
// formats other programs read: Polyglot .bin for chess (query/book/
// polyglot), ElephantEye's BOOK.DAT (query/book/eleeye) and BHGUI's .obk
// (query/book/obk) for Xiangqi. Each format keeps its own key and move code,
// computed from the position; this package puts one face on the three:
// a Builder fed legal games (from files through the importer and replay, or
// from a database), a Book probed with a position, and the entries that
// dump, info and merge work on.
//
//	file      what
//	book.go   Format, Options, Builder, Worker, Open, Probe
//	merge.go  Entry, Entries, Merge
//	games.go  ReadGames: files through the importer and replay
package book

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/chess"
	"github.com/xqdb/xqdb/engine/xiangqi"
	"github.com/xqdb/xqdb/query/book/eleeye"
	"github.com/xqdb/xqdb/query/book/obk"
	"github.com/xqdb/xqdb/query/book/polyglot"
)

// Format names a book format.
type Format string

// The formats.
const (
	Polyglot Format = "polyglot" // chess .bin
	Eleeye   Format = "eleeye"   // Xiangqi BOOK.DAT
	OBK      Format = "obk"      // Xiangqi .obk (SQLite)
)

// ErrUnknownFormat is returned for a format name or file extension xqdb
// does not know.
var ErrUnknownFormat = errors.New("book: unknown format")

// ParseFormat reads a --format value.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "polyglot", "bin":
		return Polyglot, nil
	case "eleeye", "elephanteye", "dat":
		return Eleeye, nil
	case "obk", "bhgui":
		return OBK, nil
	}
	return "", fmt.Errorf("%w %q (want polyglot, eleeye or obk)", ErrUnknownFormat, s)
}

// FormatOf returns the format a file's extension implies: .bin, .dat, .obk.
func FormatOf(path string) (Format, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".bin":
		return Polyglot, nil
	case ".dat":
		return Eleeye, nil
	case ".obk":
		return OBK, nil
	}
	return "", fmt.Errorf("%w: cannot tell the format of %q from its extension (.bin, .dat or .obk); give --format", ErrUnknownFormat, path)
}

// Game returns the game a format's books are for.
func (f Format) Game() engine.Game {
	if f == Polyglot {
		return engine.Chess
	}
	return engine.Xiangqi
}

// KeepsCounts reports whether the format keeps wins, draws and losses.
func (f Format) KeepsCounts() bool { return f == OBK }

// Options choose what a build keeps. Defaults gives each format's
// reference builder's.
type Options struct {
	// MinGames drops (position, move) pairs played fewer times.
	MinGames int
	// MinScore drops pairs scoring below it (0–1, from the mover's view,
	// a draw half a point).
	MinScore float64
	// MaxPly counts only the first MaxPly plies of each game (ply 1 is
	// the first move); 0 counts them all.
	MaxPly int
	// OnlyWhite and OnlyBlack keep only the moves of White (Red) or Black.
	OnlyWhite, OnlyBlack bool
	// Uniform gives every kept move the same weight.
	Uniform bool
	// PolyglotCompat writes what polyglot make-book writes, ties in the
	// order they were first met (otherwise by move).
	PolyglotCompat bool
}

// Defaults returns the defaults of a format's reference builder:
// make-book's (min-game 3, max-ply 1024) for Polyglot, MAKEBOOK's (no game
// minimum, every ply; its value threshold is built in) for BOOK.DAT, and no
// minimum for .obk.
func Defaults(f Format) Options {
	if f == Polyglot {
		return Options{MinGames: 3, MaxPly: 1024}
	}
	return Options{}
}

// Builder counts games into a book.
type Builder struct {
	format Format
	opt    Options
	pg     *polyglot.Builder
	ee     *eleeye.Builder
	ob     *obk.Builder
	games  int
}

// ErrOption is returned for an option a format cannot honour.
var ErrOption = errors.New("book: option not supported by the format")

// NewBuilder returns a builder of format f.
func NewBuilder(f Format, opt Options) (*Builder, error) {
	if opt.OnlyWhite && opt.OnlyBlack {
		return nil, fmt.Errorf("%w: only-white and only-black together keep nothing", ErrOption)
	}
	if opt.MinScore < 0 || opt.MinScore > 1 {
		return nil, fmt.Errorf("%w: min-score must be 0–100%%", ErrOption)
	}
	b := &Builder{format: f, opt: opt}
	switch f {
	case Polyglot:
		b.pg = polyglot.NewBuilder(polyglot.Options{MinGame: opt.MinGames, MinScore: opt.MinScore, MaxPly: opt.MaxPly,
			OnlyWhite: opt.OnlyWhite, OnlyBlack: opt.OnlyBlack, Uniform: opt.Uniform, Compat: opt.PolyglotCompat})
	case Eleeye:
		// BOOK.DAT keeps one value per move: no game counts to filter on.
		if opt.MinGames > 1 || opt.MinScore > 0 || opt.Uniform || opt.OnlyWhite || opt.OnlyBlack {
			return nil, fmt.Errorf("%w: BOOK.DAT keeps only MAKEBOOK's values; --min-games, --min-score, --uniform and --only-white/--only-black need polyglot or obk", ErrOption)
		}
		b.ee = eleeye.NewBuilder(opt.MaxPly)
	case OBK:
		b.ob = obk.NewBuilder(opt.MaxPly, opt.MinGames)
		b.ob.SkipFirst, b.ob.SkipSecond = opt.OnlyBlack, opt.OnlyWhite
	default:
		return nil, fmt.Errorf("%w %q", ErrUnknownFormat, f)
	}
	if opt.PolyglotCompat && f != Polyglot {
		return nil, fmt.Errorf("%w: --polyglot-compat is for Polyglot books", ErrOption)
	}
	return b, nil
}

// Format returns the builder's format.
func (b *Builder) Format() Format { return b.format }

// SizeHint says about how many plies will be added, so the Polyglot
// builder can make room for them once.
func (b *Builder) SizeHint(plies int) {
	if b.pg != nil {
		b.pg.SizeHint(plies)
	}
}

// Games returns how many games were added.
func (b *Builder) Games() int { return b.games }

// A Worker readies games for a Builder on another goroutine: for a
// Polyglot book it works out each ply's key, book move and score, the part
// of the count that needs no other game, so that the builder's goroutine
// only appends them in input order. Each goroutine needs its own Worker.
type Worker struct {
	enc *polyglot.Encoder
}

// Ready is a game a Worker readied, for AddReady.
type Ready struct {
	plies []polyglot.Ply
	err   error
	done  bool
}

// NewWorker returns a worker for b.
func (b *Builder) NewWorker() *Worker {
	if b.pg == nil {
		return &Worker{}
	}
	return &Worker{enc: polyglot.NewEncoder(b.pg.Options())}
}

// Ready readies one legal game into r (whose memory it reuses): its start
// (fen "" for the standard one), its moves, the key of each position
// (replay.Game.Keys; nil: worked out here) and its result. A format that
// counts only on the builder's goroutine readies nothing.
func (w *Worker) Ready(r *Ready, fen string, moves []engine.Move, keys []uint64, result engine.Result) {
	r.done = w.enc != nil
	if r.done {
		r.plies, r.err = w.enc.Append(r.plies[:0], fen, moves, keys, result)
	}
}

// AddReady counts a game, in input order: the plies a Worker readied into
// r, or, when nothing was readied, the game itself as AddGame does.
func (b *Builder) AddReady(r *Ready, fen string, moves []engine.Move, result engine.Result) error {
	if !r.done {
		return b.AddGame(fen, moves, result)
	}
	b.games++
	if r.err != nil {
		return r.err
	}
	b.pg.Add(r.plies)
	return nil
}

// AddGame counts one legal game of the format's game: its start (fen ""
// for the standard one), its moves and its result.
func (b *Builder) AddGame(fen string, moves []engine.Move, result engine.Result) error {
	b.games++
	switch {
	case b.pg != nil:
		return b.pg.AddGame(fen, moves, result)
	case b.ee != nil:
		return b.ee.AddGame(fen, moves, result)
	}
	return b.ob.AddGame(fen, moves, result)
}

// Save writes the book to path. It returns the number of entries written.
func (b *Builder) Save(path string) (int, error) {
	switch {
	case b.pg != nil:
		es := b.pg.Entries()
		return len(es), writeFile(path, polyglot.Append(make([]byte, 0, len(es)*polyglot.EntrySize), es))
	case b.ee != nil:
		rs := b.ee.Records()
		return len(rs), writeFile(path, eleeye.Append(make([]byte, 0, len(rs)*eleeye.RecordSize), rs))
	}
	rows := b.ob.Rows()
	if b.opt.MinScore > 0 || b.opt.Uniform {
		rows = b.filterOBK(rows)
	}
	return len(rows), writeOBK(path, rows)
}

// writeOBK writes an .obk book beside path and renames it into place.
func writeOBK(path string, rows []obk.Row) error {
	tmp := path + ".tmp"
	if err := obk.Write(tmp, rows); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// filterOBK applies make-book's score filter and uniform weights to .obk
// rows.
func (b *Builder) filterOBK(rows []obk.Row) []obk.Row {
	out := rows[:0]
	for _, r := range rows {
		n := r.Win + r.Draw + r.Lost
		if n > 0 && float64(2*r.Win+r.Draw)/float64(n)/2 < b.opt.MinScore {
			continue
		}
		if b.opt.Uniform {
			r.Score = 1
		}
		out = append(out, r)
	}
	return out
}

// writeFile writes data through a temporary file renamed into place, so a
// failed build leaves no half-written book and an old one untouched.
func writeFile(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// Move is one book move of a position.
type Move struct {
	Move engine.Move
	// Weight is the format's weight: Polyglot's weight, BOOK.DAT's value,
	// .obk's vscore.
	Weight int
	// Wins, Draws, Losses count games from the mover's view, when the
	// format keeps them (HasCounts).
	Wins, Draws, Losses int
	HasCounts           bool
}

// Book is an open book.
type Book struct {
	format Format
	path   string
	pg     []polyglot.Entry
	ee     []eleeye.Record
	ob     *obk.Book
}

// Open opens a book; format "" takes it from the extension.
func Open(path string, f Format) (*Book, error) {
	if f == "" {
		var err error
		if f, err = FormatOf(path); err != nil {
			return nil, err
		}
	}
	b := &Book{format: f, path: path}
	switch f {
	case Polyglot, Eleeye:
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if f == Polyglot {
			b.pg, err = polyglot.Parse(data)
		} else {
			b.ee, err = eleeye.Parse(data)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	case OBK:
		ob, err := obk.Open(path)
		if err != nil {
			return nil, err
		}
		b.ob = ob
	default:
		return nil, fmt.Errorf("%w %q", ErrUnknownFormat, f)
	}
	return b, nil
}

// Format returns the book's format.
func (b *Book) Format() Format { return b.format }

// Close releases the book.
func (b *Book) Close() error {
	if b.ob != nil {
		return b.ob.Close()
	}
	return nil
}

// ErrWrongGame is returned when a book is probed with a position of the
// other game.
var ErrWrongGame = errors.New("book: position of the wrong game")

// Probe returns the book moves of pos that are legal there, in the
// format's order (by descending weight).
func (b *Book) Probe(pos engine.Position) ([]Move, error) {
	if pos.Game() != b.format.Game() {
		return nil, fmt.Errorf("%w: a %v book, a %v position", ErrWrongGame, b.format.Game(), pos.Game())
	}
	var out []Move
	switch b.format {
	case Polyglot:
		p := pos.(*chess.Position)
		for _, e := range polyglot.Find(b.pg, p.Key()) {
			// Weight 0 is the conventional deleted entry (python-chess skips it).
			if e.Weight == 0 {
				continue
			}
			if m, err := p.FromPolyglot(e.Move); err == nil {
				out = append(out, Move{Move: m, Weight: int(e.Weight)})
			}
		}
	case Eleeye:
		for _, h := range eleeye.Probe(b.ee, pos.(*xiangqi.Position)) {
			out = append(out, Move{Move: h.Move, Weight: h.Value})
		}
	case OBK:
		hits, err := b.ob.Probe(pos.(*xiangqi.Position))
		if err != nil {
			return nil, err
		}
		for _, h := range hits {
			out = append(out, Move{Move: h.Move, Weight: h.Score, Wins: h.Win, Draws: h.Draw, Losses: h.Lost, HasCounts: true})
		}
	}
	return out, nil
}
