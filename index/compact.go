package index

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/dgraph-io/badger/v4"
)

// Compact reclaims the space that deletions, re-imports and merges left:
// it merges the position index's runs into one (so lookups read one value
// per position), merges the metadata index into one segment (which drops
// the documents Delete removed), and has Badger rewrite its tables into
// one level (which drops deleted and overwritten values) and collect its
// value log. Deletion leaves no tombstones of xqdb's own: Delete rewrites
// the values it touches.
func (s *Store) Compact() error {
	if s.opts.ReadOnly {
		return errors.New("index: store is open read-only")
	}
	if len(s.man.LiveRuns) > 1 {
		if err := s.mergeRuns(); err != nil {
			return fmt.Errorf("index: merge runs: %w", err)
		}
	}
	if err := s.compactMeta(true); err != nil {
		return fmt.Errorf("index: merge metadata: %w", err)
	}
	// Badger keeps the latest writes in memory tables, which only a close
	// writes out; flattening then compacts them with the rest.
	if err := s.db.Close(); err != nil {
		return err
	}
	db, err := badger.Open(badgerOptions(filepath.Join(s.dir, "badger"), false))
	if err != nil {
		return fmt.Errorf("index: reopen: %w", err)
	}
	s.db = db
	if err := s.db.Flatten(2); err != nil {
		return fmt.Errorf("index: flatten: %w", err)
	}
	for {
		err := s.db.RunValueLogGC(0.5)
		if errors.Is(err, badger.ErrNoRewrite) || errors.Is(err, badger.ErrRejected) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("index: value log: %w", err)
		}
	}
}
