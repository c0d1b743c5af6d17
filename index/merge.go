package index

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math/bits"
	"slices"

	"github.com/dgraph-io/badger/v4"
)

// Runs are merged as an LSM tree merges its tables, by size tiers: a run's
// tier is log4 of its games, and once mergeFanIn runs of the newest tier
// (older runs of lower tiers with them) are live, they become one run of
// the next tier. So an import that adds k games to a database of N merges
// what it added, now and then with its tier's neighbours, never the whole
// database: each game is rewritten about log4(N/k) times in all. Before,
// the end of any import that left more than MaxRuns runs merged every run,
// which made every eighth small import rewrite the whole position index.
// MaxRuns still bounds the runs a lookup reads: past it, the newest runs
// are merged whatever their tiers.
const mergeFanIn = 4

// runTier is log4 of a run's games; a run of unknown size is large.
func runTier(games uint32, known bool) int {
	if !known {
		return 64
	}
	return (bits.Len32(max(games, 1)) - 1) / 2
}

// mergeFrom returns where the runs to merge start in live (oldest first),
// or len(live) when no merge is due.
func mergeFrom(live []uint32, sizes map[uint32]uint32, maxRuns int) int {
	n := len(live)
	if n < 2 {
		return n
	}
	tier := func(run uint32) int { g, ok := sizes[run]; return runTier(g, ok) }
	top := tier(live[n-1])
	i := n - 1
	for i > 0 && tier(live[i-1]) <= top {
		i--
	}
	if n-i >= mergeFanIn && top < runTier(0, false) {
		return i
	}
	if n > maxRuns {
		return maxRuns - 1 // the newest n-maxRuns+1 runs: maxRuns remain
	}
	return n
}

// runMerge is a merge of runs under way (manifest Merging), done in
// slices so that no single import pays for a whole tier merge (issue 18):
// the target run is live beside its sources from the start, and each
// bucket (a game's tail bucket, with the stats values and heads of the
// keys in it) holds its values in the sources or, once merged, in the
// target, never in both. A slice merges the next buckets in one Badger transaction,
// which writes the target's values, deletes the sources' and records how
// far the merge got, all or nothing, also across a crash. Readers read
// every live run, so they see each bucket once whatever the progress.
type runMerge struct {
	Sources []uint32 `json:"sources"` // consecutive live runs, oldest first
	Target  uint32   `json:"target"`  // live, right after the sources
	// Done: the buckets below it (mergeBucket numbering) are merged.
	Done uint32 `json:"done"`
}

// mergeBucket numbers a game's bucket in the order a merge takes them.
func mergeBucket(game byte, bucket uint16) uint32 {
	return uint32(game)<<tailBucketBits | uint32(bucket)
}

// mergeEnd is past the last bucket of the last game.
const mergeEnd = 4 << tailBucketBits

// Bounds of a slice's transaction: Badger refuses a transaction past 15%
// of a memtable (64 MB: 9.6 MB, and about 100,000 entries). Variables for
// tests, which take slices of a bucket or two.
var (
	sliceMaxBytes   int64 = 4 << 20
	sliceMaxEntries       = 40_000
)

// mergeDue does merging work while the policy asks for it, reading up to
// budget bytes of the merged runs' values (at least one slice; no bound
// when budget < 0). A merge it leaves unfinished goes on at the next
// import; until then lookups read its sources in the buckets not yet
// merged.
func (s *Store) mergeDue(budget int64) error {
	for {
		if s.man.Merging == nil {
			from := mergeFrom(s.man.LiveRuns, s.man.RunGames, s.opts.MaxRuns)
			if from >= len(s.man.LiveRuns) {
				return nil
			}
			if err := s.startMerge(slices.Clone(s.man.LiveRuns[from:])); err != nil {
				return err
			}
		}
		read, err := s.mergeSlices(budget)
		if err != nil || s.man.Merging != nil {
			return err // out of budget (or failed)
		}
		if budget >= 0 {
			if budget -= read; budget <= 0 {
				return nil
			}
		}
	}
}

// mergeWanted says whether a merge is under way or due.
func (s *Store) mergeWanted() bool {
	return s.man.Merging != nil || mergeFrom(s.man.LiveRuns, s.man.RunGames, s.opts.MaxRuns) < len(s.man.LiveRuns)
}

// mergeRuns merges runs (consecutive live runs, oldest first) into one,
// whole, with no merge under way.
func (s *Store) mergeRuns(runs []uint32) error {
	if s.man.Merging != nil {
		return errors.New("index: a merge of runs is under way")
	}
	if err := s.startMerge(runs); err != nil {
		return err
	}
	_, err := s.mergeSlices(-1)
	return err
}

