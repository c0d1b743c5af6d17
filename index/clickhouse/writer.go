package clickhouse

import (
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/xqdb/xqdb/index"
)

// Writer adds games in large batches. A batch inserts its positions and
// terms, then its games, then commits by appending next_gid to the
// manifest; reads never look past the last committed next_gid. An import
// killed mid-batch leaves rows past it, which the next writer deletes
// before it gives those ids again: re-running the import ends exact.
type Writer struct {
	d      *DB
	dedupe index.Dedupe
	next   uint32
	added  int
	// hashes maps the dedupe key of every stored game to its ids (the
	// first one first), as index.Writer does.
	hashes map[uint64][]uint32
	attrs  []index.Attrs // by gid, stored games and this writer's
	batch  batch
	// batchGames is how many games a batch holds (Options.RunGames).
	batchGames int
	done       chan error // the batch being inserted in the background
}

// batch is the rows of the games being added, per shard.
type batch struct {
	from, games int
	positions   []rowWriter
	terms       []rowWriter
	records     []rowWriter
	// docs are the games whose metadata terms are still to be worked out
	// (Bleve's analysis, the costliest part of a row): in the background
	// insert, on every core.
	docs []doc
}

type doc struct {
	gid uint32
	p   *index.Prepared
}

// addTerms fills the terms rows of the batch's games.
func (b *batch) addTerms() {
	shards := len(b.terms)
	workers := runtime.GOMAXPROCS(0)
	parts := make([][]rowWriter, workers)
	var wg sync.WaitGroup
	for w := range parts {
		parts[w] = make([]rowWriter, shards)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(b.docs); i += workers {
				d := b.docs[i]
				t := &parts[w][int(d.gid)%shards]
				d.p.EachTerm(d.gid, func(field, term string, pos uint32) {
					t.str(field)
					t.str(term)
					t.u32(d.gid)
					t.u32(pos)
				})
			}
		}()
	}
	wg.Wait()
	for _, part := range parts {
		for s := range part {
			b.terms[s].b = append(b.terms[s].b, part[s].b...)
		}
	}
	b.docs = nil
}

func (b *batch) reset(shards int, from uint32) {
	b.from, b.games = int(from), 0
	b.positions, b.terms, b.records = make([]rowWriter, shards), make([]rowWriter, shards), make([]rowWriter, shards)
}

// NewGameWriter starts adding games, after deleting what an interrupted
// import left past the last commit. It holds the writer's lock (lock.go)
// until Close: a second writer gets an *index.BusyError.
func (d *DB) NewGameWriter() (index.GameWriter, error) {
	if d.opts.ReadOnly {
		return nil, errReadOnly
	}
	if err := d.lock(); err != nil {
		return nil, err
	}
	w, err := d.newGameWriter()
	if err != nil {
		_ = d.unlock()
		return nil, err
	}
	return w, nil
}

func (d *DB) newGameWriter() (*Writer, error) {
	// What Open read may be older than the lock: a writer that finished
	// since committed more.
	if err := d.loadManifest(); err != nil {
		return nil, err
	}
	d.forgetAttrs()
	if err := d.cleanUncommitted(); err != nil {
		return nil, err
	}
	// De-duplication compares every game added with the stored ones.
	if err := d.loadAllAttrs(); err != nil {
		return nil, err
	}
	w := &Writer{d: d, next: d.committed(), hashes: map[uint64][]uint32{}, batchGames: d.opts.RunGames}
	if w.batchGames <= 0 {
		w.batchGames = 50_000
	}
	w.attrs = make([]index.Attrs, w.next, w.next+1024)
	d.attrsMu.Lock()
	for gid, a := range d.attrs {
		if gid < w.next {
			w.attrs[gid] = a
		}
	}
	d.attrsMu.Unlock()
	w.batch.reset(len(d.nodes), w.next)
	return w, nil
}

