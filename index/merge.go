package index

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
	"slices"
	"sync"

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
//
// MaxRuns bounds the large runs, and as many small ones (of
// smallMergeGames games or fewer) may live beside them: a stream of small
// imports then merges by tiers only, each game rewritten about
// log4(smallMergeGames/k) times, where under one bound every import
// merged its run into the newest, rewriting it whole (issue 18: after a
// million games and ten imports of 10,000, each 100 games added rewrote
// up to 4,092, and imports of 100 took 0.20 s, then 0.41 after 22). Past
// twice MaxRuns, the newest small runs are merged, or else the newest
// runs whatever their sizes.
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
	small := func(run uint32) bool { g, ok := sizes[run]; return ok && int(g) <= smallMergeGames }
	smallRuns, trailing := 0, 0
	for _, r := range live {
		if small(r) {
			smallRuns++
		}
	}
	for trailing < n && small(live[n-1-trailing]) {
		trailing++
	}
	switch {
	case n-smallRuns > maxRuns:
		return maxRuns - 1 // the newest n-maxRuns+1 runs: maxRuns remain
	case n > 2*maxRuns && trailing >= 2:
		return n - trailing
	case n > 2*maxRuns:
		return maxRuns - 1
	}
	return n
}

// mergeDue merges runs while the policy asks for it, a merge of more than
// budget games a part at a time (mergeStep): budget games' worth now, the
// rest by the imports that follow, each its own games' worth or more. With
// whole set, merges are done whole.
// While a merge is under way its sources stay live (they count as the one
// run they become) and new runs join them: once that makes MaxRuns runs,
// it is finished at once.
// A small write (Options.DeferCompaction) leaves a merge of more than
// smallMergeGames games, and the parts of one under way, to a larger
// write while fewer than twice MaxRuns runs are live (mergeDeferred); so
// does a budget of 0 leave the parts. Past that, a small write merges a
// part at a time too, never whole: finishing a tier merge of 40,000 games
// took a 100-game import 0.55 s (issue 18, "every time"); the runs live
// meanwhile, a few more than twice MaxRuns, cost a read each.
func (s *Store) mergeDue(whole bool, budget int) error {
	// The runs are counted before each merge starts: the one that brings
	// them below MaxRuns goes whole, a merge it makes due goes in parts
	// (issue 18: the fifteenth of twenty growth imports at a million games
	// merged four runs of 10,000 whole at MaxRuns, and then the four of
	// about 40,000 that merge made due, 190,000 games at once, 2.0 s where
	// the others took 0.9–1.3).
	partBudget := s.mergeBudget(whole, budget)
	for {
		if st := s.man.Merging; st != nil {
			if s.mergeDeferred(st.Sources) || partBudget == 0 && s.man.gamesOf(st.Sources) > smallMergeGames {
				return nil
			}
			if err := s.mergeStep(partBudget); err != nil {
				return err
			}
			if s.man.Merging != nil {
				return nil // the next imports go on
			}
		}
		from := mergeFrom(s.man.LiveRuns, s.man.RunGames, s.opts.MaxRuns)
		if from >= len(s.man.LiveRuns) {
			return nil
		}
		runs := slices.Clone(s.man.LiveRuns[from:])
		if s.mergeDeferred(runs) {
			return nil
		}
		partBudget = s.mergeBudget(whole, budget)
		if err := s.startMerge(runs); err != nil {
			return err
		}
	}
}

// mergeBudget is the games' worth a merge goes by, given budget: all of
// it when whole is set or MaxRuns runs are live (liveRuns), unless the
// write is small.
func (s *Store) mergeBudget(whole bool, budget int) int {
	if whole || s.man.liveRuns() >= s.opts.MaxRuns && !s.opts.DeferCompaction {
		return math.MaxInt
	}
	return budget
}

// liveRuns counts the live runs as the merge policy does: a merge under
// way's sources as the one run they become.
func (m *manifest) liveRuns() int {
	live := len(m.LiveRuns)
	if st := m.Merging; st != nil {
		live -= len(st.Sources) - 1
	}
	return live
}

// mergeDeferred reports whether a small write leaves the merge of runs to
// a larger write. After a million games and ten imports of 10,000, a
// stream of 100-game imports met a tier merge of four runs of 4,096 games
// or more (34,000 games, 1.17–1.32 s for 100 games added); with the
// deferral, 72 such imports alternating with the same imports without it
// took 26.1 s against 30.0 in all, at most 1.51 s against 3.38 (issue 18,
// "every time").
func (s *Store) mergeDeferred(runs []uint32) bool {
	return s.opts.DeferCompaction && len(s.man.LiveRuns) < 2*s.opts.MaxRuns && s.man.gamesOf(runs) > smallMergeGames
}

