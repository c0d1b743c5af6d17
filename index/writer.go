package index

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"math/bits"
	"path/filepath"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2/mapping"

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

// occurrence is one game reaching one position, as the tree counts it:
// 16 bytes, since a run sorts millions of them. The game's result, rating
// and date are looked up by gid.
type occurrence struct {
	key  uint64
	gid  uint32
	ply  uint16 // the first ply the game reached it at
	code uint16 // wire code of the move played, or EndSlot
}

// gameOccurrences are the occurrences of one stored game.
type gameOccurrences struct {
	gid  uint32
	game engine.Game
	occ  []occurrence
}

// Writer adds games to a store in runs. It is not safe for concurrent use.
type Writer struct {
	s     *Store
	im    *mapping.IndexMappingImpl
	next  uint32 // next gid to assign
	occ   []gameOccurrences
	attrs []Attrs // of the games of recs, in gid order
	recs  []pendingGame
	// first is the store's next gid when the writer started; newAttrs
	// are the attributes of the games it stored since, in gid order.
	first    uint32
	newAttrs []Attrs
	// chunks caches attribute chunks read from the store (a duplicate
	// check reads its candidates' attributes, the first run its chunk).
	chunks map[uint32][]Attrs
	// hashes holds the gids stored under each moves hash looked up or
	// added (the store's h| values, then this writer's games), in gid
	// order: a duplicate check reads one value, not every game's hash.
	hashes map[uint64][]uint32
	dedupe Dedupe
	meta   *metaIndexer
	// popular holds, per game (by Game%4), the keys of the positions with
	// stats entries; loaded on the first flush.
	popular *[4]keySet
	// counts counts the games that reached each opening position and were
	// left in the tail, in every run so far (counts.go): promotion asks it.
	counts      *openingCounts
	docs        []pendingDoc
	added       int
	gamesBefore int // the store's games when the writer started
	expected    int // the games the import expects to add (ExpectGames)
	// the run being written in the background, and its result
	inflight *runData
	done     chan error
	// written estimates the bytes this writer's runs wrote (space.go);
	// diskFull is set once a run found too little space.
	written  int64
	diskFull bool
	// bucketer lays out each run's occurrences by bucket, in memory the
	// runs share.
	bucketer bucketer
}

// pendingDoc is a game whose metadata document is still to be indexed.
type pendingDoc struct {
	gid   uint32
	rec   *Record
	attrs Attrs
}

type pendingGame struct {
	gid uint32
	rec []byte
}

// NewWriter starts writing to the store.
func (s *Store) NewWriter() (*Writer, error) {
	if s.opts.ReadOnly {
		return nil, errors.New("index: store is open read-only")
	}
	if err := s.indexHashes(); err != nil {
		return nil, err
	}
	im, ok := s.meta.Mapping().(*mapping.IndexMappingImpl)
	if !ok {
		return nil, errors.New("index: unexpected metadata mapping")
	}
	counts, err := loadOpeningCounts(s.dir)
	if err != nil {
		return nil, err
	}
	w := &Writer{s: s, im: im, next: s.man.NextGid, first: s.man.NextGid, gamesBefore: s.Games(), counts: counts,
		chunks: map[uint32][]Attrs{}, hashes: map[uint64][]uint32{}}
	w.meta = startMetaIndexer(s, im)
	if err := w.meta.catchUp(); err != nil {
		w.meta.close()
		counts.release()
		return nil, err
	}
	return w, nil
}

// ExpectGames tells the writer that the import will add about n games in
// all. The tail's fingerprints are made as wide as the store of that size
// needs (tailWidth); without the hint, a writer sizes them for the games
// stored so far, which leaves the first runs of a large import too narrow
// once merged.
func (w *Writer) ExpectGames(n int) { w.expected = max(w.expected, n) }

// SetDedupe sets how the writer decides that a game is already stored
// (DedupeGame unless set); call it before the first Add.
func (w *Writer) SetDedupe(d Dedupe) { w.dedupe = d }

// stored returns the stored game that a is a duplicate of, if any: the
// first game with the same moves (the same hash), and with DedupeGame the
// same players, result and date where known.
func (w *Writer) stored(a *Attrs) (uint32, bool, error) {
	gids, err := w.hashGids(a.Hash)
	if err != nil {
		return 0, false, err
	}
	for _, gid := range gids {
		c, ok, err := w.attrsOf(gid)
		if err != nil {
			return 0, false, err
		}
		// A gid of an interrupted run may name another game since.
		if !ok || c.Deleted || c.Hash != a.Hash {
			continue
		}
		if w.dedupe == DedupeMoves || sameGame(c, *a) {
			return gid, true, nil
		}
	}
	return 0, false, nil
}

