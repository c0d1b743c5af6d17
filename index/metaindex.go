package index

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
	"github.com/blevesearch/bleve/v2/mapping"
	bleveindex "github.com/blevesearch/bleve_index_api"
)

// metaIndexer indexes the games' metadata in the background as soon as
// their run is handed to the writer, their postings once it is committed
// (values.go), so replay, position writing and the metadata overlap. The manifest's MetaUpTo records how far it has got
// among committed games: after a crash, or a read-only open in between,
// the next writer indexes the gap again from the stored records (the
// metadata index is derived data).
type metaIndexer struct {
	s    *Store
	im   *mapping.IndexMappingImpl
	done chan struct{}

	mu      sync.Mutex
	changed *sync.Cond // queue or closing changed
	queue   []metaBatch
	queued  int // documents in queue
	// valuing counts the batches submitted whose values Bleve does not
	// hold yet (valuesIndexed).
	valuing int
	closing bool
	err     error

	// The values indexed or found (indexNewValues), and Bleve as it was
	// before the first of them.
	valuesMu sync.Mutex
	known    map[valueHash]struct{}
	before   bleveindex.IndexReader
}

// metaBatch is games to index, and the commit of their run (nil: they
// are committed).
type metaBatch struct {
	docs      []pendingDoc
	commit    *runCommit
	submitted bool // counted in valuing
}

// runCommit tells when a run is committed, or will not be: done is
// closed once ok is known.
type runCommit struct {
	done chan struct{}
	ok   bool
}

// maxQueuedDocs bounds the documents waiting for Bleve (about half a
// kilobyte each): past it, submit waits.
const maxQueuedDocs = 200_000

func startMetaIndexer(s *Store, im *mapping.IndexMappingImpl) *metaIndexer {
	m := &metaIndexer{s: s, im: im, done: make(chan struct{})}
	m.changed = sync.NewCond(&m.mu)
	go m.loop()
	return m
}

func (m *metaIndexer) loop() {
	defer close(m.done)
	for {
		m.mu.Lock()
		for len(m.queue) == 0 && !m.closing {
			m.changed.Wait()
		}
		if len(m.queue) == 0 {
			m.mu.Unlock()
			return
		}
		// Once the import has read its last game, the other core is
		// mostly idle: index two batches at a time to finish sooner.
		// (Earlier, the second core replays, and Bleve batches side by
		// side cost more CPU than one after the other.)
		n := 1
		if m.closing && len(m.queue) > 1 {
			n = 2
		}
		// Taken out of the queue, not only sliced off: the queue's array
		// kept the batches indexed since it last grew alive, documents,
		// records and tags (a million-game import's live heap held some
		// 350,000 records, with up to 200,000 queued; issue 18).
		batches := slices.Clone(m.queue[:n])
		clear(m.queue[:n])
		m.queue = m.queue[n:]
		for _, b := range batches {
			m.queued -= len(b.docs)
		}
		m.changed.Broadcast()
		m.mu.Unlock()
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i, b := range batches {
			wg.Add(1)
			go func() { defer wg.Done(); errs[i] = m.indexDocs(b) }()
		}
		wg.Wait()
		err := errors.Join(errs...)
		if err == nil {
			last := batches[n-1].docs
			err = m.s.setMetaIndexed(last[len(last)-1].gid + 1)
		}
		if err != nil {
			m.mu.Lock()
			if m.err == nil {
				m.err = err
			}
			m.changed.Broadcast()
			m.mu.Unlock()
		}
	}
}

// submit queues the games of a run for indexing, commit telling when the
// run is committed. It returns at once unless the indexer is far behind:
// the import goes on while it catches up, rather than both taking turns.
func (m *metaIndexer) submit(docs []pendingDoc, commit *runCommit) {
	if len(docs) == 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for m.queued >= maxQueuedDocs {
		m.changed.Wait()
	}
	m.queue = append(m.queue, metaBatch{docs, commit, true})
	m.queued += len(docs)
	m.valuing++
	m.changed.Broadcast()
}

// index indexes committed games at once.
func (m *metaIndexer) index(docs []pendingDoc) error {
	if err := m.indexDocs(metaBatch{docs: docs}); err != nil {
		return err
	}
	return m.s.setMetaIndexed(docs[len(docs)-1].gid + 1)
}

// indexDocs gives Bleve the values of a batch's games it does not hold
// yet, then, once their run is committed, writes their postings
// (values.go); safe for concurrent use. A value's document without
// postings is no answer; postings of games never committed would name
// the games their redo adds.
func (m *metaIndexer) indexDocs(b metaBatch) error {
	docs := b.docs
	bv := valuesOf(m.im, docs, newFieldCache())
	err := m.indexNewValues(bv)
	if b.submitted {
		m.mu.Lock()
		m.valuing--
		m.changed.Broadcast()
		m.mu.Unlock()
	}
	if err == nil && b.commit != nil {
		if <-b.commit.done; !b.commit.ok {
			err = errors.New("their run was not committed")
		}
	}
	if err == nil {
		err = m.s.writePostings(bv, docs[0].gid)
	}
	if err != nil {
		return fmt.Errorf("index: metadata of games %d–%d: %w", docs[0].gid, docs[len(docs)-1].gid, err)
	}
	return nil
}