// smallMergeGames is the most games a small run holds (mergeFrom lets
// those live beside MaxRuns large ones) and a small write merges
// (mergeDeferred): four runs of up to 1,023 games (tier 4 and below) into
// one. A variable for the tests.
var smallMergeGames = 4 * 1023

// gamesOf returns how many games runs hold (a run of unknown size counts
// as more than any small write merges).
func (m *manifest) gamesOf(runs []uint32) int {
	n := 0
	for _, r := range runs {
		g, ok := m.RunGames[r]
		if !ok {
			return math.MaxInt
		}
		n += int(g)
	}
	return n
}

// mergeRuns rewrites the stats values (with their heads) and tail blocks
// of runs (the newest live runs, oldest first: their games are
// consecutive) as one new run, whole, after the merge under way, if any,
// and removes the runs it replaced.
func (s *Store) mergeRuns(runs []uint32) error {
	if err := s.finishMerge(); err != nil {
		return err
	}
	if err := s.startMerge(runs); err != nil {
		return err
	}
	return s.mergeStep(math.MaxInt)
}

// finishMerge writes what is left of the merge under way, if any.
func (s *Store) finishMerge() error {
	if s.man.Merging == nil {
		return nil
	}
	return s.mergeStep(math.MaxInt)
}

// A merge under way (manifest Merging). Its parts are ranges of position
// keys: each half of the key space (by the keys' top bit, merged side by
// side) is cut into 2^(Grid-1) slices of keys, never finer than any
// source run's tail blocks or the merged run's, so that every tail block
// falls in one slice. A part merges the next slices of both halves; Done
// counts the slices of each half merged, whose values the merged run
// holds (and its filter file their keys).
//
// A tier merge ends the import whose run completes a tier, and rewrites
// the tier's runs, several times what that import added: a 10,000-game
// import that merged four runs of 10,000 took 1.31 s against 0.78 without
// the merge (medians of three on copies of one store; issue 18, each
// growth import within 1.5× of the same import into an empty store).
// Merged a part at a time, each import pays for about as many games as it
// adds.
type mergeState struct {
	Run     uint32   `json:"run"`
	Sources []uint32 `json:"sources"`
	Bits    int      `json:"bits"` // the merged run's bucket bits
	Grid    int      `json:"grid"`
	Done    [2]int   `json:"done"`
	// Known: the fewest top key bits a merged tail block of each half
	// keeps so far (filterBuilder.knownBits).
	Known  [2]int `json:"known"`
	Filter bool   `json:"filter,omitempty"` // the merged run gets a filter
}

// merged reports whether key's values are in the merged run.
func (st *mergeState) merged(key uint64) bool {
	unit := int(key >> (64 - st.Grid))
	half := 1 << (st.Grid - 1)
	return unit&(half-1) < st.Done[unit/half]
}

// statsRuns returns the runs whose stats values (and heads) of key a
// reader merges: the live runs, but for a merge under way that has merged
// key, its run in place of its sources: one read where there were four
// (issue 18: at a million games after ten growth imports, the last part
// of a merge left to the next import, game lists' p90 / p99 843 / 2,731
// µs reading the sources, 769 / 2,356 with the merged run, five rounds
// alternating on one store; trees alike). Its stats values are those of
// its sources merged, so the answer is the same. Tail blocks are read
// from the sources, whose filters skip most of them (the merged run gets
// its filter with its last part). buf holds the runs when they are not
// the live runs.
func (m *manifest) statsRuns(key uint64, buf []uint32) []uint32 {
	st := m.Merging
	if st == nil || !st.merged(key) {
		return m.LiveRuns
	}
	for _, r := range m.LiveRuns {
		switch {
		case r == st.Sources[0]:
			buf = append(buf, st.Run)
		case !slices.Contains(st.Sources, r):
			buf = append(buf, r)
		}
	}
	return buf
}

// mergeGridBits bounds a merge's slices: 128 to each half.
const mergeGridBits = 8