// hashGids returns the games stored under a moves hash.
func (w *Writer) hashGids(h uint64) ([]uint32, error) {
	if gids, ok := w.hashes[h]; ok {
		return gids, nil
	}
	// Only games committed before the writer started (below w.first)
	// can be stored duplicates: a game this writer added is in w.hashes
	// already, and a gid at or past w.first in an h| value names a game
	// of a run a crash left uncommitted, a gid this writer hands out
	// again. Kept, it would also come before this writer's gids in the
	// list, which must ascend (encodeGids).
	if w.first <= 1 {
		// Nothing stored: a point read per game would find nothing
		// (0.5 of the ~22 CPU-seconds of bench/import.sh's 164,093
		// games into an empty database).
		return nil, nil
	}
	gids, err := w.s.hashGids(h)
	if err != nil {
		return nil, err
	}
	gids = slices.DeleteFunc(gids, func(g uint32) bool { return g >= w.first })
	w.hashes[h] = gids
	return gids, nil
}

// attrsOf returns the attributes of a game stored before w.next.
func (w *Writer) attrsOf(gid uint32) (Attrs, bool, error) {
	switch {
	case gid == 0 || gid >= w.next:
		return Attrs{}, false, nil
	case gid >= w.first:
		return w.newAttrs[gid-w.first], true, nil
	}
	if a, ok := w.s.loadedAttrs(gid); ok {
		return a, true, nil
	}
	c := gid / attrsPerChunk
	as, ok := w.chunks[c]
	if !ok {
		var err error
		if as, err = w.s.readAttrsChunk(c); err != nil {
			return Attrs{}, false, err
		}
		w.chunks[c] = as
	}
	i := int(gid % attrsPerChunk)
	if i >= len(as) {
		return Attrs{}, false, nil
	}
	return as[i], true, nil
}

// attrChunks encodes the attribute chunks that hold games from..to-1
// (to is w.next).
func (w *Writer) attrChunks(from, to uint32) (map[uint32][]byte, error) {
	out := map[uint32][]byte{}
	for c := from / attrsPerChunk; c <= (to-1)/attrsPerChunk; c++ {
		first := c * attrsPerChunk
		last := min(first+attrsPerChunk, to)
		buf := make([]byte, int(last-first)*attrsSize)
		for gid := first; gid < last; gid++ {
			a, _, err := w.attrsOf(gid)
			if err != nil {
				return nil, err
			}
			putAttrs(buf[int(gid-first)*attrsSize:], a)
		}
		out[c] = buf
	}
	return out, nil
}

// Added returns how many games this writer stored.
func (w *Writer) Added() int { return w.added }

// Prepared is a game made ready for storing by Prepare: the CPU-heavy,
// order-independent work, which import workers do in parallel.
type Prepared struct {
	rec   *Record
	bytes []byte
	attrs Attrs
	occ   []occurrence // gid filled in by AddPrepared
	// terms is the analysis of the metadata's fields when CopyGames made
	// it for a TermRower (nil otherwise).
	terms []*FieldTerms
}

// Prepare encodes a game for AddPrepared. It is safe for concurrent use.
func Prepare(g *Game) (*Prepared, error) { return prepare(g, nil) }

// prepare is Prepare with the record already encoded (encoded, when not
// nil: a stored record of the current version, which encodeRecord would
// write again byte for byte).
func prepare(g *Game, encoded []byte) (*Prepared, error) {
	if len(g.Keys) != len(g.Moves)+1 {
		return nil, fmt.Errorf("index: game has %d keys for %d moves", len(g.Keys), len(g.Moves))
	}
	b := encoded
	if b == nil {
		var err error
		if b, err = encodeRecord(make([]byte, 0, recordSizeHint(&g.Record)), &g.Record); err != nil {
			return nil, err
		}
	}
	// The metadata document is built later, after the caller has reused
	// g's slices: keep a copy of what it reads, and not the moves.
	a := attrsOf(&g.Record)
	rec := g.Record
	rec.Moves, rec.Ranks, rec.Notes, rec.Rulings = nil, nil, nil, slices.Clone(rec.Rulings)
	a.Hash = foldHash(games.GameHash(g.Game, g.Keys[0], g.Moves))
	a.Players = playersHash(&g.Record)
	if len(g.Moves) == 0 {
		a.Hash = headerHash(a.Hash, &g.Record)
	}
	return &Prepared{rec: &rec, bytes: b, attrs: a, occ: occurrencesOf(g)}, nil
}

// Positions returns how many distinct positions the game adds to the index.
func (p *Prepared) Positions() int { return len(p.occ) }

