package polyglot

import (
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

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

// Ply is one counted ply: the position's key and a word packing the book
// move (bits 0–15), the mover's score (16–17: 2 a win, 1 a draw or unknown
// result, 0 a loss) and the mover's colour (18).
type Ply struct {
	Key  uint64
	info uint32
}

const (
	plyScoreShift  = 16
	plyColourShift = 18
)

func newPly(key uint64, move uint16, c engine.Color, score int) Ply {
	return Ply{key, uint32(move) | uint32(score)<<plyScoreShift | uint32(c&1)<<plyColourShift}
}

// rec is a Ply as a Builder keeps it, in 12 bytes rather than 16: a large
// build holds every ply of its input.
type rec struct{ lo, hi, info uint32 }

func (r rec) key() uint64          { return uint64(r.hi)<<32 | uint64(r.lo) }
func (r rec) move() uint16         { return uint16(r.info) }
func (r rec) score() uint16        { return uint16(r.info>>plyScoreShift) & 3 }
func (r rec) colour() engine.Color { return engine.Color(r.info>>plyColourShift) & 1 }

// Encoder turns games into the plies a Builder counts: the part of the
// count that needs no other game (each ply's key, book move and score), so
// that it runs on every core while one Builder counts the plies in input
// order. An Encoder is not safe for concurrent use: give each goroutine
// its own.
type Encoder struct {
	maxPly int
	pos    *chess.Position
}

// NewEncoder returns an encoder for a builder with options opt.
func NewEncoder(opt Options) *Encoder { return &Encoder{maxPly: opt.MaxPly} }

// ErrKeys is returned when a game's keys do not match its moves.
var ErrKeys = fmt.Errorf("polyglot: keys do not match the moves")

// Append appends to dst the plies make-book counts of one legal game: its
// start (fen "" for the standard one), its moves, the key of the position
// before each move and after the last (replay.Game.Keys, len(moves)+1 of
// them; nil: the encoder plays the moves to find them) and its result. It
// returns an error only for a bad FEN or keys that do not fit the moves.
//
// Null moves are not counted (a book move must be a move: 0xFFFF would
// read as h8h8 with a promotion); the plies after one are.
func (e *Encoder) Append(dst []Ply, fen string, moves []engine.Move, keys []uint64, result engine.Result) ([]Ply, error) {
	n := len(moves)
	if e.maxPly > 0 && n > e.maxPly {
		n = e.maxPly
	}
	if keys == nil {
		return e.appendPlaying(dst, fen, moves[:n], result)
	}
	if len(keys) != len(moves)+1 {
		return dst, fmt.Errorf("%w: %d keys for %d moves", ErrKeys, len(keys), len(moves))
	}
	// The keys are known: a move's book code needs only to know whether it
	// castles, which the kings' squares tell (only a king moves two files).
	side, kings := engine.First, [2]chess.Square{chess.E1, chess.E8}
	if fen != "" {
		p, err := e.position(fen)
		if err != nil {
			return dst, err
		}
		side = p.SideToMove()
		for c := range kings {
			kings[c] = chess.Square(bits.TrailingZeros64(p.Pieces(chess.NewPiece(engine.Color(c), chess.King))))
		}
	}
	score := startScore(side, result)
	for ply, m := range moves[:n] {
		if m != engine.NullMove {
			code := uint16(m)
			if from, to := chess.From(m), chess.To(m); from == kings[side] {
				kings[side] = to
				switch {
				case to == from+2: // O-O: king takes the h-file rook
					code = uint16(chess.NewMove(from, from+3))
				case to+2 == from: // O-O-O: king takes the a-file rook
					code = uint16(chess.NewMove(from, from-4))
				}
			}
			dst = append(dst, newPly(keys[ply], code, side, score))
		}
		side, score = side.Other(), 2-score
	}
	return dst, nil
}

// appendPlaying is Append for a game without keys: it plays the moves.
func (e *Encoder) appendPlaying(dst []Ply, fen string, moves []engine.Move, result engine.Result) ([]Ply, error) {
	p, err := e.position(fen)
	if err != nil {
		return dst, err
	}
	score := startScore(p.SideToMove(), result)
	for _, m := range moves {
		if m != engine.NullMove {
			dst = append(dst, newPly(p.Key(), p.PolyglotMove(m), p.SideToMove(), score))
		}
		p.Make(m)
		score = 2 - score
	}
	return dst, nil
}

// position sets the encoder's position up at fen ("" the standard start).
func (e *Encoder) position(fen string) (*chess.Position, error) {
	if e.pos == nil {
		e.pos = chess.NewStart()
	}
	if fen == "" {
		e.pos.Reset()
		return e.pos, nil
	}
	return e.pos, e.pos.SetFEN(fen)
}

// startScore is the first mover's score: make-book scores from White's
// view and flips it every ply; here the first mover may be Black (a [FEN]
// start).
func startScore(side engine.Color, result engine.Result) int {
	switch result {
	case engine.WinFor(side):
		return 2
	case engine.WinFor(side.Other()):
		return 0
	}
	return 1
}

// Builder counts games into a book the way Polyglot's make-book does
// (book_make.cpp): every ply counts, so a (position, move) pair repeated in
// one game counts each time.
//
// make-book counts into one hash table as it reads: a large input makes
// it a cache and TLB miss a ply. Here Add only files each ply, in input
// order, under its key's top bits (a bucket: a list of chunks, 12 bytes a
// ply); Entries then counts each bucket in a table of its own that fits
// in a core's cache, the buckets on every core. How make-book counts a
// position depends only on that position's plies in input order (its
// halving and its first-met order too), and a bucket holds every ply of
// its positions in input order: the counts are make-book's.
type Builder struct {
	opt     Options
	shift   uint // a ply's bucket is its key >> shift
	buckets []plyList
	slab    []rec // room new chunks are cut from
	plies   int
	enc     *Encoder
	buf     []Ply
}

// plyList is a bucket: its plies in input order, in chunks.
type plyList struct {
	full [][]rec
	cur  []rec
}

const (
	// bucketSize is about how many plies a bucket is meant to hold: its
	// table (two slots a ply, 24 bytes a slot) then fits in a core's L2
	// cache.
	bucketSize = 4096
	// chunkSize is how many plies a bucket's chunk holds at most (6 KB).
	chunkSize = 512
	// maxSlab is the largest slab chunks are cut from, in plies (3 MB).
	maxSlab = 1 << 18
)

// NewBuilder returns an empty builder.
func NewBuilder(opt Options) *Builder {
	b := &Builder{opt: opt, enc: NewEncoder(opt)}
	b.setBuckets(1 << 20)
	return b
}

// setBuckets sizes the buckets for about n plies: about bucketSize plies
// a bucket, at most 2^16 buckets.
func (b *Builder) setBuckets(n int) {
	b.shift = 64
	for nb := 1; n/nb > bucketSize && b.shift > 48; nb *= 2 {
		b.shift--
	}
	b.buckets = make([]plyList, 1<<(64-b.shift))
}

// SizeHint says about how many plies will be added (before the first),
// so that the buckets keep their size in a large build.
func (b *Builder) SizeHint(n int) {
	if b.plies == 0 {
		b.setBuckets(n)
	}
}

// Options returns the builder's options.
func (b *Builder) Options() Options { return b.opt }

// AddGame counts one legal game: its start (fen "" for the standard one),
// its moves and its result. It returns an error only for a bad FEN.
func (b *Builder) AddGame(fen string, moves []engine.Move, result engine.Result) error {
	var err error
	if b.buf, err = b.enc.Append(b.buf[:0], fen, moves, nil, result); err != nil {
		return err
	}
	b.Add(b.buf)
	return nil
}

// Add counts the plies of one game (from an Encoder), after every game
// added before: make-book's halving and its order of equal weights
// depend on the order of the games.
func (b *Builder) Add(plies []Ply) {
	for _, p := range plies {
		l := &b.buckets[p.Key>>b.shift] // a shift of 64 gives bucket 0
		if len(l.cur) == cap(l.cur) {
			if l.cur != nil {
				l.full = append(l.full, l.cur)
			}
			// Chunks grow from 32 plies: a bucket wastes little room
			// however few plies it gets.
			l.cur = b.chunk(min(chunkSize, max(32, 2*cap(l.cur))))
		}
		l.cur = append(l.cur, rec{uint32(p.Key), uint32(p.Key >> 32), p.info})
	}
	b.plies += len(plies)
}

// chunk returns an empty chunk of n plies, cut from the slab.
func (b *Builder) chunk(n int) []rec {
	if len(b.slab) < n {
		// Slabs grow with the build, so that a small one stays small.
		b.slab = make([]rec, min(maxSlab, max(8*chunkSize, b.plies/4)))
	}
	c := b.slab[:0:n]
	b.slab = b.slab[n:]
	return c
}

// Plies returns how many plies were added.
func (b *Builder) Plies() int { return b.plies }

// Entries filters and sorts the counted pairs into the book's entries:
// by key, then by descending weight (make-book's key_compare), then in
// the order first met (make-book's qsort is glibc's merge sort, stable
// over its entries in that order) with Compat, else by move.
func (b *Builder) Entries() []Entry {
	// Buckets follow the key's top bits: in bucket order, their entries
	// are in key order.
	out := make([][]Entry, len(b.buckets))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(out)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var c counter
			for {
				i := int(next.Add(1) - 1)
				if i >= len(out) {
					return
				}
				out[i] = c.count(&b.buckets[i], &b.opt)
			}
		}()
	}
	wg.Wait()
	return slices.Concat(out...)
}