// startMerge records the merge of runs into a new run (manifest Merging),
// nothing merged yet.
func (s *Store) startMerge(runs []uint32) error {
	total := s.man.gamesOf(runs)
	from := make([]int, len(runs))
	for i, r := range runs {
		from[i] = s.man.tailBits(r)
	}
	// The merged run's bucket bits, as addRun would give its games (a run
	// of unknown size makes it a full one); never fewer than a merged
	// run's.
	bits := max(tailBitsFor(total), slices.Max(from))
	st := &mergeState{
		Run:     s.man.NextRun,
		Sources: slices.Clone(runs),
		Bits:    bits,
		Grid:    min(mergeGridBits, bits, slices.Min(from)),
		Known:   [2]int{64, 64},
		Filter:  total != math.MaxInt && filterWanted(total, int(s.man.NextGid)-1) && allFiltered(&s.man, runs),
	}
	return s.updateManifest(func(m *manifest) { m.NextRun++; m.Merging = st })
}

// keyRange is the position keys from lo, below hi or to the end.
type keyRange struct {
	lo, hi uint64
	end    bool
}

func (r keyRange) empty() bool           { return !r.end && r.hi <= r.lo }
func (r keyRange) holds(key uint64) bool { return key >= r.lo && (r.end || key < r.hi) }

// mergeStep merges the next part of the merge under way, of budget games'
// worth (the slices of each half, rounded up, that hold about that share
// of the merged games), and commits it; the last part makes the merged
// run live in place of its sources. A part is never less than a
// mergeFanIn-th of the merge, so that a merge ends before the runs of the
// tier below it can fill again. A small merge, or a budget of its games or
// more, is done whole. The last part's commit removes the sources'
// folders (runstore.go).
//
// A part's filter file and values are written (by StreamWriter, into the
// level of the merged run's Badger above the parts before it), then the
// manifest counts it done: after a crash the next writer writes the part
// again, the same values under the same keys, a level above what the
// stopped one wrote (the sources do not change while a merge is under
// way: Delete finishes it first), into a filter that may already hold
// some of its keys.
func (s *Store) mergeStep(budget int) error {
	st := s.man.Merging
	runs, run, bits := st.Sources, st.Run, st.Bits
	total := s.man.gamesOf(runs)
	half := 1 << (st.Grid - 1)
	n := half
	if total != math.MaxInt && total > smallMergeGames && budget < total {
		n = max(half/mergeFanIn, int((int64(budget)*int64(half)+int64(total)-1)/int64(total)))
	}
	done, known := st.Done, st.Known
	var filter *filterBuilder
	if st.Filter {
		filter = mergedFilter(&s.man, runs, bits)
		if filter != nil && done != [2]int{} && !filter.reload(s.dir, run) {
			// The parts merged so far left no filter to go on with:
			// merge it all again, now.
			done, known, n = [2]int{}, [2]int{64, 64}, half
		}
	}
	var parts [2]keyRange
	var to [2]int
	for h := range parts {
		to[h] = min(half, done[h]+n)
		top := uint64(h) << 63
		parts[h] = keyRange{lo: top | uint64(done[h])<<(64-st.Grid), hi: top | uint64(to[h])<<(64-st.Grid), end: h == 1 && to[h] == half}
	}
	last := to == [2]int{half, half}
	from := make([]int, len(runs))
	for i, r := range runs {
		from[i] = s.man.tailBits(r)
	}
	wb := s.newBatch()
	defer wb.Cancel()
	if err := wb.stream(run, bits, runTableSizeFor(total)); err != nil {
		return err
	}
	dates := s.newDateReader() // for the merged values' heads
	var stats statsMerger
	// The stats values (with their heads) and the two halves of the tail
	// blocks (into filter blocks apart) merge side by side, each in a read
	// transaction of its own: in one goroutine a merge left a core idle
	// (issue 18: four 10,000-game runs merged in 0.54 s, 0.45 s in three
	// parts).
	err := inParallel(func() error {
		return s.viewRuns(func(txn *view) error {
			for game := byte(0); game < 4; game++ {
				for _, part := range parts {
					if part.empty() {
						continue
					}
					if err := mergeStatsValues(txn, runs, game, part, func(k []byte, vals [][]byte) error {
						b, games, err := stats.merge(nil, vals)
						if err != nil {
							return err
						}
						key := binary.BigEndian.Uint64(k)
						if err := wb.Set(statsKey(game, run, key), b); err != nil {
							return err
						}
						if games < uint64(headMinGames) {
							return nil
						}
						merged, err := decodeStats(b)
						if err != nil {
							return err
						}
						return putHead(wb.Set, game, run, key, merged, dates.date)
					}); err != nil {
						return err
					}
				}
			}
			return nil
		})
	}, s.mergeTailsPart(runs, from, run, bits, parts[0], filter, wb.Set, &known[0]),
		s.mergeTailsPart(runs, from, run, bits, parts[1], filter, wb.Set, &known[1]))
	if err == nil {
		err = dates.err
	}
	if err != nil {
		return err
	}
	if filter != nil {
		filter.knownBits(min(known[0], known[1]))
	}
	rf, err := filter.write(s.dir, run)
	if err != nil {
		return err
	}
	if err := wb.Flush(); err != nil {
		return err
	}
	if !last {
		return s.updateManifest(func(m *manifest) { m.Merging.Done, m.Merging.Known = to, known })
	}
	// The commit point.
	err = s.updateManifest(func(m *manifest) {
		from, known := m.mergedFrom(runs)
		m.Merging = nil
		m.Garbage = append(m.Garbage, runs...)
		// In the sources' place: the runs live after them hold later games.
		at := slices.Index(m.LiveRuns, runs[0])
		m.LiveRuns = slices.DeleteFunc(m.LiveRuns, func(r uint32) bool { return slices.Contains(runs, r) })
		if at < 0 {
			at = len(m.LiveRuns)
		}
		m.LiveRuns = slices.Insert(m.LiveRuns, at, run)
		if total != math.MaxInt {
			if m.RunGames == nil {
				m.RunGames = map[uint32]uint32{}
			}
			m.RunGames[run] = uint32(total)
		}
		if known {
			m.setRunFrom(run, from)
		}
		m.setTailBits(run, bits)
		m.setFilter(run, rf)
	})
	if err != nil {
		return err
	}
	return s.dropGarbageRuns()
}