// catchUp indexes the committed games Bleve has not seen.
func (m *metaIndexer) catchUp() error {
	from, to := m.s.metaUpTo(), m.s.man.NextGid
	var docs []pendingDoc
	for gid := from; gid < to; gid++ {
		r, err := m.s.Game(gid)
		if errors.Is(err, ErrNoGame) && m.s.Attrs(gid).Deleted {
			r = nil // deleted: no document
		} else if err != nil {
			return err
		}
		if r != nil {
			m.s.classifyStored(r)
			docs = append(docs, pendingDoc{gid, r, m.s.Attrs(gid)})
		}
		if len(docs) > 0 && (len(docs) == 10_000 || gid == to-1) {
			if err := m.index(docs); err != nil {
				return err
			}
			docs = docs[:0]
		}
	}
	return nil
}

// valuesIndexed starts closing: it waits until Bleve holds the values of
// every game submitted, whose postings may still wait for their run's
// commit, and returns the first error. Bleve takes no more documents
// then: its segments can be merged (Writer.Close) while the last run is
// written.
func (m *metaIndexer) valuesIndexed() error {
	m.mu.Lock()
	m.closing = true
	m.changed.Broadcast()
	for m.valuing > 0 && m.err == nil {
		m.changed.Wait()
	}
	err := m.err
	m.mu.Unlock()
	// Bleve as it was before: a snapshot that would keep the segments a
	// merge replaces.
	m.valuesMu.Lock()
	defer m.valuesMu.Unlock()
	if m.before != nil {
		if cerr := m.before.Close(); err == nil {
			err = cerr
		}
		m.before, m.known = nil, nil
	}
	return err
}

// classifyStored names a stored record's opening (Options.Opening) for
// the metadata rebuilt from the records, as the import named it.
func (s *Store) classifyStored(r *Record) {
	if classify := s.opts.Opening; classify != nil {
		if keys, err := recordKeys(r); err == nil {
			classify(r, keys)
		}
	}
}

// close waits for queued documents and returns the first error.
func (m *metaIndexer) close() error {
	err := m.valuesIndexed()
	<-m.done
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return m.err
	}
	return err
}

// oneSegment merges every segment in one task (Bleve's own single-segment
// plan merges ten at a time, which leaves two segments past ten).
var oneSegment = func() mergeplan.MergePlanOptions {
	o := mergeplan.SingleSegmentMergePlanOptions
	o.SegmentsPerMergeTask = 1 << 20
	return o
}()

// tiered merges segments of like sizes, a few to a tier, as LSM trees
// do: a small import into a large index merges its own segments and
// leaves the large one alone (merging it all took 3 seconds for a hundred
// games added to a million).
//
// The planner counts a segment below FloorSegmentSize as that size. At a
// floor of one batch (10,000 games), the segment of an import of 100
// games stood in the tier of the 10,000-game imports' segments and made
// the planner merge them: 0.42 of the 0.65 CPU-seconds of the 100 games
// added after ten growth imports (issue 18: 100 games in ≤ 0.5 s every
// time). At Bleve's default floor, 2,000, tiny imports' segments merge
// among themselves (TestTinyImportsMergeTinySegments).
var tiered = mergeplan.MergePlanOptions{
	MaxSegmentsPerTier:   4,
	MaxSegmentSize:       mergeplan.DefaultMergePlanOptions.MaxSegmentSize,
	MaxSegmentFileSize:   mergeplan.DefaultMergePlanOptions.MaxSegmentFileSize,
	TierGrowth:           10,
	SegmentsPerMergeTask: 4,
	FloorSegmentSize:     2000,
	ReclaimDeletesWeight: mergeplan.DefaultMergePlanOptions.ReclaimDeletesWeight,
}

// smallTiered is tiered for a small write (Options.DeferCompaction): the
// planner takes only segments below half its MaxSegmentSize, so a small
// import merges the segments of small imports and leaves the merges of
// larger ones to the next larger import. With tiered, the 100 games
// added after ten 10,000-game imports (thirteen segments, over the
// planner's budget) merged four of the 10,000-game segments: 0.33 of the
// import's 0.57 CPU-seconds (issue 18, "every time").
var smallTiered = func() mergeplan.MergePlanOptions {
	o := tiered
	o.MaxSegmentSize = 2 * tiered.FloorSegmentSize
	return o
}()

// compactMeta merges Bleve's segments at the end of an import, which
// writes one per batch: into one segment (smaller and faster to search)
// when the import at least doubled the index, else in tiers.
func (s *Store) compactMeta(all bool) error {
	adv, err := s.meta.Advanced()
	if err != nil {
		return err
	}
	sc, ok := adv.(*scorch.Scorch)
	if !ok {
		return nil
	}
	if !all && s.opts.DeferCompaction {
		return sc.ForceMerge(context.Background(), &smallTiered)
	}
	if !all {
		return sc.ForceMerge(context.Background(), &tiered)
	}
	// Scorch deletes the replaced segment files once it has persisted the
	// merged snapshot. A merge of its own that was under way when ours
	// began can leave a second segment: merge again then. Scorch's
	// persister can also leave the old files to its next round: one
	// import in six waited 0.5 s for them, the merged snapshot persisted,
	// until the second merge (a merge of one segment, which does nothing)
	// woke it, and the files went within 20 ms (issue 18).
	store := filepath.Join(s.dir, "meta.bleve", "store")
	for attempt := 0; attempt < 10; attempt++ {
		if err := sc.ForceMerge(context.Background(), &oneSegment); err != nil {
			return err
		}
		for i := 0; i < 5; i++ {
			if zaps, _ := filepath.Glob(filepath.Join(store, "*.zap")); len(zaps) <= 1 {
				return nil
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return nil
}
