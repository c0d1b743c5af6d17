package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/dgraph-io/badger/v4"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// Game is a validated game ready to store: its record (ID is assigned by
// the writer) and the key of every position it reached, before each ply
// and after the last (len(Keys) == len(Moves)+1).
type Game struct {
	Record
	Keys []uint64
}

// AddResult says what Add did with a game.
type AddResult struct {
	Gid       uint32 // the stored game's id (the first copy's for a duplicate)
	Duplicate bool
}

// occurrence is one game reaching one position, as the tree counts it.
type occurrence struct {
	key    uint64
	gid    uint32
	ply    uint16 // the first ply the game reached it at
	game   engine.Game
	code   uint16 // wire code of the move played, or EndSlot
	result engine.Result
	rating uint16
	date   uint32
}

type statsSetKey struct {
	game engine.Game
	key  uint64
}

// Writer adds games to a store in runs. It is not safe for concurrent use.
type Writer struct {
	s       *Store
	im      *mapping.IndexMappingImpl
	next    uint32 // next gid to assign
	occ     []occurrence
	recs    []pendingGame
	hashes  map[[16]byte]uint32
	meta    *metaIndexer
	popular map[statsSetKey]struct{} // positions with stats entries, loaded on first flush
	docs    []pendingDoc
	added   int
}

// pendingDoc is a game whose metadata document is still to be indexed.
type pendingDoc struct {
	gid   uint32
	rec   *Record
	attrs Attrs
}

type pendingGame struct {
	gid  uint32
	rec  []byte
	hash [16]byte
}

// NewWriter starts writing to the store.
func (s *Store) NewWriter() (*Writer, error) {
	if s.opts.ReadOnly {
		return nil, errors.New("index: store is open read-only")
	}
	if err := s.loadAttrs(); err != nil {
		return nil, err
	}
	im, ok := s.meta.Mapping().(*mapping.IndexMappingImpl)
	if !ok {
		return nil, errors.New("index: unexpected metadata mapping")
	}
	w := &Writer{s: s, im: im, next: s.man.NextGid, hashes: map[[16]byte]uint32{}}
	w.meta = startMetaIndexer(s, im)
	if err := w.meta.catchUp(); err != nil {
		w.meta.close()
		return nil, err
	}
	return w, nil
}

// Added returns how many games this writer stored.
func (w *Writer) Added() int { return w.added }

// Prepared is a game made ready for storing by Prepare: the CPU-heavy,
// order-independent work, which import workers do in parallel.
type Prepared struct {
	rec   *Record
	hash  [16]byte
	bytes []byte
	attrs Attrs
	occ   []occurrence // gid filled in by AddPrepared
}

// Prepare encodes a game for AddPrepared. It is safe for concurrent use.
func Prepare(g *Game) (*Prepared, error) {
	if len(g.Keys) != len(g.Moves)+1 {
		return nil, fmt.Errorf("index: game has %d keys for %d moves", len(g.Keys), len(g.Moves))
	}
	var scratch [256]engine.Move
	b, err := encodeRecord(nil, &g.Record, scratch[:])
	if err != nil {
		return nil, err
	}
	rec := g.Record
	a := attrsOf(&rec)
	return &Prepared{rec: &rec, hash: games.GameHash(g.Game, g.Keys[0], g.Moves), bytes: b, attrs: a, occ: occurrencesOf(g, a)}, nil
}

// Positions returns how many distinct positions the game adds to the index.
func (p *Prepared) Positions() int { return len(p.occ) }

// Add stores a game unless the same game (same start, same moves) is
// already stored.
func (w *Writer) Add(g *Game) (AddResult, error) {
	p, err := Prepare(g)
	if err != nil {
		return AddResult{}, err
	}
	return w.AddPrepared(p)
}

// AddPrepared stores a prepared game unless it is already stored. Games
// get their ids in the order they are added.
func (w *Writer) AddPrepared(p *Prepared) (AddResult, error) {
	if gid, ok := w.hashes[p.hash]; ok {
		return AddResult{gid, true}, nil
	}
	if gid, ok, err := w.s.lookupHash(p.hash); err != nil {
		return AddResult{}, err
	} else if ok {
		return AddResult{gid, true}, nil
	}
	gid := w.next
	w.next++
	w.hashes[p.hash] = gid
	w.recs = append(w.recs, pendingGame{gid, p.bytes, p.hash})
	w.s.setAttrs(gid, p.attrs)
	for _, o := range p.occ {
		o.gid = gid
		w.occ = append(w.occ, o)
	}
	w.docs = append(w.docs, pendingDoc{gid, p.rec, p.attrs})
	w.added++
	if len(w.recs) >= w.s.opts.RunGames {
		return AddResult{Gid: gid}, w.Flush()
	}
	return AddResult{Gid: gid}, nil
}

