package index

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/dgraph-io/badger/v4"
)

// The moves hash of every stored game is also a key, h|hash, whose value
// lists the games with those moves (uvarint gid deltas; nearly always
// one). A writer asks it for each game it is given, one point read that
// Badger's bloom filters answer for a new game, instead of loading every
// game's attributes and hashing them into a map at each import (a third
// of a second of the time 100 games took to add to a million).

func encodeGids(gids []uint32) []byte {
	b := make([]byte, 0, 5*len(gids))
	prev := uint32(0)
	for _, g := range gids {
		b = binary.AppendUvarint(b, uint64(g-prev))
		prev = g
	}
	return b
}

func decodeGids(b []byte) ([]uint32, error) { return appendGids(nil, b) }

// appendGids appends the game ids of an encodeGids value to dst.
func appendGids(dst []uint32, b []byte) ([]uint32, error) {
	prev := uint64(0)
	for len(b) > 0 {
		d, n := binary.Uvarint(b)
		if n <= 0 || prev+d > 0xFFFFFFFF {
			return dst, fmt.Errorf("index: corrupt list of game ids")
		}
		prev += d
		dst = append(dst, uint32(prev))
		b = b[n:]
	}
	return dst, nil
}

// hashGids returns the games stored under moves hash h.
func (s *Store) hashGids(h uint64) ([]uint32, error) {
	s.hashReads++
	var gids []uint32
	err := s.gdb.View(func(txn *badger.Txn) error {
		err := readValue(txn, hashKey(h), func(v []byte) error {
			var err error
			gids, err = decodeGids(v)
			return err
		})
		return err
	})
	return gids, err
}

// indexHashes writes the h| entries of the games that lack them (a store
// written before they existed, or whose games came by another way): once,
// from the attributes.
func (s *Store) indexHashes() error {
	if s.man.HashedUpTo >= s.man.NextGid {
		return nil
	}
	if s.man.HashedUpTo <= 1 && s.man.NextGid <= 1 {
		return s.updateManifest(func(m *manifest) { m.HashedUpTo = m.NextGid })
	}
	if err := s.loadAttrs(); err != nil {
		return err
	}
	byHash := map[uint64][]uint32{}
	for gid := uint32(1); gid < s.man.NextGid && int(gid) < len(s.attrs); gid++ {
		h := s.attrs[gid].Hash
		byHash[h] = append(byHash[h], gid)
	}
	wb := s.gdb.NewWriteBatch()
	defer wb.Cancel()
	for h, gids := range byHash {
		slices.Sort(gids)
		if err := wb.Set(hashKey(h), encodeGids(gids)); err != nil {
			return err
		}
	}
	if err := wb.Flush(); err != nil {
		return fmt.Errorf("index: index game hashes: %w", err)
	}
	return s.updateManifest(func(m *manifest) { m.HashedUpTo = m.NextGid })
}

// readAttrsChunk reads one attribute chunk (none when it is not stored).
func (s *Store) readAttrsChunk(c uint32) ([]Attrs, error) {
	var out []Attrs
	err := s.gdb.View(func(txn *badger.Txn) error {
		return readValue(txn, attrsKey(c), func(v []byte) error {
			out = make([]Attrs, len(v)/attrsSize)
			decodeAttrs(out, v)
			return nil
		})
	})
	return out, err
}