// Add stores a game unless the same game is already stored (SetDedupe
// says what the same is).
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
	gid, dup, err := w.stored(&p.attrs)
	if err != nil {
		return AddResult{}, err
	}
	if dup {
		return AddResult{gid, true}, nil
	}
	gid = w.next
	w.next++
	if gids := w.hashes[p.attrs.Hash]; len(gids) == 0 || gids[len(gids)-1] != gid {
		w.hashes[p.attrs.Hash] = append(gids, gid)
	}
	if w.recs == nil {
		w.sizeRun()
	}
	w.recs = append(w.recs, pendingGame{gid, p.bytes})
	w.newAttrs = append(w.newAttrs, p.attrs)
	w.s.setAttrs(gid, p.attrs) // if a reader of this store loaded them: keep them current
	w.attrs = append(w.attrs, p.attrs)
	w.occ = append(w.occ, gameOccurrences{gid, p.rec.Game, p.occ})
	w.docs = append(w.docs, pendingDoc{gid, p.rec, p.attrs})
	w.added++
	if len(w.recs) >= w.s.opts.RunGames {
		return AddResult{Gid: gid}, w.Flush()
	}
	return AddResult{Gid: gid}, nil
}

// sizeRun gives the lists of the run it starts room for the games the
// import still expects, up to a run: grown by appending, they were copied
// and faulted in about twice over (issue 18).
func (w *Writer) sizeRun() {
	n := min(w.s.opts.RunGames, w.expected-int(w.next-w.first))
	if n <= 0 {
		return
	}
	w.recs = make([]pendingGame, 0, n)
	w.attrs = make([]Attrs, 0, n)
	w.occ = make([]gameOccurrences, 0, n)
	w.docs = make([]pendingDoc, 0, n)
}

// metaBatchDocs is how many games' metadata the indexer takes at once: a
// run's, committed, in batches of this many (values.go).
var metaBatchDocs = 50_000 // a variable for tests

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

// headerHash identifies a game without moves by its header as well:
// header-only games (a broadcast's results) share their start and their
// empty move list, so the moves alone would fold them all into one. As a
// SCID user expects, such a game is a duplicate of another only when all
// its tags match: two games with the same players, date and result but
// another time control, board, rating or any other tag are two games,
// whether or not they have an Event, Site or Round. Tags are compared by
// name whatever their case and order; empty ones say nothing. What an
// export adds or rewrites is left out, so a game and its export are the
// same game and importing a file again adds nothing: XqdbSource, the
// Game, SetUp and Termination tags (--annotate), the Result tag (the
// result as read is hashed, whether a tag or the movetext gave it), and
// the dates (hashed as dates, however written).
func headerHash(h uint64, r *Record) uint64 {
	type pair struct{ name, value string }
	tags := make([]pair, 0, len(r.Tags))
	for _, t := range r.Tags {
		name := strings.ToLower(t.Name)
		if t.Value == "" || exportTags[name] {
			continue
		}
		tags = append(tags, pair{name, t.Value})
	}
	slices.SortFunc(tags, func(a, b pair) int {
		return cmp.Or(strings.Compare(a.name, b.name), strings.Compare(a.value, b.value))
	})
	f := fnv.New64a()
	for _, t := range tags {
		f.Write([]byte(t.name))
		f.Write([]byte{0})
		f.Write([]byte(t.value))
		f.Write([]byte{0})
	}
	var d [9]byte
	binary.BigEndian.PutUint32(d[:], ParseDate(r.Tag("Date")))
	binary.BigEndian.PutUint32(d[4:], ParseDate(r.Tag("EventDate")))
	d[8] = byte(r.Result)
	f.Write(d[:])
	return h ^ f.Sum64()
}

// exportTags are the tags (lower-cased) that show and export add to a
// stored game or write otherwise than read; headerHash leaves them out.
var exportTags = map[string]bool{"xqdbsource": true, "game": true, "setup": true, "fen": true,
	"termination": true, "result": true, "date": true, "eventdate": true}

// occurrencesOf lists each distinct position of the game once, with the
// move played the first time it was reached (a game counts once per
// position, as in the lichess explorer). Position search stops at a null
// move: the position before it counts the game as ending there, and the
// positions after it (never on a board) are not indexed.
func occurrencesOf(g *Game) []occurrence {
	if len(g.Moves) == 0 {
		return nil // a header-only game: position search skips it
	}
	// An open-addressing set of the keys seen, at most half full: a
	// position repeated later in the game is skipped.
	var stack [512]uint64
	size := 1 << bits.Len(uint(2*len(g.Keys)))
	seen := stack[:0]
	if size <= len(stack) {
		seen = stack[:size]
	} else {
		seen = make([]uint64, size)
	}
	seenZero := false // 0 marks an empty slot, so key 0 is tracked apart
	out := make([]occurrence, 0, len(g.Keys))
	keys := g.Keys
	for ply, m := range g.Moves {
		if m == engine.NullMove {
			keys = keys[:ply+1]
			break
		}
	}
	for ply, k := range keys {
		if k == 0 {
			if seenZero {
				continue
			}
			seenZero = true
		} else {
			i := int(k>>32) & (size - 1)
			for seen[i] != 0 && seen[i] != k {
				i = (i + 1) & (size - 1)
			}
			if seen[i] == k {
				continue
			}
			seen[i] = k
		}
		code := uint16(EndSlot)
		if ply < len(g.Moves) && g.Moves[ply] != engine.NullMove {
			code = games.WireCode(g.Game, g.Moves[ply])
		}
		out = append(out, occurrence{key: k, ply: uint16(min(ply, 0xFFFF)), code: code})
	}
	return out
}