// cleanUncommitted deletes rows of games at or past next_gid on every
// shard and waits until the deletions are done (ALTER … DELETE is a
// mutation, applied in the background; only the parts that exist when it
// is sent are rewritten, so later inserts are safe).
func (d *DB) cleanUncommitted() error {
	for _, n := range d.nodes {
		for _, t := range tables {
			rr, err := n.rows(fmt.Sprintf("SELECT count() FROM %s WHERE gid >= %d", d.local(t.name), d.committed()))
			if err != nil {
				return err
			}
			if rr.u64() == 0 {
				continue
			}
			if err := n.exec(fmt.Sprintf("ALTER TABLE %s DELETE WHERE gid >= %d", d.local(t.name), d.committed())); err != nil {
				return err
			}
		}
		for deadline := time.Now().Add(5 * time.Minute); ; {
			rr, err := n.rows("SELECT count() FROM system.mutations WHERE database = " + quote(d.name) + " AND is_done = 0")
			if err != nil {
				return err
			}
			if rr.u64() == 0 {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("clickhouse: %s: the deletion of an interrupted import's rows has not finished in 5 minutes", n.addr)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return nil
}

// SetDedupe sets what a duplicate is (index.DedupeGame unless set).
func (w *Writer) SetDedupe(d index.Dedupe) { w.dedupe = d; w.hashes = map[uint64][]uint32{} }

func (w *Writer) stored(a index.Attrs) (uint32, bool) {
	if len(w.hashes) == 0 {
		for gid := uint32(1); gid < w.next; gid++ {
			k := index.DedupeKey(w.dedupe, w.attrs[gid])
			w.hashes[k] = append(w.hashes[k], gid)
		}
	}
	for _, gid := range w.hashes[index.DedupeKey(w.dedupe, a)] {
		if w.dedupe == index.DedupeMoves || index.SameGame(w.attrs[gid], a) {
			return gid, true
		}
	}
	return 0, false
}

// AddPrepared adds a game unless it is stored already; ids are given in
// the order games are added, as the Badger store gives them.
func (w *Writer) AddPrepared(p *index.Prepared) (index.AddResult, error) {
	a := p.Attrs()
	if gid, ok := w.stored(a); ok {
		return index.AddResult{Gid: gid, Duplicate: true}, nil
	}
	gid := w.next
	w.next++
	k := index.DedupeKey(w.dedupe, a)
	w.hashes[k] = append(w.hashes[k], gid)
	w.attrs = append(w.attrs, a)
	w.added++
	b := &w.batch
	shards := uint64(len(w.d.nodes))
	rec := &b.records[uint64(gid)%shards]
	rec.u32(gid)
	rec.u8(uint8(a.Game))
	rec.u8(uint8(a.Result))
	rec.u32(a.Date)
	rec.u16(a.Rating)
	rec.u16(a.Plies)
	rec.u64(a.Hash)
	rec.u32(a.Players)
	rec.bytes(p.Encoded())
	p.EachOccurrence(func(key uint64, ply, code uint16) {
		r := &b.positions[key%shards]
		r.u64(key)
		r.u8(uint8(a.Game))
		r.u32(gid)
		r.u16(ply)
		r.u16(code)
		r.u8(uint8(a.Result))
		r.u32(a.Date)
		r.u16(a.Rating)
	})
	b.docs = append(b.docs, doc{gid, p})
	b.games++
	if b.games >= w.batchGames {
		return index.AddResult{Gid: gid}, w.flush()
	}
	return index.AddResult{Gid: gid}, nil
}

// flush hands the batch to a background insert (after the previous one
// is committed) and starts the next, so that replaying the next games
// overlaps with inserting these.
func (w *Writer) flush() error {
	if err := w.wait(); err != nil {
		return err
	}
	if w.batch.games == 0 {
		return nil
	}
	b := w.batch
	w.batch.reset(len(w.d.nodes), w.next)
	next := w.next
	w.done = make(chan error, 1)
	go func() { w.done <- w.d.insertBatch(&b, next) }()
	return nil
}

func (w *Writer) wait() error {
	if w.done == nil {
		return nil
	}
	err := <-w.done
	w.done = nil
	return err
}

// insertBatch inserts a batch's rows on every shard, then commits it.
func (d *DB) insertBatch(b *batch, next uint32) error {
	b.addTerms()
	errs := make(chan error, len(d.nodes))
	for i, n := range d.nodes {
		go func() {
			err := n.insert(d.local("positions"), "key, game, gid, ply, code, result, date, rating", b.positions[i].b)
			if err == nil {
				err = n.insert(d.local("terms"), "field, term, gid, pos", b.terms[i].b)
			}
			if err == nil {
				err = n.insert(d.local("games"), "gid, game, result, date, rating, plies, hash, players, record", b.records[i].b)
			}
			errs <- err
		}()
	}
	var first error
	for range d.nodes {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	if first != nil {
		return first
	}
	if err := d.nodes[0].exec(fmt.Sprintf("INSERT INTO %s.manifest (schema, next_gid) VALUES (%d, %d)", d.name, SchemaVersion, next)); err != nil {
		return err
	}
	d.next.Store(next)
	return nil
}

// Close inserts and commits the last batch, and lets the next writer in.
func (w *Writer) Close() error {
	err := w.flush()
	if err == nil {
		err = w.wait()
	} else {
		_ = w.wait()
	}
	if uerr := w.d.unlock(); err == nil {
		err = uerr
	}
	// Attributes read before this writer are stale now.
	w.d.forgetAttrs()
	if err != nil {
		return fmt.Errorf("clickhouse: import: %w", err)
	}
	return nil
}

// Added returns how many games this writer stored.
func (w *Writer) Added() int { return w.added }