// attrsOf extracts the per-game attributes from a record's tags.
func attrsOf(r *Record) Attrs {
	a := Attrs{Game: r.Game, Result: r.Result, Date: ParseDate(r.Tag("Date")), Plies: uint16(min(len(r.Moves), 0xFFFF))}
	var sum, n int
	for _, name := range [...]string{"WhiteElo", "BlackElo", "RedElo"} {
		if v := atoi(r.Tag(name)); v > 0 && v < 4000 {
			sum += v
			n++
		}
	}
	if n > 0 {
		a.Rating = uint16(sum / n)
	}
	return a
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0
		}
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// occurrencesOf lists each distinct position of the game once, with the
// move played the first time it was reached (a game counts once per
// position, as in the lichess explorer).
func occurrencesOf(g *Game, a Attrs) []occurrence {
	idx := make([]int32, len(g.Keys))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortStableFunc(idx, func(x, y int32) int {
		kx, ky := g.Keys[x], g.Keys[y]
		switch {
		case kx < ky:
			return -1
		case kx > ky:
			return 1
		}
		return 0
	})
	out := make([]occurrence, 0, len(idx))
	for j, i := range idx {
		if j > 0 && g.Keys[idx[j-1]] == g.Keys[i] {
			continue
		}
		code := uint16(EndSlot)
		if int(i) < len(g.Moves) {
			code = games.WireCode(g.Game, g.Moves[i])
		}
		out = append(out, occurrence{key: g.Keys[i], ply: uint16(min(i, 0xFFFF)), game: g.Game, code: code, result: a.Result, rating: a.Rating, date: a.Date})
	}
	return out
}

// Flush writes the buffered games as one run and commits it.
func (w *Writer) Flush() error {
	if len(w.recs) == 0 {
		return nil
	}
	s := w.s
	run := s.man.NextRun
	if err := s.updateManifest(func(m *manifest) { m.NextRun++; m.Pending = run }); err != nil {
		return err
	}
	if w.popular == nil {
		if err := w.loadPopular(); err != nil {
			return err
		}
	}
	wb := s.db.NewWriteBatch()
	defer wb.Cancel()
	for _, p := range w.recs {
		if err := wb.Set(gameKey(p.gid), p.rec); err != nil {
			return err
		}
		if err := wb.Set(hashKey(p.hash), binary.BigEndian.AppendUint32(nil, p.gid)); err != nil {
			return err
		}
	}
	if err := s.writeAttrs(wb, w.recs[0].gid, w.next); err != nil {
		return err
	}
	if err := w.writePositions(wb, run); err != nil {
		return err
	}
	if err := wb.Flush(); err != nil {
		return fmt.Errorf("index: write run %d: %w", run, err)
	}
	err := s.updateManifest(func(m *manifest) {
		m.NextGid = w.next
		m.LiveRuns = append(m.LiveRuns, run)
		m.Pending = 0
	})
	if err != nil {
		return err
	}
	w.recs = w.recs[:0]
	w.occ = w.occ[:0]
	clear(w.hashes)
	w.meta.submit(w.docs)
	w.docs = nil
	return nil
}

// writePositions routes every occurrence of the run to a stats value
// (popular positions) or a tail block.
func (w *Writer) writePositions(wb *badger.WriteBatch, run uint32) error {
	occ := w.occ
	slices.SortFunc(occ, func(a, b occurrence) int {
		switch {
		case a.game != b.game:
			return int(a.game) - int(b.game)
		case a.key < b.key:
			return -1
		case a.key > b.key:
			return 1
		}
		return int(a.gid) - int(b.gid)
	})
	promote := w.s.opts.PromoteAt
	var tail tailWriter
	tail.init(w.s, wb, run)
	for i := 0; i < len(occ); {
		j := i + 1
		for j < len(occ) && occ[j].key == occ[i].key && occ[j].game == occ[i].game {
			j++
		}
		group := occ[i:j]
		sk := statsSetKey{group[0].game, group[0].key}
		_, popular := w.popular[sk]
		if !popular && len(group) >= promote {
			popular = true
		}
		if !popular && group[0].ply <= promoteByHistoryPlies {
			seen, err := tail.countExisting(sk.game, sk.key)
			if err != nil {
				return err
			}
			popular = len(group)+seen >= promote
		}
		if popular {
			w.popular[sk] = struct{}{}
			if err := wb.Set(statsKey(byte(sk.game), sk.key, run), encodeStats(nil, statsOf(group))); err != nil {
				return err
			}
		} else if err := tail.add(group); err != nil {
			return err
		}
		i = j
	}
	return tail.finish()
}

