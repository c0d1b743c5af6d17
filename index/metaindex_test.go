package index

import (
	"testing"

	"github.com/blevesearch/bleve/v2/mapping"
)

// TestMetaIndexerLetsIndexedBatchesGo: once Bleve has indexed a batch, the
// queue holds no reference to its documents (and so to their records and
// tags): sliced off the front, they stayed in the queue's array until it
// grew again, hundreds of thousands of documents at the end of a large
// import (issue 18).
func TestMetaIndexerLetsIndexedBatchesGo(t *testing.T) {
	s, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	gs := randomGames(t, 12)
	im := s.meta.Mapping().(*mapping.IndexMappingImpl)
	m := startMetaIndexer(s, im)
	// The batches go in under the lock, all at once, so that the array
	// seen here is the one the indexer takes them from.
	var all []pendingDoc
	m.mu.Lock()
	for b := 0; b < 4; b++ {
		var docs []pendingDoc
		for i, g := range gs[3*b : 3*b+3] {
			p, err := Prepare(g)
			if err != nil {
				t.Fatal(err)
			}
			docs = append(docs, pendingDoc{uint32(3*b + i + 1), p.rec, p.attrs})
		}
		all = append(all, docs...)
		m.queue = append(m.queue, metaBatch{docs: docs})
		m.queued += len(docs)
	}
	array := m.queue[:cap(m.queue)]
	m.changed.Broadcast()
	m.mu.Unlock()
	if err := m.close(); err != nil {
		t.Fatal(err)
	}
	// One document for each distinct value (values.go).
	if n, err := s.meta.DocCount(); err != nil || n != uint64(len(valuesOf(im, all, nil).order)) {
		t.Fatalf("Bleve holds %d documents (%v), want %d", n, err, len(valuesOf(im, all, nil).order))
	}
	for i, b := range array {
		if b.docs != nil {
			t.Errorf("queue slot %d still holds %d indexed documents", i, len(b.docs))
		}
	}
}
