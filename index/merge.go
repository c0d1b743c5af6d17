package index

import (
	"bytes"
	"encoding/binary"

	"github.com/dgraph-io/badger/v4"
)

// mergeRuns rewrites all live runs' stats values and tail blocks as one new
// run, so lookups read one value per position and one block per bucket.
// The manifest switches to the new run in one commit; the old runs' values
// then become garbage that cleanPending removes (also after a crash).
func (s *Store) mergeRuns() error {
	run := s.man.NextRun
	if err := s.updateManifest(func(m *manifest) { m.NextRun++; m.Pending = run }); err != nil {
		return err
	}
	wb := s.db.NewWriteBatch()
	defer wb.Cancel()
	err := s.db.View(func(txn *badger.Txn) error {
		if err := s.mergeStatsValues(txn, wb, run); err != nil {
			return err
		}
		return s.mergeTailBlocks(txn, wb, run)
	})
	if err != nil {
		return err
	}
	if err := wb.Flush(); err != nil {
		return err
	}
	// The commit point; Pending stays set so cleanPending removes the old runs.
	if err := s.updateManifest(func(m *manifest) { m.LiveRuns = []uint32{run} }); err != nil {
		return err
	}
	// The deleted runs leave the disk when Close compacts level 0.
	return s.cleanPending()
}

// groupLive walks the live values under prefix, calling fn once per group
// of keys that are equal but for their 4-byte run suffix.
func (s *Store) groupLive(txn *badger.Txn, prefix []byte, fn func(group []byte, values [][]byte) error) error {
	it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
	defer it.Close()
	var cur []byte
	var vals [][]byte
	flush := func() error {
		if cur == nil || len(vals) == 0 {
			return nil
		}
		return fn(cur, vals)
	}
	for it.Rewind(); it.Valid(); it.Next() {
		k := it.Item().Key()
		if len(k) < 4 || !s.man.live(binary.BigEndian.Uint32(k[len(k)-4:])) {
			continue
		}
		g := k[:len(k)-4]
		if !bytes.Equal(g, cur) {
			if err := flush(); err != nil {
				return err
			}
			cur, vals = append([]byte(nil), g...), vals[:0]
		}
		v, err := it.Item().ValueCopy(nil)
		if err != nil {
			return err
		}
		vals = append(vals, v)
	}
	return flush()
}

func (s *Store) mergeStatsValues(txn *badger.Txn, wb *badger.WriteBatch, run uint32) error {
	return s.groupLive(txn, []byte{prefixStats, '|'}, func(group []byte, vals [][]byte) error {
		merged := &statsValue{}
		for _, v := range vals {
			o, err := decodeStats(v)
			if err != nil {
				return err
			}
			mergeStats(merged, o)
		}
		return wb.Set(binary.BigEndian.AppendUint32(group, run), encodeStats(nil, merged))
	})
}

func (s *Store) mergeTailBlocks(txn *badger.Txn, wb *badger.WriteBatch, run uint32) error {
	var es []tailEntry
	return s.groupLive(txn, []byte{prefixTail, '|'}, func(group []byte, vals [][]byte) error {
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
		return wb.Set(binary.BigEndian.AppendUint32(group, run), encodeTail(nil, es, width))
	})
}