// runData is one run on its way to disk.
type runData struct {
	run    uint32
	recs   []pendingGame
	occ    []gameOccurrences
	attrs  []Attrs // of recs' games, in gid order
	docs   []pendingDoc
	commit *runCommit        // closed once the run is committed, or failed
	chunks map[uint32][]byte // attribute chunks to write
	hashes map[uint64][]byte // h| values to write: the gids under each hash
	next   uint32            // NextGid once the run is committed
	// scale is how much the run's tail blocks will grow as runs merge:
	// the store's games once the import is done, to the run's (runScale).
	scale float64
	// filtered: the run gets a position filter (filter.go), which
	// writePositions writes and records in filter.
	filtered bool
	filter   *runFilter
}

// runScale is a run's scale: the games the store will hold, to the run's
// games.
func runScale(storeGames, runGames int) float64 {
	return float64(max(storeGames, runGames)) / float64(max(runGames, 1))
}

// Flush hands the buffered games to the background writer as one run
// (waiting for the previous run to be committed first) and goes on:
// replaying and preparing the next run overlaps with writing this one.
// Runs are committed in order, so a crash loses at most the runs not yet
// committed, which the next import redoes.
func (w *Writer) Flush() error {
	if err := w.wait(); err != nil {
		return err
	}
	if len(w.recs) == 0 {
		return nil
	}
	s := w.s
	chunks, err := w.attrChunks(w.recs[0].gid, w.next)
	if err != nil {
		return err
	}
	rd := &runData{run: s.man.NextRun, recs: w.recs, occ: w.occ, attrs: w.attrs, docs: w.docs, next: w.next,
		chunks: chunks, hashes: map[uint64][]byte{}}
	storeGames := max(int(w.next)-1, w.gamesBefore+w.expected)
	rd.scale = runScale(storeGames, len(rd.recs))
	// A large import's runs are merged at its end: no filter for them.
	rd.filtered = !w.large(max(w.expected, int(w.next-w.first))) && filterWanted(len(rd.recs), storeGames)
	for _, a := range w.attrs {
		rd.hashes[a.Hash] = encodeGids(w.hashes[a.Hash])
	}
	size := runBytes(rd)
	if err := s.ensureSpace(size, w.written); err != nil {
		w.diskFull = true
		return err
	}
	w.written += size
	if err := s.updateManifest(func(m *manifest) { m.NextRun++; m.Pending = rd.run }); err != nil {
		return err
	}
	w.inflight = rd
	w.recs, w.occ, w.attrs, w.docs = nil, nil, nil, nil
	w.done = make(chan error, 1)
	rd.commit = &runCommit{done: make(chan struct{})}
	go func() {
		defer close(rd.commit.done)
		w.done <- w.writeRun(rd)
	}()
	for from := 0; from < len(rd.docs); from += metaBatchDocs {
		w.meta.submit(rd.docs[from:min(from+metaBatchDocs, len(rd.docs))], rd.commit)
	}
	return nil
}

// wait waits for the run being written, if any, and returns its error.
func (w *Writer) wait() error {
	if w.done == nil {
		return nil
	}
	err := <-w.done
	w.done, w.inflight = nil, nil
	return err
}