// slot is make-book's entry while counting: games n, score sum (2 a win,
// 1 a draw or unknown result, 0 a loss, from the mover's view), the
// mover's colour and the place in the bucket of the ply that first met the
// pair (a bucket holding 2^32 plies would take 48 GB). The counters are
// 16-bit, as make-book's are. n == 0 marks an empty slot (a counted pair
// has n ≥ 1, halving included).
type slot struct {
	key    uint64
	seq    uint32
	move   uint16
	n, sum uint16
	colour engine.Color
}

// counter counts one bucket at a time into an open-addressing table
// indexed by the key's low bits and probed linearly, as make-book's own
// hash is: all the moves of a position lie in the run that starts at its
// key's slot, which halving walks.
type counter struct {
	slots []slot
	size  int // slots taken
	kept  []kept
}

// find returns the slot of r's (key, move), taking a new one (first met
// at place seq) if the pair is new.
func (c *counter) find(r rec, seq uint32) *slot {
	key, move := r.key(), r.move()
	mask := uint64(len(c.slots) - 1)
	for i := key & mask; ; i = (i + 1) & mask {
		s := &c.slots[i]
		if s.n == 0 {
			if 2*(c.size+1) > len(c.slots) {
				c.grow()
				return c.find(r, seq)
			}
			*s = slot{key: key, seq: seq, move: move, colour: r.colour()}
			c.size++
			return s
		}
		if s.key == key && s.move == move {
			return s
		}
	}
}