// mergeAll merges every live run into one, after finishing a merge under
// way.
func (s *Store) mergeAll() error {
	if _, err := s.mergeSlices(-1); err != nil {
		return err
	}
	if len(s.man.LiveRuns) < 2 {
		return nil
	}
	return s.mergeRuns(slices.Clone(s.man.LiveRuns))
}

// startMerge makes a new run live right after runs, empty, as the target
// of a merge of runs.
func (s *Store) startMerge(runs []uint32) error {
	return s.updateManifest(func(m *manifest) {
		target := m.NextRun
		m.NextRun++
		i := slices.Index(m.LiveRuns, runs[len(runs)-1])
		m.LiveRuns = slices.Insert(m.LiveRuns, i+1, target)
		m.Merging = &runMerge{Sources: runs, Target: target}
	})
}

// mergeSlices merges slices of the merge under way until it is done or
// budget bytes of its sources' values were read (no bound when budget <
// 0); it returns the bytes read.
func (s *Store) mergeSlices(budget int64) (int64, error) {
	var read int64
	for s.man.Merging != nil {
		if s.man.Merging.Done >= mergeEnd {
			return read, s.finishMerge()
		}
		n, err := s.mergeSlice()
		if err != nil {
			return read, err
		}
		read += n
		s.mergeRead += n
		if budget >= 0 && read >= budget {
			return read, nil
		}
	}
	return read, nil
}

// finishMerge retires the sources of a merge whose every bucket is merged
// (and so holds none of their values).
func (s *Store) finishMerge() error {
	return s.updateManifest(func(m *manifest) {
		mg := m.Merging
		var total uint32
		known := true
		for _, r := range mg.Sources {
			g, ok := m.RunGames[r]
			total += g
			known = known && ok
			delete(m.RunGames, r)
		}
		m.LiveRuns = slices.DeleteFunc(m.LiveRuns, func(r uint32) bool { return slices.Contains(mg.Sources, r) })
		if known {
			if m.RunGames == nil {
				m.RunGames = map[uint32]uint32{}
			}
			m.RunGames[mg.Target] = total
		}
		m.Merging = nil
	})
}

// mergeSlice merges the next buckets of the merge under way in one
// transaction, up to sliceMaxBytes written, and returns the bytes of the
// sources' values it read.
func (s *Store) mergeSlice() (int64, error) {
	mg := s.man.Merging
	view := s.db.NewTransaction(false)
	defer view.Discard()
	txn := s.db.NewTransaction(true)
	defer txn.Discard()
	var read, written int64
	entries := 0
	done := mg.Done
	dates := s.newDateReader() // for the merged values' heads
	set := func(k, v []byte) error {
		written += int64(len(k) + len(v))
		entries++
		return txn.Set(k, v)
	}
	del := func(k []byte) error {
		written += int64(len(k))
		entries++
		return txn.Delete(k)
	}
	for game := byte(done >> tailBucketBits); game < 4 && written < sliceMaxBytes && entries < sliceMaxEntries; game++ {
		from := uint16(0)
		if uint32(game) == done>>tailBucketBits {
			from = uint16(done & (tailBuckets - 1))
		}
		m := newBucketMerger(view, mg.Sources, game, from, dates)
		for written < sliceMaxBytes && entries < sliceMaxEntries {
			b, ok := m.next()
			if !ok {
				done = mergeBucket(game+1, 0)
				break
			}
			n, err := m.merge(b, mg.Target, set, del)
			if err != nil {
				m.close()
				return read, err
			}
			read += n
			done = mergeBucket(game, b) + 1
		}
		m.close()
	}
	if done >= mergeEnd {
		done = mergeEnd
	}
	if dates.err != nil {
		return read, dates.err
	}
	// The slice's commit point: its values and the progress together.
	s.manMu.Lock()
	defer s.manMu.Unlock()
	next := *mg
	next.Done = done
	m := s.man
	m.Merging = &next
	b, err := json.Marshal(&m)
	if err != nil {
		return read, err
	}
	if err := txn.Set(manifestKey, b); err != nil {
		return read, err
	}
	if err := txn.Commit(); err != nil {
		return read, err
	}
	if err := s.db.Sync(); err != nil {
		return read, err
	}
	s.view.Lock()
	s.man.Merging = &next
	s.view.Unlock()
	return read, nil
}

// bucketMerger walks the stats values and tail blocks of a merge's sources
// for one game side by side, bucket by bucket: one iterator per source and
// kind.
type bucketMerger struct {
	game     byte
	dates    *dateReader
	sources  []uint32
	stats    []*badger.Iterator
	tails    []*badger.Iterator
	prefixes [2][][]byte
	es       []tailEntry
	cur      []byte
}

