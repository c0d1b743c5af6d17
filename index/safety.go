package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// ErrNotDatabase is returned when opening for writing a folder that holds
// files but no xqdb database: the store would be written among them.
var ErrNotDatabase = errors.New("index: not an xqdb database")

// ErrNoMetadata is returned by metadata searches when the store's metadata
// index (meta.bleve) is missing; Reindex rebuilds it from the records.
var ErrNoMetadata = errors.New("index: the metadata index is missing")

// checkStoreDir refuses a folder that exists, holds something and is not
// a store: a mistyped --db must not write badger/ among a user's files.
// A store is a folder with badger/ in it; an empty or new folder becomes
// one.
func checkStoreDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	if fi, err := os.Stat(filepath.Join(dir, "badger")); err == nil && fi.IsDir() {
		return nil
	}
	return fmt.Errorf("%w: %s holds %d other files or folders; give an empty or new folder", ErrNotDatabase, dir, len(entries))
}

// badgerMetrics turns on Badger's expvar metrics, which every read adds
// to at every level it checks, in every Badger a lookup reads (one a run
// since schema 9): xqdb reads none of them but in a test that counts
// bloom filter checks.
var badgerMetrics = false

// openBadger opens Badger. A read-only open of a store whose writer was
// stopped without closing (kill -9, a power cut, a full disk) finds the
// write-ahead log longer than its last complete transaction, and Badger
// refuses it read-only ("Log truncate required"). Cutting that tail loses
// nothing committed: Badger replays complete transactions only, and a
// transaction is complete (and an xqdb run committed, store.go) only once
// its end marker is written. So the store recovers itself: one read-write
// open cuts the tail, then the read-only open goes on. A writer killed as
// it created a write-ahead log file leaves it empty, which a read-only
// open cannot size ("truncate …: invalid argument"); the read-write open
// sizes it, and it holds nothing.
func openBadger(bo badger.Options) (*badger.DB, error) {
	bo = bo.WithMetricsEnabled(badgerMetrics)
	db, err := badger.Open(bo)
	// Badger wraps the error as text (y.Wrapf), so errors.Is cannot see it.
	if err == nil || !bo.ReadOnly || !strings.Contains(err.Error(), badger.ErrTruncateNeeded.Error()) && !strings.Contains(err.Error(), "While opening memtable") {
		return db, err
	}
	// Another reader may be recovering at the same moment and hold the
	// lock: wait for it a little, then read what it left.
	for attempt := 0; ; attempt++ {
		rw, rerr := badger.Open(bo.WithReadOnly(false))
		if rerr == nil {
			if cerr := rw.Close(); cerr != nil {
				return nil, fmt.Errorf("recover an interrupted import: %w", cerr)
			}
			return badger.Open(bo)
		}
		if attempt == 20 {
			return nil, fmt.Errorf("recover an interrupted import: %w", rerr)
		}
		time.Sleep(50 * time.Millisecond)
		if db, err = badger.Open(bo); err == nil {
			return db, nil
		}
	}
}

// openMetaIndex opens the metadata index. When it is missing, a read-only
// store opens without it (position queries still work; metadata searches
// return ErrNoMetadata), and a writable one creates it empty and marks
// every game as not indexed, so the next writer rebuilds it from the
// records (metaindex.go catchUp).
func (s *Store) openMetaIndex() error {
	path := filepath.Join(s.dir, "meta.bleve")
	_, statErr := os.Stat(path)
	missing := errors.Is(statErr, os.ErrNotExist)
	if missing && s.opts.ReadOnly {
		return nil
	}
	meta, err := openMeta(path, s.opts.ReadOnly)
	if err != nil && s.Games() == 0 {
		// An import stopped while it created the index: nothing in it.
		if s.opts.ReadOnly {
			return nil
		}
		if rerr := os.RemoveAll(path); rerr != nil {
			return err
		}
		meta, err = openMeta(path, false)
	}
	if err != nil {
		return err
	}
	s.meta = meta
	if missing {
		s.man.MetaUpTo = 1
	}
	return nil
}

// LastGid returns the highest game id committed (deleted games keep
// theirs, so it may exceed Games).
func (s *Store) LastGid() uint32 { return s.man.NextGid - 1 }

// MetadataMissing reports whether the store has lost its metadata index:
// a read-only store with games whose meta.bleve folder is gone. (A store
// without games may lack it: an import stopped as it created the store.)
func (s *Store) MetadataMissing() bool { return s.meta == nil && s.Games() > 0 }

func (s *Store) errNoMetadata() error {
	return fmt.Errorf("%w: %s has no %s", ErrNoMetadata, s.dir, filepath.Join(s.dir, "meta.bleve"))
}
