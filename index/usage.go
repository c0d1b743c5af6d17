package index

import (
	"encoding/binary"
	"io/fs"
	"path/filepath"
	"syscall"

	"github.com/dgraph-io/badger/v4"
)

// Usage counts the entries of one kind in the store and their bytes
// before compression (keys and values).
type Usage struct {
	Entries int64 `json:"entries"`
	Bytes   int64 `json:"bytes"`
}

var prefixNames = map[byte]string{
	prefixVersion: "version", prefixManifest: "manifest", prefixGame: "games", prefixAttrs: "attributes",
	prefixStats: "popular_positions", prefixTail: "tail_postings", prefixHash: "game_hashes",
	prefixPopular: "popular_keys", prefixHead: "popular_heads", prefixPostings: "metadata_postings",
}

// Usage walks the store and reports entries and raw bytes per kind of key.
func (s *Store) Usage() (map[string]Usage, error) {
	out := map[string]Usage{}
	count := func(kind byte, it *badger.Iterator) {
		name := prefixNames[kind]
		if name == "" {
			name = "other"
		}
		u := out[name]
		u.Entries++
		u.Bytes += int64(len(it.Item().Key())) + it.Item().ValueSize()
		out[name] = u
	}
	err := s.viewRuns(func(txn *view) error {
		// The records, then the global kinds.
		for _, t := range []*badger.Txn{txn.main, txn.glob} {
			it := t.NewIterator(badger.IteratorOptions{})
			for it.Rewind(); it.Valid(); it.Next() {
				k := it.Item().Key()
				kind := k[0]
				if kind == prefixRun {
					kind = keyKind(k) // a run's records
				}
				count(kind, it)
			}
			it.Close()
		}
		// The runs' values, in their folders (runstore.go).
		for _, kind := range runKinds {
			err := txn.eachRunKey(kind, func(it *badger.Iterator) error {
				count(kind, it)
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// DiskBytes returns the bytes the store's files take: Badger (the
// store's, the globals' and the runs'), Bleve.
func (s *Store) DiskBytes() (badgerBytes, bleveBytes int64) {
	for _, d := range []string{badgerDir, globalsDir, runsDir} {
		badgerBytes += DirBytes(filepath.Join(s.dir, d))
	}
	return badgerBytes, DirBytes(filepath.Join(s.dir, "meta.bleve"))
}

// DirBytes returns the bytes of the regular files below dir (0 when it
// does not exist), a sparse file's holes left out: each Badger keeps a
// DISCARD file of 1 MB with one block written, and since schema 9 a store
// has a Badger a run (issue 18: three runs and the globals counted 4 MB
// of holes, 6% of a 137,000-game store).
func DirBytes(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				size := fi.Size()
				if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Blocks*512 < size {
					size = st.Blocks * 512
				}
				n += size
			}
		}
		return nil
	})
	return n
}

// PositionCounts counts the position index: popular positions (with stats
// values) and the game postings under them, and the tail postings (one per
// game and position not popular).
func (s *Store) PositionCounts() (popular, popularPostings, tailPostings int64, err error) {
	err = s.viewRuns(func(txn *view) error {
		// A position popular in several runs has a value in each.
		seen := map[[9]byte]bool{}
		err := txn.eachRunKey(prefixStats, func(it *badger.Iterator) error {
			k := it.Item().Key()
			if len(k) != statsKeyLen || !s.man.live(runOf(k)) {
				return nil
			}
			var pos [9]byte
			pos[0] = keyGame(k)
			binary.BigEndian.PutUint64(pos[1:], keyPosition(k))
			if !seen[pos] {
				popular++
				seen[pos] = true
			}
			return it.Item().Value(func(v []byte) error {
				st, err := decodeStats(v)
				if err == nil {
					popularPostings += int64(len(st.Games))
				}
				return err
			})
		})
		if err != nil {
			return err
		}
		return txn.eachRunKey(prefixTail, func(it *badger.Iterator) error {
			if !s.man.live(runOf(it.Item().Key())) {
				return nil
			}
			return it.Item().Value(func(v []byte) error {
				n, _ := binary.Uvarint(v) // the block header counts its entries
				tailPostings += int64(n)
				return nil
			})
		})
	})
	return
}