func newBucketMerger(view *badger.Txn, sources []uint32, game byte, from uint16, dates *dateReader) *bucketMerger {
	m := &bucketMerger{game: game, sources: sources, dates: dates}
	for _, r := range sources {
		sp, tp := runPrefix(prefixStats, game, r), runPrefix(prefixTail, game, r)
		// Values are read once, in place (no prefetched copies).
		si := view.NewIterator(badger.IteratorOptions{Prefix: sp, PrefetchValues: false})
		si.Seek(statsKey(game, r, uint64(from)<<(64-tailBucketBits)))
		ti := view.NewIterator(badger.IteratorOptions{Prefix: tp, PrefetchValues: false})
		ti.Seek(tailKey(game, r, from))
		m.stats = append(m.stats, si)
		m.tails = append(m.tails, ti)
		m.prefixes[0] = append(m.prefixes[0], sp)
		m.prefixes[1] = append(m.prefixes[1], tp)
	}
	return m
}

func (m *bucketMerger) close() {
	for i := range m.stats {
		m.stats[i].Close()
		m.tails[i].Close()
	}
}

// next returns the lowest bucket any source still holds values in.
func (m *bucketMerger) next() (uint16, bool) {
	best, ok := uint16(0), false
	for i := range m.stats {
		if it := m.stats[i]; it.Valid() {
			b := tailBucket(binary.BigEndian.Uint64(it.Item().Key()[len(m.prefixes[0][i]):]))
			if !ok || b < best {
				best, ok = b, true
			}
		}
		if it := m.tails[i]; it.Valid() {
			b := binary.BigEndian.Uint16(it.Item().Key()[len(m.prefixes[1][i]):])
			if !ok || b < best {
				best, ok = b, true
			}
		}
	}
	return best, ok
}

// merge writes bucket b's merged values under run target and deletes the
// sources' ones, returning the bytes of the values it read.
func (m *bucketMerger) merge(b uint16, target uint32, set func(k, v []byte) error, del func(k []byte) error) (int64, error) {
	var read int64
	// Stats values of the keys in the bucket, key by key.
	for {
		// The smallest key (below the run) among the iterators.
		m.cur = m.cur[:0]
		found := false
		for i, it := range m.stats {
			if !it.Valid() {
				continue
			}
			k := it.Item().Key()[len(m.prefixes[0][i]):]
			if tailBucket(binary.BigEndian.Uint64(k)) != b {
				continue
			}
			if !found || bytes.Compare(k, m.cur) < 0 {
				m.cur = append(m.cur[:0], k...)
				found = true
			}
		}
		if !found {
			break
		}
		key := binary.BigEndian.Uint64(m.cur)
		merged := &statsValue{}
		for i, it := range m.stats {
			if !it.Valid() || !bytes.Equal(it.Item().Key()[len(m.prefixes[0][i]):], m.cur) {
				continue
			}
			headed := false
			err := it.Item().Value(func(v []byte) error {
				read += int64(len(v))
				o, err := decodeStats(v)
				if err == nil {
					mergeStats(merged, o)
					headed = len(o.Games) >= headMinGames
				}
				return err
			})
			if err == nil {
				err = del(it.Item().KeyCopy(nil))
			}
			if err == nil && headed {
				// A value that large has a head (head.go): it goes with it.
				err = del(headKey(m.game, m.sources[i], key))
			}
			if err != nil {
				return read, err
			}
			it.Next()
		}
		if err := set(statsKey(m.game, target, key), encodeStats(nil, merged)); err != nil {
			return read, err
		}
		if err := putHead(set, m.game, target, key, merged, m.dates.date); err != nil {
			return read, err
		}
	}
	// The tail blocks: the sources' games are consecutive, oldest first.
	m.es = m.es[:0]
	width, any := 64, false
	for i, it := range m.tails {
		if !it.Valid() || binary.BigEndian.Uint16(it.Item().Key()[len(m.prefixes[1][i]):]) != b {
			continue
		}
		any = true
		err := it.Item().Value(func(v []byte) error {
			read += int64(len(v))
			return decodeTail(v, func(gid, print uint32, w int) {
				m.es = append(m.es, tailEntry{gid, uint64(print) << (64 - w)})
				width = min(width, w)
			})
		})
		if err == nil {
			err = del(it.Item().KeyCopy(nil))
		}
		if err != nil {
			return read, err
		}
		it.Next()
	}
	if any {
		if err := set(tailKey(m.game, target, b), encodeTail(nil, m.es, width)); err != nil {
			return read, err
		}
	}
	return read, nil
}
