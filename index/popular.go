package index

import (
	"encoding/binary"

	"github.com/dgraph-io/badger/v4"
)

// A writer must know which positions have stats values: once popular, a
// position stays popular in every later run, which the reader's counting
// relies on (reader.go). Those keys used to be read from the stats values
// themselves, E|run|S|game|key; but a stats value holds its game list in the
// same Badger block, so listing the keys decompressed every popular
// position's games: at a million games, the largest part of the time a
// 100-game import took (issue 18). Each popular key now also has an empty
// entry p|game|key, written with the run that made it popular, which a
// writer lists in a few milliseconds.
//
// The set may hold more keys than have stats values (a run that crashed
// before its commit, games deleted since): a writer then gives such a
// position a stats value sooner than it would have, which changes no
// answer. It may never hold fewer: a store written before these entries
// existed gets them from its stats values once (manifest PopularKeys).

// loadPopular reads the popular keys, from the p| entries, or once from
// the stats values when the store has no p| entries yet.
func (w *Writer) loadPopular() error {
	s := w.s
	w.popular = &[4]keySet{}
	if !s.man.PopularKeys {
		return w.indexPopular()
	}
	return s.viewRuns(func(txn *view) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{prefixPopular, '|'}})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			if k := it.Item().Key(); len(k) == popularKeyLen {
				w.popular[k[2]%4].load(binary.BigEndian.Uint64(k[3:]))
			}
		}
		return nil
	})
}

// indexPopular reads the keys of all live stats values and writes their p|
// entries: once, for a store written before they existed.
func (w *Writer) indexPopular() error {
	s := w.s
	wb := s.newBatch()
	defer wb.Cancel()
	err := s.viewRuns(func(txn *view) error {
		return s.eachLiveStats(txn, func(_ *badger.Item, game uint8, key uint64) error {
			if set := &w.popular[game%4]; !set.has(key) {
				set.add(key)
				return wb.Set(popularKey(game, key), nil)
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	if err := wb.Flush(); err != nil {
		return err
	}
	return s.updateManifest(func(m *manifest) { m.PopularKeys = true })
}

// eachLiveStats calls fn with every stats entry of a live run and the game
// and position its key names. Keys only are read until fn asks the item
// for its value.
func (s *Store) eachLiveStats(txn *view, fn func(item *badger.Item, game uint8, key uint64) error) error {
	return txn.eachRunKey(prefixStats, func(it *badger.Iterator) error {
		k := it.Item().Key()
		if len(k) != statsKeyLen || !s.man.live(runOf(k)) {
			return nil
		}
		return fn(it.Item(), keyGame(k), keyPosition(k))
	})
}

// dropPopularKeys removes every p| entry, for an index rebuilt from
// nothing (ReindexPositions), which writes them again.
func (s *Store) dropPopularKeys() error {
	wb := s.newBatch()
	defer wb.Cancel()
	err := s.viewRuns(func(txn *view) error {
		p := []byte{prefixPopular, '|'}
		return deleteFrom(txn, wb, p, p)
	})
	if err != nil {
		return err
	}
	if err := wb.Flush(); err != nil {
		return err
	}
	return s.updateManifest(func(m *manifest) { m.PopularKeys = true })
}
