package index

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/dgraph-io/badger/v4"
)

// A game list's first page at an opening position used to decode the
// position's whole stats value in every live run and sort all its games
// by date: hundreds of thousands of games for the first 20, 0.5 s at a
// million games, the p99 of every game list (issue 18). A large stats
// value now has a head beside it, H|game|run|key, written with it by
// the same batch (the writer, a merge, a deletion's rewrite):
//
//   - the value's per-move aggregates, which a tree reads instead of
//     decompressing the whole value (0.1–3 MB at a million games);
//   - its game count and first game (the lowest gid, with its slot);
//   - its headGames newest games (latest date first, the lower gid first
//     among equal dates, undated games last: query's default order).
//
// The newest games of a position are among the union of each run's
// newest, so a reader merges the heads of the live runs (and the whole
// stats values of runs too small to have one) and sorts a few hundred
// games instead of all of them. Pages past the heads, other orders and
// metadata filters take the whole lists as before.
//
// A head must never disagree with its stats value, since a reader takes
// it instead; a missing head only costs time (the value is read whole).
// A store whose manifest says Heads has a head for every live stats value
// of headMinGames games or more and for no other. An older xqdb that
// rewrites the manifest drops that flag (it does not know it), and may
// have deleted games without rewriting heads; the next writer then
// deletes every head and writes them again from the stats values
// (indexHeads), and until then readers ignore them. No schema version
// changes: an older xqdb reads the store as before.

// headGames is how many newest games a head lists: five pages of 20
// (the explorer's page). A reader answers a page from the heads only
// when the page ends within every truncated head's list, so a store
// written with another headGames answers the same.
var headGames = 100 // a variable for tests

// headMinGames is the smallest stats value given a head. Smaller values
// are read whole (a few KB, one or two Badger blocks); the heads of all
// popular positions would cost their game lists' bytes again.
var headMinGames = 1024 // a variable for tests

// mayHaveHeads reports whether run may hold heads: a run of fewer games
// than headMinGames has no stats value large enough for one, and a
// reader need not ask it (a point read a popular position and run: the
// small runs of growth imports beside a large one; issue 18). A run of
// unknown size may.
func (m *manifest) mayHaveHeads(run uint32) bool {
	n, ok := m.RunGames[run]
	return !ok || int(n) >= headMinGames
}

// statsHead is the head of one run's stats value at one position.
type statsHead struct {
	Moves  []MoveStats
	Games  uint32    // the games of the stats value
	First  Posting   // its lowest gid
	Newest []Posting // up to headGames games, newest first
}

// headKey is the key of the head of run's stats value at key.
func headKey(game byte, run uint32, key uint64) []byte {
	return binary.BigEndian.AppendUint64(runPrefix(prefixHead, game, run), key)
}

// newestKey orders games as a game list's default order does
// (query.ByDateDesc): the latest date first, games of one date by gid,
// undated games (date 0, whose complement is the largest) last.
func newestKey(date, gid uint32) uint64 { return uint64(^date)<<32 | uint64(gid) }

// headOf returns the head of stats value v, or nil when v is too small to
// have one. date gives a game's date.
func headOf(v *statsValue, date func(gid uint32) uint32) *statsHead {
	if len(v.Games) < headMinGames {
		return nil
	}
	h := &statsHead{Moves: v.Moves, Games: uint32(len(v.Games)), First: v.Games[0]}
	for _, g := range v.Games[1:] {
		if g.Gid < h.First.Gid {
			h.First = g
		}
	}
	h.Newest = newestPostings(v.Games, headGames, date)
	return h
}

// newestPostings returns the n newest of games (newestKey's order), newest
// first, by a bounded selection: a buffer of twice n, sorted and cut when
// full, and a bound that turns most games away with one comparison (the
// start position's million games).
func newestPostings(games []Posting, n int, date func(gid uint32) uint32) []Posting {
	type keyed struct {
		k uint64
		p Posting
	}
	buf := make([]keyed, 0, 2*n)
	bound := ^uint64(0)
	cut := func() {
		slices.SortFunc(buf, func(a, b keyed) int { return cmp.Compare(a.k, b.k) })
		buf = buf[:min(len(buf), n)]
		if len(buf) == n {
			bound = buf[len(buf)-1].k
		}
	}
	for _, g := range games {
		k := newestKey(date(g.Gid), g.Gid)
		if k >= bound {
			continue
		}
		buf = append(buf, keyed{k, g})
		if len(buf) == cap(buf) {
			cut()
		}
	}
	cut()
	out := make([]Posting, len(buf))
	for i, e := range buf {
		out[i] = e.p
	}
	return out
}

// encodeHead packs a head:
//
//	the moves' aggregates (appendMoves);
//	uvarint games, first gid, first slot;
//	uvarint n, per newest game: gid, slot (uvarints; not in gid order).
func encodeHead(dst []byte, h *statsHead) []byte {
	dst = appendMoves(dst, h.Moves)
	dst = binary.AppendUvarint(dst, uint64(h.Games))
	dst = binary.AppendUvarint(dst, uint64(h.First.Gid))
	dst = binary.AppendUvarint(dst, uint64(h.First.Slot))
	dst = binary.AppendUvarint(dst, uint64(len(h.Newest)))
	for _, p := range h.Newest {
		dst = binary.AppendUvarint(dst, uint64(p.Gid))
		dst = binary.AppendUvarint(dst, uint64(p.Slot))
	}
	return dst
}

