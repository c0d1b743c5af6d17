package index

import (
	"bytes"
	"encoding/binary"
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

// mergeDue merges runs while the policy asks for it.
func (s *Store) mergeDue() error {
	for {
		from := mergeFrom(s.man.LiveRuns, s.man.RunGames, s.opts.MaxRuns)
		if from >= len(s.man.LiveRuns) {
			return nil
		}
		if err := s.mergeRuns(slices.Clone(s.man.LiveRuns[from:])); err != nil {
			return err
		}
	}
}

// mergeRuns rewrites the stats values (with their heads) and tail blocks
// of runs (the newest live runs, oldest first: their games are
// consecutive) as one new run, so lookups read one value per position and
// bucket where they read one per run. Each run's values sort together (keys.go), so it reads those
// runs only. The manifest switches to the new run in one commit, which
// names the old runs as garbage; cleanPending then removes their values
// (also after a crash).
func (s *Store) mergeRuns(runs []uint32) error {
	run := s.man.NextRun
	if err := s.updateManifest(func(m *manifest) { m.NextRun++; m.Pending = run }); err != nil {
		return err
	}
	wb := s.db.NewWriteBatch()
	defer wb.Cancel()
	dates := s.newDateReader() // for the merged values' heads
	err := s.db.View(func(txn *badger.Txn) error {
		for game := byte(0); game < 4; game++ {
			if err := mergeValues(txn, runs, prefixStats, game, func(k []byte, vals [][]byte) error {
				merged := &statsValue{}
				for _, v := range vals {
					o, err := decodeStats(v)
					if err != nil {
						return err
					}
					mergeStats(merged, o)
				}
				key := binary.BigEndian.Uint64(k)
				if err := wb.Set(statsKey(game, run, key), encodeStats(nil, merged)); err != nil {
					return err
				}
				return putHead(wb.Set, game, run, key, merged, dates.date)
			}); err != nil {
				return err
			}
			var es []tailEntry
			if err := mergeValues(txn, runs, prefixTail, game, func(k []byte, vals [][]byte) error {
				es = es[:0]
				width := 64
				for _, v := range vals {
					err := decodeTail(v, func(gid, print uint32, w int) {
						es = append(es, tailEntry{gid, uint64(print) << (64 - w)})
						width = min(width, w)
					})
					if err != nil {
						return err
					}
				}
				return wb.Set(tailKey(game, run, binary.BigEndian.Uint16(k)), encodeTail(nil, es, width))
			}); err != nil {
				return err
			}
		}
		return nil
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
	// The commit point.
	err = s.updateManifest(func(m *manifest) {
		m.Pending = 0
		m.Garbage = append(m.Garbage, runs...)
		var total uint32
		known := true
		for _, r := range runs {
			g, ok := m.RunGames[r]
			total += g
			known = known && ok
		}
		m.LiveRuns = slices.DeleteFunc(m.LiveRuns, func(r uint32) bool { return slices.Contains(runs, r) })
		m.LiveRuns = append(m.LiveRuns, run)
		if known {
			if m.RunGames == nil {
				m.RunGames = map[uint32]uint32{}
			}
			m.RunGames[run] = total
		}
	})
	if err != nil {
		return err
	}
	return s.cleanPending()
}

// mergeValues walks the values of one kind (prefixStats or prefixTail) and
// game in runs side by side, one iterator per run, calling fn once per
// position key (stats) or bucket (tail), in order, with the values the
// runs hold for it.
func mergeValues(txn *badger.Txn, runs []uint32, kind, game byte, fn func(k []byte, vals [][]byte) error) error {
	its := make([]*badger.Iterator, len(runs))
	prefixes := make([][]byte, len(runs))
	for i, r := range runs {
		prefixes[i] = runPrefix(kind, game, r)
		its[i] = txn.NewIterator(badger.IteratorOptions{Prefix: prefixes[i]})
		defer its[i].Close()
		its[i].Rewind()
	}
	var cur []byte
	var vals [][]byte
	for {
		// The smallest key (below the run) among the iterators.
		cur = cur[:0]
		found := false
		for i, it := range its {
			if !it.Valid() {
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
			if it.Valid() && bytes.Equal(it.Item().Key()[len(prefixes[i]):], cur) {
				v, err := it.Item().ValueCopy(nil)
				if err != nil {
					return err
				}
				vals = append(vals, v)
				it.Next()
			}
		}
		if err := fn(cur, vals); err != nil {
			return err
		}
	}
}