// writeRun writes a run and commits it by updating the manifest.
func (w *Writer) writeRun(rd *runData) error {
	s := w.s
	if w.popular == nil {
		if err := w.loadPopular(); err != nil {
			return err
		}
	}
	if !s.man.Heads {
		if err := s.indexHeads(); err != nil {
			return err
		}
	}
	wb := s.newBatch()
	defer wb.Cancel()
	if err := wb.stream(rd.run, tailBitsFor(len(rd.recs)), runTableSizeFor(len(rd.recs))); err != nil {
		return err
	}
	// The records, attributes and hashes go to the store's two Badgers
	// while the positions go to the run's: one after the other, the last
	// run of the pgnmentor import spent 0.47 of its 0.89 s before its
	// positions, in Badger's write path (a million-game import's other
	// runs overlap the replay of the next; issue 18, import ≥ 0.5× SCID).
	err := inParallel(func() error {
		// Badger holds the keys until the batch is written: cut from one
		// buffer, not one allocation each.
		keys := make([]byte, 0, recordKeyLen*len(rd.recs))
		for _, p := range rd.recs {
			keys = appendRecordKey(keys, rd.run, p.gid)
			if err := wb.Set(keys[len(keys)-recordKeyLen:], p.rec); err != nil {
				return err
			}
		}
		for c, b := range rd.chunks {
			if err := wb.Set(attrsKey(c), b); err != nil {
				return err
			}
		}
		// In key order: Badger's memtable, a skiplist, takes keys near the
		// last one faster than keys anywhere (the hashes are random).
		hashes := slices.Sorted(maps.Keys(rd.hashes))
		keys = make([]byte, 0, hashKeyLen*len(hashes))
		for _, h := range hashes {
			keys = appendHashKey(keys, h)
			if err := wb.Set(keys[len(keys)-hashKeyLen:], rd.hashes[h]); err != nil {
				return err
			}
		}
		return nil
	}, func() error { return w.writePositions(wb, rd) })
	if err != nil {
		return err
	}
	if err := wb.Flush(); err != nil {
		return fmt.Errorf("index: write run %d: %w", rd.run, err)
	}
	err = s.updateManifest(func(m *manifest) {
		m.NextGid = rd.next
		m.HashedUpTo = rd.next
		m.addRun(rd.run, rd.recs[0].gid, len(rd.recs))
		m.setFilter(rd.run, rd.filter)
		// The run's records are keyed under it (keys.go).
		m.Epochs = append(m.Epochs, epoch{From: rd.recs[0].gid, Run: rd.run})
		m.Pending = 0
	})
	rd.commit.ok = err == nil
	return err
}

// writePositions routes every occurrence of the run to a stats value
// (popular positions) or a tail block, bucket by bucket.
func (w *Writer) writePositions(wb *batch, rd *runData) error {
	occ, starts := w.bucketer.layOut(rd.occ)
	// The games' own lists are copied: let them go while the run is
	// written (73 MB at a run of 50,000 random games, of the live heap a
	// million-game import peaks with; issue 18).
	rd.occ = nil
	firstGid := rd.recs[0].gid
	attrsOf := func(gid uint32) Attrs { return rd.attrs[gid-firstGid] }
	dateOf := func(gid uint32) uint32 { return rd.attrs[gid-firstGid].Date }
	promote := w.s.opts.PromoteAt
	var tail tailWriter
	tail.init(wb, rd.run, rd.scale, tailBitsFor(len(rd.recs))) // as addRun records
	if rd.filtered {
		var keys [4]int // an occurrence each, popular ones too
		for g := range keys {
			keys[g] = starts[(g+1)*tailBuckets] - starts[g*tailBuckets]
		}
		tail.filter = newFilterBuilder(keys, 64)
	}
	var byKey []occurrence
	var popKeys []uint64
	var popGroups [][2]int // byKey's popular groups, from, to
	var grouper grouper
	for b := 0; b+1 < len(starts); b++ {
		bucket := occ[starts[b]:starts[b+1]] // in gid order
		if len(bucket) == 0 {
			continue
		}
		game := engine.Game(b / tailBuckets)
		popKeysOf := &w.popular[game%4]
		byKey = grouper.group(byKey[:0], bucket)
		popKeys, popGroups = popKeys[:0], popGroups[:0]
		for i := 0; i < len(byKey); {
			j := i + 1
			for j < len(byKey) && byKey[j].key == byKey[i].key {
				j++
			}
			group := byKey[i:j]
			from := i
			i = j
			key := group[0].key
			known := popKeysOf.has(key)
			popular := known || len(group) >= promote
			if !popular && group[0].ply <= promoteByHistoryPlies {
				// Earlier runs' games count too: a position reached by a
				// few games in each of many runs is popular.
				popular = len(group)+w.counts.count(game, key) >= promote
				if !popular {
					w.counts.add(game, key, len(group))
				}
			}
			if !popular {
				continue
			}
			if !known {
				// Written with the run: a crash before its commit leaves
				// a p| entry without stats, which only promotes early.
				popKeysOf.add(key)
				if err := wb.Set(popularKey(byte(game), key), nil); err != nil {
					return err
				}
			}
			popKeys = append(popKeys, key)
			popGroups = append(popGroups, [2]int{from, j})
		}
		// The run's Badger takes its stats values and heads in key order
		// (runstore.go, batch.stream); the groups come in no order.
		slices.SortFunc(popGroups, func(a, b [2]int) int { return cmp.Compare(byKey[a[0]].key, byKey[b[0]].key) })
		for _, g := range popGroups {
			group := byKey[g[0]:g[1]]
			key := group[0].key
			var v statsValue
			v.Games = make([]Posting, 0, len(group))
			for _, o := range group {
				v.add(o.gid, o.code, attrsOf(o.gid))
			}
			if err := wb.Set(statsKey(byte(game), rd.run, key), encodeStats(nil, &v)); err != nil {
				return err
			}
			if err := putHead(wb.Set, byte(game), rd.run, key, &v, dateOf); err != nil {
				return err
			}
		}
		// The tail takes the rest in gid order, as its blocks are coded.
		if err := tail.enter(game, uint16(b%tailBuckets)); err != nil {
			return err
		}
		for _, o := range bucket {
			if !slices.Contains(popKeys, o.key) {
				tail.entries = append(tail.entries, tailEntry{o.gid, o.key << tail.bits})
			}
		}
	}
	if err := tail.finish(); err != nil {
		return err
	}
	var err error
	rd.filter, err = tail.filter.write(w.s.dir, rd.run)
	return err
}