// dropGarbageRuns deletes the folders of the garbage runs: runs merged
// away (or dropped by a reindex) at their merge's commit, whose folders
// a crash may have left. Readers in this process do not read them: the
// commit waited for the queries under way (Store.view).
func (s *Store) dropGarbageRuns() error {
	runs := slices.Clone(s.man.Garbage)
	if len(runs) == 0 {
		return nil
	}
	if err := s.removeRuns(runs); err != nil {
		return err
	}
	return s.updateManifest(func(m *manifest) {
		m.Garbage = slices.DeleteFunc(m.Garbage, func(r uint32) bool { return slices.Contains(runs, r) })
		for _, r := range runs {
			m.forgetRun(r)
		}
	})
}

// mergeStatsValues walks the stats values of game in runs side by side,
// one iterator per run, calling fn once per position key in part, in
// order, with the values the runs hold for it; vals is valid during the
// call only. It adds every key it reads to dead, unless dead is nil.
// (Tail blocks merge by mergeTails: a run's blocks may be coarser than the
// merged run's.)
func mergeStatsValues(txn *view, runs []uint32, game byte, part keyRange, fn func(k []byte, vals [][]byte) error) error {
	its := make([]*badger.Iterator, len(runs))
	prefixes := make([][]byte, len(runs))
	bufs := make([][]byte, len(runs)) // each run's value, reused
	for i, r := range runs {
		prefixes[i] = runPrefix(prefixStats, game, r)
		its[i] = txn.NewIterator(badger.IteratorOptions{Prefix: prefixes[i]})
		defer its[i].Close()
		its[i].Seek(binary.BigEndian.AppendUint64(slices.Clip(prefixes[i]), part.lo))
	}
	// valid reports whether it is at a key of part.
	valid := func(i int) bool {
		it := its[i]
		return it.Valid() && part.holds(binary.BigEndian.Uint64(it.Item().Key()[len(prefixes[i]):]))
	}
	var cur []byte
	var vals [][]byte
	for {
		// The smallest key (below the run) among the iterators.
		cur = cur[:0]
		found := false
		for i, it := range its {
			if !valid(i) {
				continue
			}
			k := it.Item().Key()[len(prefixes[i]):]
			if !found || bytes.Compare(k, cur) < 0 {
				cur = append(cur[:0], k...)
				found = true
			}
		}
		if !found {
			return nil
		}
		vals = vals[:0]
		for i, it := range its {
			if valid(i) && bytes.Equal(it.Item().Key()[len(prefixes[i]):], cur) {
				v, err := it.Item().ValueCopy(bufs[i])
				if err != nil {
					return err
				}
				bufs[i] = v
				vals = append(vals, v)
				it.Next()
			}
		}
		if err := fn(cur, vals); err != nil {
			return err
		}
	}
}

