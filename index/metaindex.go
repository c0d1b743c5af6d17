package index

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
	"github.com/blevesearch/bleve/v2/mapping"
)

// metaIndexer feeds the games' metadata documents to Bleve in the
// background, as soon as a run is handed to the writer, so replay, position
// writing and Bleve's analysis overlap. The manifest's MetaUpTo records how
// far Bleve has got among committed games: after a crash, or a read-only
// open in between, the next writer re-indexes the gap from the stored
// records (the metadata index is derived data). Documents of a run that
// never committed name games that do not exist; searches ignore them and
// the run's redo overwrites them.
type metaIndexer struct {
	s    *Store
	im   *mapping.IndexMappingImpl
	jobs chan []pendingDoc
	done chan struct{}
	mu   sync.Mutex
	err  error
}

func startMetaIndexer(s *Store, im *mapping.IndexMappingImpl) *metaIndexer {
	m := &metaIndexer{s: s, im: im, jobs: make(chan []pendingDoc, 1), done: make(chan struct{})}
	go m.loop()
	return m
}

func (m *metaIndexer) loop() {
	defer close(m.done)
	for docs := range m.jobs {
		if err := m.index(docs); err != nil {
			m.mu.Lock()
			if m.err == nil {
				m.err = err
			}
			m.mu.Unlock()
		}
	}
}

// submit queues the documents of a committed run (blocking while the
// previous run is still being indexed).
func (m *metaIndexer) submit(docs []pendingDoc) {
	if len(docs) > 0 {
		m.jobs <- docs
	}
}

func (m *metaIndexer) index(docs []pendingDoc) error {
	b := m.s.meta.NewBatch()
	for _, d := range docs {
		if err := b.IndexAdvanced(metaDoc(m.im, d.gid, d.rec, d.attrs)); err != nil {
			return err
		}
	}
	if err := m.s.meta.Batch(b); err != nil {
		return fmt.Errorf("index: metadata of games %d–%d: %w", docs[0].gid, docs[len(docs)-1].gid, err)
	}
	return m.s.setMetaIndexed(docs[len(docs)-1].gid + 1)
}

// catchUp indexes the committed games Bleve has not seen.
func (m *metaIndexer) catchUp() error {
	from, to := m.s.metaUpTo(), m.s.man.NextGid
	var docs []pendingDoc
	for gid := from; gid < to; gid++ {
		r, err := m.s.Game(gid)
		if err != nil {
			return err
		}
		docs = append(docs, pendingDoc{gid, r, m.s.Attrs(gid)})
		if len(docs) == 10_000 || gid == to-1 {
			if err := m.index(docs); err != nil {
				return err
			}
			docs = docs[:0]
		}
	}
	return nil
}

// close waits for queued documents and returns the first error.
func (m *metaIndexer) close() error {
	close(m.jobs)
	<-m.done
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.err
}

// compactMeta merges Bleve's segments into one: an import writes a segment
// per run, and one segment is smaller and faster to search.
func (s *Store) compactMeta() error {
	adv, err := s.meta.Advanced()
	if err != nil {
		return err
	}
	sc, ok := adv.(*scorch.Scorch)
	if !ok {
		return nil
	}
	if err := sc.ForceMerge(context.Background(), &mergeplan.SingleSegmentMergePlanOptions); err != nil {
		return err
	}
	// Scorch deletes the replaced segment files once it has persisted the
	// merged snapshot; give it a moment so the disk shows one segment.
	store := filepath.Join(s.dir, "meta.bleve", "store")
	for i := 0; i < 50; i++ {
		if zaps, _ := filepath.Glob(filepath.Join(store, "*.zap")); len(zaps) <= 1 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}
