package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/dgraph-io/badger/v4"
)

// Compact reclaims the space that deletions, re-imports and merges left:
// it merges the position index's runs into one (so lookups read one value
// per position), merges the metadata index into one segment (which drops
// the documents Delete removed), and rewrites Badger's folder with only
// the live values. Deletion leaves no tombstones of xqdb's own (Delete
// rewrites the values it touches), but Badger keeps deleted and replaced
// values in its tables until a compaction reaches their level, which its
// own Flatten does not force.
func (s *Store) Compact() error {
	if s.opts.ReadOnly {
		return errors.New("index: store is open read-only")
	}
	if err := s.finishMerge(); err != nil {
		return fmt.Errorf("index: merge runs: %w", err)
	}
	if len(s.man.LiveRuns) > 1 {
		if err := s.mergeRuns(slices.Clone(s.man.LiveRuns)); err != nil {
			return fmt.Errorf("index: merge runs: %w", err)
		}
	}
	// The runs earlier merges replaced: the rewrite would copy them.
	if err := s.dropGarbageRuns(); err != nil {
		return fmt.Errorf("index: delete merged runs: %w", err)
	}
	if err := s.sweepFilters(); err != nil {
		return err
	}
	if err := s.compactMeta(true); err != nil {
		return fmt.Errorf("index: merge metadata: %w", err)
	}
	return s.rewriteBadger()
}

// Folders of a Badger rewrite: the copy being written, and the old folder
// between the two renames that swap them.
const (
	badgerDir     = "badger"
	badgerCompact = "badger.compact"
	badgerOld     = "badger.old"
)

// rewriteBadger streams the live values into a new Badger folder and swaps
// it in: written in full and closed first, then two renames, so that
// recoverRewrite can finish or undo a swap that a crash interrupted.
func (s *Store) rewriteBadger() error {
	tmp, dir, old := filepath.Join(s.dir, badgerCompact), filepath.Join(s.dir, badgerDir), filepath.Join(s.dir, badgerOld)
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	ndb, err := badger.Open(badgerOptions(tmp, false))
	if err != nil {
		return fmt.Errorf("index: rewrite: %w", err)
	}
	sw := ndb.NewStreamWriter()
	err = sw.Prepare()
	if err == nil {
		st := s.db.NewStream()
		st.LogPrefix = "xqdb compact"
		st.Send = sw.Write
		err = st.Orchestrate(context.Background())
	}
	if err == nil {
		err = sw.Flush()
	}
	if cerr := ndb.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("index: rewrite: %w", err)
	}
	if err := s.db.Close(); err != nil {
		return err
	}
	if err := os.Rename(dir, old); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return err
	}
	if err := os.RemoveAll(old); err != nil {
		return err
	}
	s.db, err = badger.Open(badgerOptions(dir, false))
	if err != nil {
		return fmt.Errorf("index: reopen after the rewrite: %w", err)
	}
	return nil
}

// recoverRewrite finishes or undoes a Badger rewrite that stopped between
// its steps: without the Badger folder, a complete copy (it is only
// renamed once written) takes its place, else the old folder goes back;
// leftovers are removed.
func recoverRewrite(dir string) error {
	cur, tmp, old := filepath.Join(dir, badgerDir), filepath.Join(dir, badgerCompact), filepath.Join(dir, badgerOld)
	if _, err := os.Stat(cur); errors.Is(err, os.ErrNotExist) {
		if _, err := os.Stat(old); err == nil {
			from := old
			if _, err := os.Stat(tmp); err == nil {
				from = tmp
			}
			if err := os.Rename(from, cur); err != nil {
				return fmt.Errorf("index: recover an interrupted compaction: %w", err)
			}
		}
	}
	if _, err := os.Stat(cur); err != nil {
		return nil
	}
	for _, p := range []string{tmp, old} {
		if _, err := os.Stat(p); err == nil {
			if err := os.RemoveAll(p); err != nil {
				return err
			}
		}
	}
	return nil
}
