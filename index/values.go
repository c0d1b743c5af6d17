package index

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"strings"

	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	bleveindex "github.com/blevesearch/bleve_index_api"
	"github.com/dgraph-io/badger/v4"
)

// The metadata index holds one Bleve document for each distinct value of
// a field (white "Carlsen, Magnus", event "Tata Steel", ...), not one for
// each game, and the games of each value in postings of its own: SCID's
// name base, and the lichess explorer's players, are kept apart from the
// games alike. Bleve then analyses and searches a few values where it
// analysed every game's dozen fields: a fifth to a third of an import's
// CPU on pgnmentor (issue 18: import ≥ 0.5× SCID; games that each bring a
// value of their own gain nothing, bench/NOTES.md). A query's
// clause finds its values in Bleve and their games in the postings
// (valueTerms, a TermSource); termEval combines the clauses as Bleve did.
//
// Postings are written by the metadata indexer once their games are
// committed, under the first game of the batch they index, so a run that
// never committed leaves none (its game ids go to other games on the
// redo); a batch indexed twice after a crash (MetaUpTo) writes the same
// games again, under a key of its own or the same one, and readers
// merge them. Deleted games stay in the postings and leave the answers
// by their attributes.

// valueDocID is the Bleve document id of a field's value.
func valueDocID(field, value string) string { return field + "\x00" + value }

// parseValueDocID splits a value document's id.
func parseValueDocID(id string) (field, value string, ok bool) {
	return strings.Cut(id, "\x00")
}

// postingsPrefix is the prefix of every postings key of a field's value:
// n|, the field and the value, each after its length.
func postingsPrefix(dst []byte, field, value string) []byte {
	dst = append(dst, postingsKind...)
	dst = binary.AppendUvarint(dst, uint64(len(field)))
	dst = append(dst, field...)
	dst = binary.AppendUvarint(dst, uint64(len(value)))
	return append(dst, value...)
}

// postingsKey is the key of the games of a field's value in the batch of
// games that begins at first.
func postingsKey(field, value string, first uint32) []byte {
	return binary.BigEndian.AppendUint32(postingsPrefix(nil, field, value), first)
}

// batchValues gathers the metadata values of a batch of games (metaFields
// but the attributes' fields) and the games of each, in the order values
// first appear.
type batchValues struct {
	order []fieldValue
	gids  [][]uint32         // the games of each value of order
	index map[fieldKey]int32 // each value's place in order
}

// games returns the games of a field's value.
func (bv *batchValues) games(name, value string) []uint32 {
	if i, ok := bv.index[fieldKey{name, value}]; ok {
		return bv.gids[i]
	}
	return nil
}

func valuesOf(im *mapping.IndexMappingImpl, docs []pendingDoc, cache *fieldCache) *batchValues {
	bv := &batchValues{index: map[fieldKey]int32{}}
	var fs []fieldValue
	// last holds, for each place in a game's list of fields, the value
	// found there in the game before: games in a row share most (the
	// event, the site, a player, the source), and a match spares hashing
	// two strings (the map was two thirds of this function's time).
	var last []int32
	for _, d := range docs {
		fs = metaFields(im, d.rec, d.attrs, cache, fs[:0])
		for len(last) < len(fs) {
			last = append(last, -1)
		}
		for j, f := range fs {
			i := last[j]
			if i < 0 || bv.order[i].value != f.value || bv.order[i].name != f.name {
				if attrFields[f.name] {
					continue
				}
				k := fieldKey{f.name, f.value}
				var ok bool
				if i, ok = bv.index[k]; !ok {
					i = int32(len(bv.order))
					bv.index[k] = i
					bv.order = append(bv.order, f)
					bv.gids = append(bv.gids, nil)
				}
				last[j] = i
			}
			if g := bv.gids[i]; len(g) == 0 || g[len(g)-1] != d.gid {
				bv.gids[i] = append(g, d.gid)
			}
		}
	}
	return bv
}

// writePostings writes the postings of a batch of games that begins at
// first.
func (s *Store) writePostings(bv *batchValues, first uint32) error {
	wb := s.gdb.NewWriteBatch()
	defer wb.Cancel()
	for i, f := range bv.order {
		if err := wb.Set(postingsKey(f.name, f.value, first), encodeGids(bv.gids[i])); err != nil {
			return err
		}
	}
	if err := wb.Flush(); err != nil {
		return fmt.Errorf("index: write metadata postings: %w", err)
	}
	return nil
}