// promoteByHistoryPlies bounds where earlier runs' tail postings count
// towards promoting a position: the positions many games share are opening
// positions, and the tail's fingerprints only estimate counts (a stray
// match could promote a position to a costly stats entry).
const promoteByHistoryPlies = 24

// statsOf aggregates one run's occurrences of a position.
func statsOf(group []occurrence) *statsValue {
	v := &statsValue{Games: make([]Posting, 0, len(group))}
	for _, o := range group {
		s := v.slot(o.code)
		m := &v.Moves[s]
		m.Games++
		switch o.result {
		case engine.FirstWins:
			m.FirstWins++
		case engine.SecondWins:
			m.SecondWins++
		case engine.Draw:
			m.Draws++
		}
		if o.rating > 0 {
			m.RatingSum += uint64(o.rating)
			m.Rated++
		}
		m.LastDate = max(m.LastDate, o.date)
		v.Games = append(v.Games, Posting{o.gid, s})
	}
	return v
}

// loadPopular reads the keys of all stats values.
func (w *Writer) loadPopular() error {
	w.popular = map[statsSetKey]struct{}{}
	return w.s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{prefixStats, '|'}})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			k := it.Item().Key()
			if len(k) == 15 && w.s.man.live(binary.BigEndian.Uint32(k[11:])) {
				w.popular[statsSetKey{engine.Game(k[2]), binary.BigEndian.Uint64(k[3:11])}] = struct{}{}
			}
		}
		return nil
	})
}

// tailWriter gathers one run's tail postings bucket by bucket (occurrences
// arrive sorted by key, so buckets arrive in order) and counts the postings
// earlier runs hold, to promote positions that become popular.
type tailWriter struct {
	s       *Store
	wb      *badger.WriteBatch
	run     uint32
	game    engine.Game
	bucket  int // -1 before the first
	entries []tailEntry
	// existing postings of the current bucket in live runs, per block:
	// fingerprint width and counts per fingerprint (an estimate: only the
	// promotion uses it)
	existing []existingBlock
}

type existingBlock struct {
	width  int
	counts map[uint32]int
}

func (t *tailWriter) init(s *Store, wb *badger.WriteBatch, run uint32) {
	*t = tailWriter{s: s, wb: wb, run: run, bucket: -1}
}

func (t *tailWriter) enter(game engine.Game, bucket uint16) error {
	if t.bucket == int(bucket) && t.game == game {
		return nil
	}
	if err := t.finish(); err != nil {
		return err
	}
	t.game, t.bucket = game, int(bucket)
	t.existing = t.existing[:0]
	if len(t.s.man.LiveRuns) == 0 {
		return nil
	}
	return t.s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: tailPrefix(byte(game), bucket)})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			k := it.Item().Key()
			if !t.s.man.live(binary.BigEndian.Uint32(k[len(k)-4:])) {
				continue
			}
			eb := existingBlock{counts: map[uint32]int{}}
			err := it.Item().Value(func(v []byte) error {
				return decodeTail(v, func(_, print uint32, w int) { eb.width = w; eb.counts[print]++ })
			})
			t.existing = append(t.existing, eb)
			if err != nil {
				return err
			}
		}
		return nil
	})
}

func (t *tailWriter) countExisting(game engine.Game, key uint64) (int, error) {
	if err := t.enter(game, tailBucket(key)); err != nil {
		return 0, err
	}
	n := 0
	for _, eb := range t.existing {
		n += eb.counts[printOf(key<<tailBucketBits, eb.width)]
	}
	return n, nil
}

func (t *tailWriter) add(group []occurrence) error {
	if err := t.enter(group[0].game, tailBucket(group[0].key)); err != nil {
		return err
	}
	for _, o := range group {
		t.entries = append(t.entries, tailEntry{o.gid, o.key << tailBucketBits})
	}
	return nil
}

func (t *tailWriter) finish() error {
	if len(t.entries) == 0 {
		return nil
	}
	err := t.wb.Set(tailKey(byte(t.game), uint16(t.bucket), t.run), encodeTail(nil, t.entries, fingerprintBits(len(t.entries))))
	t.entries = t.entries[:0]
	return err
}

// Close flushes what is buffered, waits for the metadata index to catch
// up, and merges runs when there are too many.
func (w *Writer) Close() error {
	err := w.Flush()
	if merr := w.meta.close(); err == nil {
		err = merr
	}
	if err == nil && w.added > 0 {
		err = w.s.compactMeta()
	}
	if err != nil {
		return err
	}
	if len(w.s.man.LiveRuns) > w.s.opts.MaxRuns {
		return w.s.mergeRuns()
	}
	return nil
}