// mergeTailsPart returns a merge of the tail blocks in part (mergeTails)
// of every game of runs into run, which lowers *known.
func (s *Store) mergeTailsPart(runs []uint32, from []int, run uint32, bits int, part keyRange, filter *filterBuilder, set func(k, v []byte) error, known *int) func() error {
	return func() error {
		if part.empty() {
			return nil
		}
		return s.viewRuns(func(txn *view) error {
			for game := byte(0); game < 4; game++ {
				k, err := mergeTails(txn, runs, from, game, run, bits, part, filter, set)
				if err != nil {
					return err
				}
				*known = min(*known, k)
			}
			return nil
		})
	}
}

// inParallel runs fns side by side and returns their errors joined.
func inParallel(fns ...func() error) error {
	errs := make([]error, len(fns))
	var wg sync.WaitGroup
	for i, fn := range fns {
		wg.Go(func() { errs[i] = fn() })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// mergeTails writes the tail blocks of game for run, of bucket bits bits,
// from those of runs (bucket bits from[i], none more than bits), adding
// every key it reads to dead unless dead is nil. A block of a run of fewer
// bits spans several of the merged run's: its postings are decoded once,
// ordered by the block each goes to, and handed out as those blocks are
// written in key order. Each posting keeps the key bits its block knew
// (bucket and fingerprint), so the merged fingerprints are what remains
// below the new bucket, and a merged block's width is the narrowest of
// its postings' (bits a block dropped cannot be recovered). It adds the
// postings' keys to filter, unless it is nil, and returns the fewest top
// key bits a block it wrote keeps (64 for none), for filter.knownBits.
// It merges the blocks in part, which must not cut a block of runs or of
// the merged run: parts in the two halves of the keys (by their top bit)
// can merge at once, into blocks and filter blocks apart.
func mergeTails(txn *view, runs []uint32, from []int, game byte, run uint32, bits int, part keyRange, filter *filterBuilder, set func(k, v []byte) error) (int, error) {
	type posting struct {
		block uint16 // in the merged run
		gid   uint32
		key   uint64 // the known bits, from the top
		known int    // how many
	}
	type source struct {
		it      *badger.Iterator
		prefix  []byte
		bits    int
		pending []posting // the rest of the block read last, by block
		buf     []posting // pending's memory, reused block after block
	}
	srcs := make([]*source, len(runs))
	for i, r := range runs {
		p := runPrefix(prefixTail, game, r)
		it := txn.NewIterator(badger.IteratorOptions{Prefix: p})
		defer it.Close()
		it.Seek(tailKey(game, r, tailBlock(part.lo, from[i])))
		srcs[i] = &source{it: it, prefix: p, bits: from[i]}
	}
	// fill decodes a source's next block when it has nothing pending.
	fill := func(src *source) error {
		if len(src.pending) > 0 || !src.it.Valid() {
			return nil
		}
		item := src.it.Item()
		b := uint64(binary.BigEndian.Uint16(item.Key()[len(src.prefix):]))
		if !part.holds(b << (64 - src.bits)) {
			return nil // past the part
		}
		src.pending = src.buf[:0]
		err := item.Value(func(v []byte) error {
			return decodeTail(v, func(gid, print uint32, w int) {
				key := b<<(64-src.bits) | uint64(print)<<(64-src.bits-w)
				src.pending = append(src.pending, posting{uint16(key >> (64 - bits)), gid, key, src.bits + w})
			})
		})
		if err != nil {
			return err
		}
		src.buf = src.pending
		if src.bits < bits {
			slices.SortStableFunc(src.pending, func(a, b posting) int { return int(a.block) - int(b.block) })
		}
		src.it.Next()
		return nil
	}
	var es []tailEntry
	known := 64
	for {
		next, found := uint16(0), false
		for _, src := range srcs {
			if err := fill(src); err != nil {
				return 0, err
			}
			if len(src.pending) > 0 && (!found || src.pending[0].block < next) {
				next, found = src.pending[0].block, true
			}
		}
		if !found {
			return known, nil
		}
		es = es[:0]
		width := maxTailWidth
		for _, src := range srcs {
			i := 0
			for ; i < len(src.pending) && src.pending[i].block == next; i++ {
				p := src.pending[i]
				es = append(es, tailEntry{p.gid, p.key << bits})
				width = min(width, p.known-bits)
				if filter != nil {
					filter.add(game, p.key)
				}
			}
			src.pending = src.pending[i:]
		}
		known = min(known, bits+tailWidthKept(width))
		if err := set(tailKey(game, run, next), encodeTail(nil, es, width)); err != nil {
			return 0, err
		}
	}
}