// indexNewValues gives Bleve a document for each value of bv it does not
// hold yet: values the indexer has seen are known, others are looked up
// in Bleve as it was when the indexer started (the values of its own
// batches it knows, and one lookup probes every segment: 0.62 of an
// import's 13 CPU-seconds when each batch looked its values up anew).
func (m *metaIndexer) indexNewValues(bv *batchValues) error {
	m.valuesMu.Lock()
	if m.before == nil {
		adv, err := m.s.meta.Advanced()
		if err == nil {
			m.before, err = adv.Reader()
		}
		if err != nil {
			m.valuesMu.Unlock()
			return err
		}
		m.known = map[valueHash]struct{}{}
	}
	if len(m.known) > maxKnownValues {
		// Many values each in a few games (an event a game): forgotten,
		// a value met again is only looked up again.
		clear(m.known)
	}
	var fresh []fieldValue
	for _, f := range bv.order {
		k := hashValue(f.name, f.value)
		if _, ok := m.known[k]; ok {
			continue
		}
		m.known[k] = struct{}{}
		iid, err := m.before.InternalID(valueDocID(f.name, f.value))
		if err != nil {
			m.valuesMu.Unlock()
			return err
		}
		if iid == nil {
			fresh = append(fresh, f)
		}
	}
	m.valuesMu.Unlock()
	// In Bleve batches of at most valueBatch documents: a batch's analysis
	// is live until its segment is written, and a run of 50,000 games of
	// an event each made batches five times the size of the game batches
	// before, which a large import's memory limit paid for in collections.
	for len(fresh) > 0 {
		n := min(len(fresh), valueBatch)
		b := m.s.meta.NewBatch()
		for _, f := range fresh[:n] {
			d := &document.Document{Fields: make([]document.Field, 0, 2)}
			d.SetID(valueDocID(f.name, f.value))
			// Positions are for phrase checks, which read the value itself.
			d.AddField(document.NewTextFieldCustom(f.name, nil, []byte(f.value), f.opts&^bleveindex.IncludeTermVectors, f.analyzer))
			if err := b.IndexAdvanced(d); err != nil {
				return err
			}
		}
		if err := m.s.meta.Batch(b); err != nil {
			return err
		}
		fresh = fresh[n:]
	}
	return nil
}

// valueBatch is the most value documents one Bleve batch takes.
const valueBatch = 10_000

// maxKnownValues bounds the values a metadata indexer remembers (some
// 40 bytes each).
const maxKnownValues = 1 << 21

// valueHash identifies a field's value among those a metadata indexer
// has met: 128 bits (two values of a million colliding: about 1 in
// 10^26), and no pointers, which the collector would follow in every
// cycle (a map of the values themselves kept their records' text alive:
// a million-game import of a new event a game spent 19% of its CPU in
// the collector, and took 107 s against 69).
type valueHash [2]uint64

var valueSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

func hashValue(field, value string) valueHash {
	var h valueHash
	for i, seed := range valueSeeds {
		var mh maphash.Hash
		mh.SetSeed(seed)
		mh.WriteString(field)
		mh.WriteByte(0)
		mh.WriteString(value)
		h[i] = mh.Sum64()
	}
	return h
}

// postingsReader reads the games of values, through one iterator.
type postingsReader struct {
	s   *Store
	txn *badger.Txn
	it  *badger.Iterator
	key []byte
}

func (s *Store) newPostingsReader() *postingsReader {
	txn := s.gdb.NewTransaction(false)
	return &postingsReader{s: s, txn: txn, it: txn.NewIterator(badger.IteratorOptions{PrefetchValues: false})}
}

func (p *postingsReader) close() {
	p.it.Close()
	p.txn.Discard()
}

// games appends to dst the games of a field's value: committed, not
// deleted, in no particular order, perhaps some twice (a batch indexed
// twice).
func (p *postingsReader) games(dst []uint32, field, value string) ([]uint32, error) {
	p.key = postingsPrefix(p.key[:0], field, value)
	for p.it.Seek(p.key); p.it.ValidForPrefix(p.key); p.it.Next() {
		// The lengths in the prefix make it no other value's.
		from := len(dst)
		err := p.it.Item().Value(func(v []byte) error {
			var err error
			dst, err = appendGids(dst, v)
			return err
		})
		if err != nil {
			return dst, err
		}
		kept := dst[:from]
		for _, g := range dst[from:] {
			if g < p.s.man.NextGid && !p.s.Attrs(g).Deleted {
				kept = append(kept, g)
			}
		}
		dst = kept
	}
	return dst, nil
}