// promoteByHistoryPlies bounds where earlier runs' tail postings count
// towards promoting a position: the positions many games share are opening
// positions, and the tail's fingerprints only estimate counts (a stray
// count could promote a position to a costly stats entry).
const promoteByHistoryPlies = 24

// tailBuckets is the number of tail buckets of one game.
const tailBuckets = 1 << tailBucketBits

// bucketer lays each run's occurrences out by game and tail bucket (the
// top key bits), in gid order within a bucket, in memory kept from run to
// run: memory the process has not touched yet costs a page fault a 4 KB
// page (10 µs on this project's machine), and a run of 50,000 games lays
// out 64 MB; a new layout each run took 0.58–0.72 CPU-seconds of the
// pgnmentor import, 0.37–0.42 reused (issue 18).
type bucketer struct {
	out  []occurrence
	part []occurrence // a copy of the part the second pass sorts
}

// coarseBucketBits are the key bits the first of layOut's two passes
// sorts by.
const coarseBucketBits = 7

// layOut returns the occurrences of games, gids set, by bucket: bucket b
// (game b/tailBuckets) is out[starts[b]:starts[b+1]]. out is valid until
// the next call.
//
// It is a counting sort in two passes: by game and the top 7 bits of the
// bucket number, then each part by the other 7 bits, through a copy of
// the part. In one pass each occurrence went to one of 16,384 places,
// each a cache miss and most a TLB miss; 512 and 128 places stay in the
// caches (BenchmarkBucketOccurrences: 38–49 → 26–31 ms, 2 million
// occurrences).
func (bk *bucketer) layOut(games []gameOccurrences) (out []occurrence, starts []int) {
	const (
		fineBits = tailBucketBits - coarseBucketBits
		coarse   = 4 << coarseBucketBits
		fine     = 1 << fineBits
	)
	var counts [coarse + 1]int
	for _, g := range games {
		base := int(g.game) % 4 << coarseBucketBits
		for _, o := range g.occ {
			counts[base+int(o.key>>(64-coarseBucketBits))+1]++
		}
	}
	for i := 1; i < len(counts); i++ {
		counts[i] += counts[i-1]
	}
	n := counts[coarse]
	// Every element is written below: the last run's memory, grown only
	// when too small.
	bk.out = slices.Grow(bk.out[:0], n)[:n]
	out = bk.out
	next := counts // where each coarse part's next occurrence goes
	for _, g := range games {
		base := int(g.game) % 4 << coarseBucketBits
		for _, o := range g.occ {
			c := base + int(o.key>>(64-coarseBucketBits))
			o.gid = g.gid
			out[next[c]] = o
			next[c]++
		}
	}
	// Part c is now out[counts[c]:next[c]], and next[c] == counts[c+1].
	starts = make([]int, 4*tailBuckets+1)
	for c := range coarse {
		from := counts[c]
		bk.part = append(bk.part[:0], out[from:next[c]]...)
		var fineNext [fine]int
		for _, o := range bk.part {
			fineNext[int(o.key>>(64-tailBucketBits))&(fine-1)]++
		}
		at := from
		for f := range fineNext {
			starts[c<<fineBits|f] = at
			at, fineNext[f] = at+fineNext[f], at
		}
		for _, o := range bk.part {
			f := int(o.key>>(64-tailBucketBits)) & (fine - 1)
			out[fineNext[f]] = o
			fineNext[f]++
		}
	}
	starts[4*tailBuckets] = n
	return out, starts
}

// grouper lays a bucket's occurrences out by key: each key's occurrences
// together, in the bucket's (gid) order, which is all writePositions needs
// (no order among keys). A small hash table does it in two linear passes,
// faster than sorting.
type grouper struct {
	slots  []int32  // hash table: group index + 1, 0 when empty
	keys   []uint64 // per group
	starts []int32  // per group: count, then where its next occurrence goes
	of     []int32  // per occurrence: its group
}