var errCorruptHead = errors.New("index: corrupt stats head")

// decodeHead decodes a head whole; with newest false, up to its first
// game only: a tree reads a head for its aggregates and first game, and
// decoding and allocating the list of the newest games too took 6% of a
// popular position's tree after ten growth imports, a head in several
// runs (2.5% since; issue 18).
func decodeHead(b []byte, newest bool) (*statsHead, error) {
	d := decoder{b: b}
	moves, err := d.moves()
	if err != nil {
		return nil, errCorruptHead
	}
	h := &statsHead{Moves: moves}
	slot := func() uint16 {
		s := d.uvarint()
		if s >= uint64(len(moves)) {
			d.err = errCorruptHead
		}
		return uint16(s)
	}
	games := d.uvarint()
	h.Games = uint32(games)
	h.First = Posting{uint32(d.uvarint()), slot()}
	if !newest {
		if d.err != nil || games > 1<<32-1 {
			return nil, errCorruptHead
		}
		return h, nil
	}
	n := d.uvarint()
	if d.err != nil || games > 1<<32-1 || n > games || n > uint64(len(d.b)) {
		return nil, errCorruptHead
	}
	h.Newest = make([]Posting, n)
	for i := range h.Newest {
		h.Newest[i] = Posting{uint32(d.uvarint()), slot()}
	}
	if d.err != nil {
		return nil, fmt.Errorf("%w: %v", errCorruptHead, d.err)
	}
	return h, nil
}

// putHead writes, with set (a write batch's or a transaction's Set), the
// head of run's stats value v at key, when v is large enough to have one.
// The caller knows no head is stored there yet (a new run's key), so
// nothing is deleted.
func putHead(set func(k, v []byte) error, game byte, run uint32, key uint64, v *statsValue, date func(uint32) uint32) error {
	if h := headOf(v, date); h != nil {
		return set(headKey(game, run, key), encodeHead(nil, h))
	}
	return nil
}

// dateReader gives the dates of stored games, reading their attribute
// chunks as it meets them: a merge needs the dates of its runs' games
// only, and a writer must not load every game's attributes (Store.attrs,
// which a writer then keeps current) from its background goroutine. The
// first error sticks; dates read after it are zero.
type dateReader struct {
	s      *Store
	chunks map[uint32][]uint32
	err    error
}

func (s *Store) newDateReader() *dateReader {
	return &dateReader{s: s, chunks: map[uint32][]uint32{}}
}

func (d *dateReader) date(gid uint32) uint32 {
	c := gid / attrsPerChunk
	dates, ok := d.chunks[c]
	if !ok && d.err == nil {
		as, err := d.s.readAttrsChunk(c)
		if err != nil {
			d.err = err
		}
		dates = make([]uint32, len(as))
		for i, a := range as {
			dates[i] = a.Date
		}
		d.chunks[c] = dates
	}
	if i := int(gid % attrsPerChunk); i < len(dates) {
		return dates[i]
	}
	return 0
}

// indexHeads deletes every head and writes one for every live stats value
// large enough: once, for a store whose heads may be missing or stale
// (manifest Heads unset: written before heads existed, or since rewritten
// by an xqdb that does not know them).
func (s *Store) indexHeads() error {
	if err := s.dropHeads(); err != nil { // opens the runs writable
		return err
	}
	wb := s.newBatch()
	defer wb.Cancel()
	dates := s.newDateReader()
	// A value of n games takes at least 2n bytes (a gid gap and a slot,
	// a byte or more each): smaller ones are skipped undecoded.
	minBytes := int64(2 * headMinGames)
	err := s.viewRuns(func(txn *view) error {
		return s.eachLiveStats(txn, func(item *badger.Item, game uint8, key uint64) error {
			if item.ValueSize() < minBytes {
				return nil
			}
			return item.Value(func(b []byte) error {
				v, err := decodeStats(b)
				if err != nil {
					return err
				}
				return putHead(wb.Set, game, runOf(item.Key()), key, v, dates.date)
			})
		})
	})
	if err == nil {
		err = dates.err
	}
	if err != nil {
		return err
	}
	if err := wb.Flush(); err != nil {
		return err
	}
	return s.updateManifest(func(m *manifest) { m.Heads = true })
}

// dropHeads deletes every head. A missing head is never wrong (a reader
// then reads the stats value whole): only a stale one would be.
func (s *Store) dropHeads() error {
	if err := s.openRunsWritable(); err != nil {
		return err
	}
	wb := s.newBatch()
	defer wb.Cancel()
	err := s.viewRuns(func(txn *view) error {
		return txn.eachRunKey(prefixHead, func(it *badger.Iterator) error {
			return wb.Delete(it.Item().KeyCopy(nil))
		})
	})
	if err != nil {
		return err
	}
	return wb.Flush()
}
