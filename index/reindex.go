package index

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/blevesearch/bleve/v2/mapping"
)

// ReindexPositions rebuilds the position index from the game records: it
// drops every run (one manifest commit: from then on the store has no
// positions), then replays the records and writes their positions in runs
// of Options.RunGames games, each committed as an import's are. Stopped
// midway, it leaves the runs it committed; running it again starts over.
func (s *Store) ReindexPositions() error {
	if s.opts.ReadOnly {
		return errors.New("index: store is open read-only")
	}
	if err := s.loadAttrs(); err != nil {
		return err
	}
	if err := s.updateManifest(func(m *manifest) {
		m.Garbage = append(m.Garbage, m.LiveRuns...)
		if m.Merging != nil {
			m.Garbage = append(m.Garbage, m.Merging.Run)
			m.Merging = nil
		}
		m.LiveRuns, m.RunGames, m.TailBits, m.Filters = nil, nil, nil, nil
	}); err != nil {
		return err
	}
	if err := s.cleanPending(); err != nil { // every run is garbage now
		return err
	}
	// The counts and the popular keys start again with the index they
	// describe.
	if err := s.dropPopularKeys(); err != nil {
		return err
	}
	// The runs written from here on write their heads (head.go).
	if err := s.dropHeads(); err != nil {
		return err
	}
	if err := s.updateManifest(func(m *manifest) { m.Heads = true }); err != nil {
		return err
	}
	w := &Writer{s: s, counts: newOpeningCounts(), popular: &[4]keySet{}}
	w.counts.changed = true
	next := s.man.NextGid
	for from := uint32(1); from < next; from += uint32(s.opts.RunGames) {
		to := min(from+uint32(s.opts.RunGames), next)
		rd := &runData{run: s.man.NextRun, next: next, scale: runScale(int(next)-1, int(to-from))}
		for gid := from; gid < to; gid++ {
			// Every gid of the range has its attributes in rd, in order
			// (writePositions looks them up by gid); deleted games have
			// no positions.
			rd.recs = append(rd.recs, pendingGame{gid: gid}) // positions only: no record to write
			rd.attrs = append(rd.attrs, s.Attrs(gid))
			if s.Attrs(gid).Deleted {
				continue
			}
			r, err := s.Game(gid)
			if err != nil {
				return err
			}
			keys, err := recordKeys(r)
			if err != nil {
				return fmt.Errorf("index: replay game %d: %w", gid, err)
			}
			occ := occurrencesOf(&Game{Record: *r, Keys: keys})
			rd.occ = append(rd.occ, gameOccurrences{gid, r.Game, occ})
		}
		size := runBytes(rd)
		if err := s.ensureSpace(size, w.written); err != nil {
			return err
		}
		w.written += size
		if err := s.updateManifest(func(m *manifest) { m.NextRun++; m.Pending = rd.run }); err != nil {
			return err
		}
		wb := s.newBatch()
		err := wb.stream(rd.run, tailBitsFor(len(rd.recs)), runTableSize)
		if err == nil {
			err = w.writePositions(wb, rd)
		}
		if err == nil {
			err = wb.Flush()
		}
		wb.Cancel()
		if err != nil {
			return fmt.Errorf("index: write positions of games %d–%d: %w", from, to-1, err)
		}
		if err := s.updateManifest(func(m *manifest) { m.addRun(rd.run, rd.recs[0].gid, len(rd.recs)); m.Pending = 0 }); err != nil {
			return err
		}
	}
	if err := w.counts.save(s.dir); err != nil {
		return err
	}
	return s.mergeDue(true, math.MaxInt)
}

// ReindexMetadata rebuilds the metadata index from the game records: it
// marks every game as not indexed (the commit point: a stop after it
// leaves the next writer or reindex to do it), replaces meta.bleve with
// an empty index and indexes every committed game.
func (s *Store) ReindexMetadata() error {
	if s.opts.ReadOnly {
		return errors.New("index: store is open read-only")
	}
	if err := s.updateManifest(func(m *manifest) { m.MetaUpTo = 1; s.metaIndexed = 0 }); err != nil {
		return err
	}
	if err := s.gdb.DropPrefix(postingsKind); err != nil {
		return err
	}
	path := filepath.Join(s.dir, "meta.bleve")
	if s.meta != nil {
		if err := s.meta.Close(); err != nil {
			return err
		}
		s.meta = nil
	}
	if err := os.RemoveAll(path); err != nil {
		return err
	}
	meta, err := openMeta(path, false)
	if err != nil {
		return err
	}
	s.meta = meta
	if err := s.loadAttrs(); err != nil {
		return err
	}
	im, ok := s.meta.Mapping().(*mapping.IndexMappingImpl)
	if !ok {
		return errors.New("index: unexpected metadata mapping")
	}
	m := startMetaIndexer(s, im)
	err = m.catchUp()
	if cerr := m.close(); err == nil {
		err = cerr
	}
	if err == nil && s.Games() > 0 {
		err = s.compactMeta(true)
	}
	return err
}