// group appends bucket's occurrences to dst grouped by key.
func (g *grouper) group(dst []occurrence, bucket []occurrence) []occurrence {
	size := 1 << bits.Len(uint(2*len(bucket)))
	if cap(g.slots) < size {
		g.slots = make([]int32, size)
	}
	slots := g.slots[:size]
	clear(slots)
	mask := uint64(size - 1)
	g.keys, g.starts, g.of = g.keys[:0], g.starts[:0], g.of[:0]
	for _, o := range bucket {
		// The bucket's keys share their top bits; the low ones are random.
		i := o.key & mask
		for slots[i] != 0 && g.keys[slots[i]-1] != o.key {
			i = (i + 1) & mask
		}
		if slots[i] == 0 {
			g.keys = append(g.keys, o.key)
			g.starts = append(g.starts, 0)
			slots[i] = int32(len(g.keys))
		}
		grp := slots[i] - 1
		g.starts[grp]++
		g.of = append(g.of, grp)
	}
	at := int32(0)
	for i, n := range g.starts {
		g.starts[i] = at
		at += n
	}
	base := len(dst)
	dst = slices.Grow(dst, len(bucket))[:base+len(bucket)]
	for i, o := range bucket {
		grp := g.of[i]
		dst[base+int(g.starts[grp])] = o
		g.starts[grp]++
	}
	return dst
}

// tailWriter gathers one run's tail postings block by block (blocks
// arrive in order) and writes each block.
type tailWriter struct {
	wb      *batch
	scale   float64 // how the run's blocks will grow (tailWidth)
	bits    int     // the run's bucket bits (tailBitsFor)
	run     uint32
	game    engine.Game
	bucket  int // the block's bucket at bits; -1 before the first
	entries []tailEntry
	sizes   blockMean      // of the game's blocks so far
	filter  *filterBuilder // nil: the run has no filter
}

// blockMean is the mean size of a run's tail blocks of one game so far,
// which each block's fingerprint width is chosen for. Chosen for its own
// size, each block of a run got a width of its own, and a merge keeps
// the narrowest of the widths it merges: the twenty runs of a
// million-game import, their blocks of about 230 entries give or take
// 15, left 47% of the merged blocks (4,600 entries) a bit narrower than
// the rest, and 1.57 stray games to replay a lookup (1.11 since; trees
// 13% faster at p50, the store 1% larger; issue 18). A run's blocks are
// alike in expectation (the keys are random), so their mean decides.
type blockMean struct{ entries, blocks int }

// add counts a block of n entries and returns the mean so far.
func (m *blockMean) add(n int) int {
	m.entries += n
	m.blocks++
	return (m.entries + m.blocks/2) / m.blocks
}

func (t *tailWriter) init(wb *batch, run uint32, scale float64, bits int) {
	*t = tailWriter{wb: wb, run: run, scale: scale, bits: bits, bucket: -1}
}

// enter starts the block of a bucket (of tailBucketBits), unless it is
// the current one's: a block of fewer bits spans several buckets.
func (t *tailWriter) enter(game engine.Game, bucket uint16) error {
	block := int(bucket) >> (tailBucketBits - t.bits)
	if t.bucket == block && t.game == game {
		return nil
	}
	if err := t.finish(); err != nil {
		return err
	}
	if t.game != game {
		t.sizes = blockMean{}
	}
	t.game, t.bucket = game, block
	return nil
}

func (t *tailWriter) finish() error {
	if len(t.entries) == 0 {
		return nil
	}
	width := tailWidthAt(t.sizes.add(len(t.entries)), t.scale, t.bits)
	if t.filter != nil {
		// A filtered run keeps besideTailWidth bits below a full bucket
		// (a block of fewer bucket bits carries the rest in its
		// fingerprint).
		width = max(width, besideTailWidth+tailBucketBits-t.bits)
		top := uint64(t.bucket) << (64 - t.bits)
		for _, e := range t.entries {
			t.filter.add(byte(t.game), top|e.key>>t.bits)
		}
		t.filter.knownBits(t.bits + tailWidthKept(width))
	}
	err := t.wb.Set(tailKey(byte(t.game), t.run, uint16(t.bucket)), encodeTail(nil, t.entries, width))
	t.entries = t.entries[:0]
	return err
}

