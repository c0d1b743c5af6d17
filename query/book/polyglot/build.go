package polyglot

import (
	"slices"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/chess"
)

// CountMax is where make-book halves a position's statistics: when one of
// its moves has been counted this many times, every move of the position
// has its game count and score sum halved (rounding up), so the 16-bit
// counters never overflow.
const CountMax = 16384

// Options are make-book's options.
type Options struct {
	// MinGame drops (position, move) pairs played fewer times (make-book's
	// -min-game, default 3).
	MinGame int
	// MinScore drops pairs whose score, sum/games/2 in 0–1 from the
	// mover's view, is below it (-min-score P is P/100).
	MinScore float64
	// MaxPly counts only the first MaxPly plies of each game (-max-ply,
	// default 1024); 0 counts them all.
	MaxPly int
	// OnlyWhite and OnlyBlack keep only the moves of that side.
	OnlyWhite, OnlyBlack bool
	// Uniform gives every kept move weight 1.
	Uniform bool
	// Compat orders moves of equal weight as make-book does, in the order
	// the build first met them; otherwise by move code, so that the file
	// does not depend on the order of the games.
	Compat bool
}

// DefaultOptions are make-book's defaults.
func DefaultOptions() Options { return Options{MinGame: 3, MaxPly: 1024} }

// counter is make-book's entry while counting: games n, score sum (2 a
// win, 1 a draw or unknown result, 0 a loss, from the mover's view) and
// the mover's colour. The counters are 16-bit, as make-book's are.
type counter struct {
	key    uint64
	next   int32 // the position's next move in first-met order, or -1
	move   uint16
	n, sum uint16
	colour engine.Color
}

// Builder counts games into a book the way Polyglot's make-book does
// (book_make.cpp): every ply counts, so a (position, move) pair repeated in
// one game counts each time.
type Builder struct {
	opt Options
	// idx maps a position's key to its first counter; the position's
	// other moves follow through counter.next (a position has few moves,
	// and one 64-bit map key hashes faster than a (key, move) pair).
	idx  map[uint64]int32
	ents []counter
	pos  *chess.Position
}

// NewBuilder returns an empty builder.
func NewBuilder(opt Options) *Builder {
	return &Builder{opt: opt, idx: make(map[uint64]int32, 1<<16), ents: make([]counter, 0, 1<<16), pos: chess.NewStart()}
}

// AddGame counts one legal game: its start (fen "" for the standard one),
// its moves and its result. It returns an error only for a bad FEN.
func (b *Builder) AddGame(fen string, moves []engine.Move, result engine.Result) error {
	p := b.pos
	if fen == "" {
		p.Reset()
	} else if err := p.SetFEN(fen); err != nil {
		return err
	}
	// make-book scores from White's view and flips the sign every ply; here
	// the first mover may be Black (a [FEN] start).
	score := 1 // 1 + result from the mover's view: 2 win, 1 draw, 0 loss
	switch result {
	case engine.WinFor(p.SideToMove()):
		score = 2
	case engine.WinFor(p.SideToMove().Other()):
		score = 0
	}
	for ply, m := range moves {
		if b.opt.MaxPly > 0 && ply >= b.opt.MaxPly {
			break
		}
		key, move := p.Key(), p.PolyglotMove(m)
		i := b.find(key, move, p.SideToMove())
		e := &b.ents[i]
		e.n++
		e.sum += uint16(score)
		if e.n >= CountMax {
			b.halve(key)
		}
		p.Make(m)
		score = 2 - score
	}
	return nil
}

// find returns the counter of (key, move), making it if new.
func (b *Builder) find(key uint64, move uint16, colour engine.Color) int32 {
	n := int32(len(b.ents))
	head, ok := b.idx[key]
	if !ok {
		b.idx[key] = n
	} else {
		i := head
		for {
			if b.ents[i].move == move {
				return i
			}
			if b.ents[i].next < 0 {
				b.ents[i].next = n
				break
			}
			i = b.ents[i].next
		}
	}
	b.ents = append(b.ents, counter{key: key, next: -1, move: move, colour: colour})
	return n
}

// halve halves every move of a position, as make-book's halve_stats.
func (b *Builder) halve(key uint64) {
	for i := b.idx[key]; i >= 0; i = b.ents[i].next {
		e := &b.ents[i]
		e.n = (e.n + 1) / 2
		e.sum = (e.sum + 1) / 2
	}
}

// Pairs returns how many distinct (position, move) pairs were counted.
func (b *Builder) Pairs() int { return len(b.ents) }

// Entries filters and sorts the counted pairs into the book's entries:
// by key, then by descending weight (make-book's key_compare).
func (b *Builder) Entries() []Entry {
	out := make([]Entry, 0, len(b.ents)/4)
	for _, e := range b.ents {
		if w, ok := b.keep(&e); ok {
			out = append(out, Entry{Key: e.key, Move: e.move, Weight: w})
		}
	}
	if b.opt.Compat {
		// make-book's qsort is glibc's merge sort: stable, so ties stay in
		// the order the pairs were first met.
		slices.SortStableFunc(out, func(x, y Entry) int {
			if x.Key != y.Key {
				if x.Key < y.Key {
					return -1
				}
				return 1
			}
			return int(y.Weight) - int(x.Weight)
		})
		return out
	}
	slices.SortFunc(out, compareEntries)
	return out
}

// compareEntries orders by key, descending weight, then move.
func compareEntries(x, y Entry) int {
	switch {
	case x.Key < y.Key:
		return -1
	case x.Key > y.Key:
		return 1
	case x.Weight != y.Weight:
		return int(y.Weight) - int(x.Weight)
	}
	return int(x.Move) - int(y.Move)
}

// SortEntries sorts entries into book order (key, descending weight,
// move).
func SortEntries(entries []Entry) { slices.SortFunc(entries, compareEntries) }

// keep is make-book's keep_entry and entry_score.
func (b *Builder) keep(e *counter) (uint16, bool) {
	if int(e.n) < b.opt.MinGame || e.sum == 0 {
		return 0, false
	}
	if score := (float64(e.sum) / float64(e.n)) / 2.0; score < b.opt.MinScore {
		return 0, false
	}
	if (b.opt.OnlyWhite && e.colour != engine.First) || (b.opt.OnlyBlack && e.colour != engine.Second) {
		return 0, false
	}
	if b.opt.Uniform {
		return 1, true
	}
	return e.sum, true
}
