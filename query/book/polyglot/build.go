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

// slot is make-book's entry while counting: games n, score sum (2 a win,
// 1 a draw or unknown result, 0 a loss, from the mover's view), the
// mover's colour and the order the pair was first met. The counters are
// 16-bit, as make-book's are. n == 0 marks an empty slot (a counted pair
// has n ≥ 1, halving included).
type slot struct {
	key    uint64
	seq    int32
	move   uint16
	n, sum uint16
	colour engine.Color
}

// Builder counts games into a book the way Polyglot's make-book does
// (book_make.cpp): every ply counts, so a (position, move) pair repeated in
// one game counts each time.
//
// The pairs live in one open-addressing table indexed by the position's
// key and probed linearly, as make-book's own hash is: a ply costs one
// memory access in the usual case, and all the moves of a position lie in
// the run that starts at its key's slot, which halving walks.
type Builder struct {
	opt   Options
	slots []slot
	size  int
	pos   *chess.Position
}

// NewBuilder returns an empty builder.
func NewBuilder(opt Options) *Builder {
	return &Builder{opt: opt, slots: make([]slot, 1<<16), pos: chess.NewStart()}
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
		key := p.Key()
		e := b.find(key, p.PolyglotMove(m), p.SideToMove())
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

// SizeHint makes room for about n pairs before counting starts (the table
// otherwise doubles as it fills, each time moving every pair).
func (b *Builder) SizeHint(n int) {
	want := 1 << 16
	for want < 2*n && want < 1<<28 {
		want *= 2
	}
	if want > len(b.slots) && b.size == 0 {
		b.slots = make([]slot, want)
	}
}

// find returns the slot of (key, move), taking a new one if the pair is
// new.
func (b *Builder) find(key uint64, move uint16, colour engine.Color) *slot {
	mask := uint64(len(b.slots) - 1)
	for i := key & mask; ; i = (i + 1) & mask {
		s := &b.slots[i]
		if s.n == 0 {
			if 2*(b.size+1) > len(b.slots) {
				b.grow()
				return b.find(key, move, colour)
			}
			*s = slot{key: key, seq: int32(b.size), move: move, colour: colour}
			b.size++
			return s
		}
		if s.key == key && s.move == move {
			return s
		}
	}
}

// grow doubles the table.
func (b *Builder) grow() {
	old := b.slots
	b.slots = make([]slot, 2*len(old))
	mask := uint64(len(b.slots) - 1)
	for _, s := range old {
		if s.n == 0 {
			continue
		}
		i := s.key & mask
		for b.slots[i].n != 0 {
			i = (i + 1) & mask
		}
		b.slots[i] = s
	}
}

// halve halves every move of a position, as make-book's halve_stats.
func (b *Builder) halve(key uint64) {
	mask := uint64(len(b.slots) - 1)
	for i := key & mask; b.slots[i].n != 0; i = (i + 1) & mask {
		if s := &b.slots[i]; s.key == key {
			s.n = (s.n + 1) / 2
			s.sum = (s.sum + 1) / 2
		}
	}
}

// Pairs returns how many distinct (position, move) pairs were counted.
func (b *Builder) Pairs() int { return b.size }

// Entries filters and sorts the counted pairs into the book's entries:
// by key, then by descending weight (make-book's key_compare), then in
// the order first met (make-book's qsort is glibc's merge sort, stable
// over its entries in that order) with Compat, else by move.
func (b *Builder) Entries() []Entry {
	type kept struct {
		Entry
		seq int32
	}
	var ks []kept
	for i := range b.slots {
		s := &b.slots[i]
		if s.n == 0 {
			continue
		}
		if w, ok := b.keep(s); ok {
			ks = append(ks, kept{Entry{Key: s.key, Move: s.move, Weight: w}, s.seq})
		}
	}
	slices.SortFunc(ks, func(x, y kept) int {
		if c := compareEntries(x.Entry, y.Entry); c != 0 && (!b.opt.Compat || x.Key != y.Key || x.Weight != y.Weight) {
			return c
		}
		return int(x.seq - y.seq)
	})
	out := make([]Entry, len(ks))
	for i := range ks {
		out[i] = ks[i].Entry
	}
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
func (b *Builder) keep(e *slot) (uint16, bool) {
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