// Close flushes what is buffered and, while the last run is written,
// waits for the metadata index to catch up and merges its segments; then
// it merges runs when there are too many. Bleve's segment merge and the
// run writes and merges touch different stores, so they run side by side.
func (w *Writer) Close() error {
	defer w.counts.release()
	err := w.Flush() // the last run goes to the background writer, its games to the metadata indexer
	diskFull := w.diskFull
	metaDone := make(chan error, 1)
	// indexed is closed once Bleve has every document and the manifest
	// records it: flatten's writes block the globals' other writers.
	indexed := make(chan struct{})
	go func() {
		// Bleve's segments merge once it holds every value, while the last
		// run is written and the postings wait for its commit (after it,
		// the merge was the last 0.21 s of the pgnmentor import; issue 18).
		// A merge writes the merged segment beside the old ones: skip it
		// when the disk could not hold it (the next import merges).
		err := w.meta.valuesIndexed()
		if err == nil && w.added > 0 && !diskFull && w.s.roomFor(allocatedTree(filepath.Join(w.s.dir, "meta.bleve"))) {
			err = w.s.compactMeta(w.added >= w.gamesBefore)
		}
		if cerr := w.meta.close(); err == nil {
			err = cerr
		}
		close(indexed)
		metaDone <- err
	}()
	if werr := w.wait(); err == nil {
		err = werr
	}
	// The games are all written: what the duplicate checks kept of them
	// (their hashes and attributes, 150 MB at a million games) would only
	// crowd the merges and compactions that follow, where a large import
	// peaks (issue 18).
	w.hashes, w.newAttrs, w.chunks, w.bucketer = nil, nil, nil, bucketer{}
	if err == nil {
		err = w.counts.save(w.s.dir)
	}
	// Each import merges its share of a merge under way. (One whose Close
	// compacts level 0 used to leave its share to the next: in one Badger
	// that compaction rewrote ten imports' runs. Since schema 9 level 0
	// holds the records only, one import's table compacted at a time, and
	// every import past the tenth finds level 0 at its bound: merges in
	// parts stalled until `MaxRuns` live runs made them go whole, 1.9–2.4×
	// an empty import; issue 18.)
	large := w.large(w.added)
	if err == nil {
		err = w.s.dropGarbageRuns() // left by a crash: folders removed
	}
	// Merging runs rewrites them beside the old ones: only with room for a
	// copy of the store.
	due := w.s.man.Merging != nil || mergeFrom(w.s.man.LiveRuns, w.s.man.RunGames, w.s.opts.MaxRuns) < len(w.s.man.LiveRuns)
	if err == nil && due && w.s.roomFor(allocatedBytes(filepath.Join(w.s.dir, runsDir))) {
		err = w.s.mergeDue(large, w.added)
	}
	if err == nil {
		err = w.s.sweepFilters() // of the runs merged away
	}
	// An import that added a quarter of the store or more compacts it
	// into one level (store.go, flatten): the next import, however small,
	// would pay for its backlog otherwise (Badger's Close finishes a
	// compaction under way, as 100 games added to a million waited 5
	// seconds; the next level-0 compaction rewrites the store). Its cost
	// is at most that of rewriting five times what the import added.
	// It runs beside Bleve's segment merge, once the metadata indexer's
	// last write to the globals is done (one after the other, the two
	// were the last 1.4 s of a 164,000-game import's 8.8; issue 18).
	if err == nil && large {
		<-indexed
		err = w.s.flatten()
	}
	if merr := <-metaDone; err == nil {
		err = merr
	}
	return err
}

// large reports whether an import of added games is a large one: a
// quarter of the store it started with or more.
func (w *Writer) large(added int) bool { return added > 0 && added >= w.gamesBefore/4 }

// keySet is a set of position keys behind a bit filter: most keys a run
// looks up are not in it, and a bit test is cheaper than a search. The
// filter takes the keys' low bits (a tail bucket shares its top bits).
// The keys a writer loads arrive in order and stay a sorted slice: a map
// of them grew through a dozen tables, fresh memory each (on this
// project's virtual machine about 40 µs a page: 3.5 MB and a third of
// the time loadPopular took at 38,587 keys; issue 18). The keys added
// since go to a map.
type keySet struct {
	sorted []uint64 // loaded, ascending
	m      map[uint64]struct{}
	filter []uint64
}

const keySetFilterBits = 21 // 256 KB: under 2% false hits up to 40,000 keys

func (s *keySet) add(k uint64) {
	if s.m == nil {
		s.m = map[uint64]struct{}{}
	}
	s.m[k] = struct{}{}
	s.mark(k)
}

// load adds k, which loaded keys must give in ascending order.
func (s *keySet) load(k uint64) {
	if n := len(s.sorted); n > 0 && s.sorted[n-1] >= k {
		s.add(k)
		return
	}
	s.sorted = append(s.sorted, k)
	s.mark(k)
}

func (s *keySet) mark(k uint64) {
	if s.filter == nil {
		s.filter = make([]uint64, 1<<keySetFilterBits/64)
	}
	b := k & (1<<keySetFilterBits - 1)
	s.filter[b/64] |= 1 << (b % 64)
}

func (s *keySet) has(k uint64) bool {
	if s.filter == nil {
		return false
	}
	b := k & (1<<keySetFilterBits - 1)
	if s.filter[b/64]&(1<<(b%64)) == 0 {
		return false
	}
	if _, ok := slices.BinarySearch(s.sorted, k); ok {
		return true
	}
	_, ok := s.m[k]
	return ok
}