// grow doubles the table.
func (c *counter) grow() {
	old := c.slots
	c.slots = make([]slot, 2*len(old))
	mask := uint64(len(c.slots) - 1)
	for _, s := range old {
		if s.n == 0 {
			continue
		}
		i := s.key & mask
		for c.slots[i].n != 0 {
			i = (i + 1) & mask
		}
		c.slots[i] = s
	}
}

type kept struct {
	Entry
	seq uint32
}

// count counts one bucket's plies (in input order) and returns its kept
// entries in book order.
func (c *counter) count(l *plyList, opt *Options) []Entry {
	n := len(l.cur)
	for _, ch := range l.full {
		n += len(ch)
	}
	if n == 0 {
		return nil
	}
	// Two slots a ply, up to a bucket's usual size; a bucket of fewer pairs
	// than plies (the start position's) grows only as its pairs need.
	size := 1 << bits.Len(uint(2*min(n, bucketSize)-1))
	if size > cap(c.slots) {
		c.slots = make([]slot, size)
	}
	c.slots = c.slots[:size]
	clear(c.slots)
	c.size = 0
	seq := uint32(0)
	for ci := 0; ci <= len(l.full); ci++ {
		ch := l.cur
		if ci < len(l.full) {
			ch = l.full[ci]
		}
		for _, r := range ch {
			s := c.find(r, seq)
			s.n++
			s.sum += r.score()
			if s.n >= CountMax {
				c.halve(s.key)
			}
			seq++
		}
	}
	c.kept = c.kept[:0]
	for i := range c.slots {
		if s := &c.slots[i]; s.n != 0 {
			if w, ok := keep(s, opt); ok {
				c.kept = append(c.kept, kept{Entry{Key: s.key, Move: s.move, Weight: w}, s.seq})
			}
		}
	}
	slices.SortFunc(c.kept, func(x, y kept) int {
		if c := compareEntries(x.Entry, y.Entry); c != 0 && (!opt.Compat || x.Key != y.Key || x.Weight != y.Weight) {
			return c
		}
		return int(x.seq) - int(y.seq)
	})
	out := make([]Entry, len(c.kept))
	for i := range c.kept {
		out[i] = c.kept[i].Entry
	}
	return out
}

// halve halves every move of a position, as make-book's halve_stats.
func (c *counter) halve(key uint64) {
	mask := uint64(len(c.slots) - 1)
	for i := key & mask; c.slots[i].n != 0; i = (i + 1) & mask {
		if s := &c.slots[i]; s.key == key {
			s.n = (s.n + 1) / 2
			s.sum = (s.sum + 1) / 2
		}
	}
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
func keep(e *slot, opt *Options) (uint16, bool) {
	if int(e.n) < opt.MinGame || e.sum == 0 {
		return 0, false
	}
	if score := (float64(e.sum) / float64(e.n)) / 2.0; score < opt.MinScore {
		return 0, false
	}
	if (opt.OnlyWhite && e.colour != engine.First) || (opt.OnlyBlack && e.colour != engine.Second) {
		return 0, false
	}
	if opt.Uniform {
		return 1, true
	}
	return e.sum, true
}
