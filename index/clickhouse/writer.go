package clickhouse

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/xqdb/xqdb/index"
)

// Writer adds games in batches of Options.RunGames games. Rows go out as
// they are made, in Native blocks (native.go) of about a million rows,
// over a few HTTP connections at once, while the caller prepares the next
// games; a batch commits, once all its rows are in, by appending its
// next_gid to the manifest, and reads never look past the last commit. An
// import killed mid-batch leaves rows past it, which the next writer
// deletes before it gives those ids again: re-running the import ends
// exact.
type Writer struct {
	d      *DB
	dedupe index.Dedupe
	next   uint32
	added  int
	// hashes maps the dedupe key of every stored game to its ids (the
	// first one first), as index.Writer does.
	hashes map[uint64][]uint32
	attrs  []index.Attrs // by gid, stored games and this writer's
	// batchGames is how many games a batch holds (Options.RunGames);
	// inBatch how many the open one has.
	batchGames, inBatch int
	terms               *index.TermCache
	fields              []*index.FieldTerms // a game's, from terms
	// inDict are the ids of the terms this writer put in dict: field
	// values share terms (Carlsen, Magnus and Carlsen, M.).
	inDict map[uint64]bool

	// The blocks being filled, per shard (dict goes to every shard).
	positions, termRows, games []*block
	dict                       *block
	// pools hold each table's blocks (by table name), used again after
	// their insert.
	pools map[string]*pool
	// blockRows is the rows of a full block (the constant; fewer in
	// tests).
	blockRows int

	batch   *pending
	sends   chan send
	commits chan *pending
	workers sync.WaitGroup
	failed  errBox
}

// pending is a batch whose rows are being sent.
type pending struct {
	next uint32 // its commit
	wg   sync.WaitGroup
	err  errBox
}

type send struct {
	n    *node
	b    *block
	p    *pending
	pool *pool // b's, which takes it back once it is in
}

// errBox keeps the first error of several goroutines.
type errBox struct {
	mu  sync.Mutex
	err error
}

func (e *errBox) set(err error) {
	e.mu.Lock()
	if e.err == nil {
		e.err = err
	}
	e.mu.Unlock()
}

func (e *errBox) get() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}

const (
	// blockRows is the rows of a full block: big enough that a part's
	// fixed costs (files, sorting runs, merges) stay small, small enough
	// that a few blocks in flight take a few hundred MB.
	blockRows = 1 << 20
	// senders is how many inserts run at once: the server parses and
	// sorts each in its own thread, while this process prepares rows.
	senders = 3
)

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
	w := d.writer(blockRows)
	d.attrsMu.Lock()
	for gid, a := range d.attrs {
		if gid < w.next {
			w.attrs[gid] = a
		}
	}
	d.attrsMu.Unlock()
	w.start()
	return w, nil
}

// writer returns a Writer of d after its last commit, with blocks of rows
// rows, not started.
func (d *DB) writer(rows int) *Writer {
	w := &Writer{d: d, next: d.committed(), hashes: map[uint64][]uint32{}, batchGames: d.opts.RunGames, terms: index.NewTermCache(),
		inDict: map[uint64]bool{}, blockRows: rows, pools: map[string]*pool{}}
	if w.batchGames <= 0 {
		w.batchGames = 50_000
	}
	w.attrs = make([]index.Attrs, w.next, w.next+1024)
	shards := len(d.nodes)
	for _, t := range tables {
		// A block fills on the writer's side while the senders insert
		// others: with this many, a full block never waits for an
		// empty one longer than an insert takes.
		w.pools[t.name] = newPool(d.local(t.name), t.name, w.blockRowsOf(t.name), shards+senders+1)
	}
	w.positions, w.termRows, w.games = make([]*block, shards), make([]*block, shards), make([]*block, shards)
	for s := range shards {
		w.positions[s], w.termRows[s], w.games[s] = w.block("positions"), w.block("terms"), w.block("games")
	}
	w.dict = w.block("dict")
	w.batch = &pending{}
	w.sends, w.commits = make(chan send), make(chan *pending, 2)
	return w
}

// blockRowsOf is the rows a block of table is made for: a full block of
// positions or terms; a batch's games (a block of games is sent when its
// batch ends, or once full); some of the distinct terms a batch adds to
// dict.
func (w *Writer) blockRowsOf(table string) int {
	switch table {
	case "games":
		return min(w.batchGames, w.blockRows)
	case "dict":
		return min(1<<15, w.blockRows)
	}
	return w.blockRows
}

// start runs the senders and the committer.
func (w *Writer) start() {
	for range senders {
		w.workers.Add(1)
		go func() {
			defer w.workers.Done()
			var srt sorter
			for s := range w.sends {
				// Sorted here, the block is written by the server as
				// it is (sort.go).
				if err := s.n.insertBlock(srt.columns(s.b)); err != nil {
					s.p.err.set(err)
				}
				s.p.wg.Done()
				s.pool.put(s.b)
			}
		}()
	}
	w.workers.Add(1)
	go func() {
		defer w.workers.Done()
		w.commit()
	}()
}

// pool holds the blocks of one table, made once each with room for a full
// block (presized) and emptied and filled again after each insert: grown
// from empty, and made afresh whenever the senders' queue back was full,
// the blocks' columns were a sixth of a copy's CPU time (copying on
// growth, zeroing, the garbage collector; issue 19). It makes at most
// limit blocks and never drops one: once all are made, a writer that
// needs one waits for a sender to hand one back.
type pool struct {
	local, table string
	rows         int
	free         chan *block // capacity limit: put never waits
	made, limit  int         // made is the writer's only
	all          []*block    // every block made (tests)
}

func newPool(local, table string, rows, limit int) *pool {
	return &pool{local: local, table: table, rows: rows, free: make(chan *block, limit), limit: limit}
}

// get returns an empty block: one handed back, a new one while fewer than
// limit are made, else the next one handed back.
func (p *pool) get() *block {
	select {
	case b := <-p.free:
		return b
	default:
	}
	if p.made < p.limit {
		p.made++
		b := presized(p.local, p.table, p.rows)
		p.all = append(p.all, b)
		return b
	}
	return <-p.free
}

// put hands an inserted block back, emptied.
func (p *pool) put(b *block) {
	b.reset()
	p.free <- b
}

// block returns an empty block of table (on one node: the writer picks
// the node when it sends it).
func (w *Writer) block(table string) *block { return w.pools[table].get() }

// ship sends b, unless empty, to node n as part of the open batch.
func (w *Writer) ship(n *node, b *block, table string) {
	if b.rows == 0 {
		return
	}
	w.batch.wg.Add(1)
	w.sends <- send{n, b, w.batch, w.pools[table]}
}

// swap ships b and returns an empty block of its table in its place.
func (w *Writer) swap(n *node, b *block, table string) *block {
	if b.rows == 0 {
		return b
	}
	w.ship(n, b, table)
	return w.block(table)
}

// commit appends each batch's next_gid to the manifest once its rows are
// all in, in order; after a failed batch nothing more is committed.
func (w *Writer) commit() {
	for p := range w.commits {
		p.wg.Wait()
		if w.failed.get() != nil {
			continue
		}
		err := p.err.get()
		if err == nil {
			err = w.d.nodes[0].exec(fmt.Sprintf("INSERT INTO %s.manifest (schema, next_gid) VALUES (%d, %d)", w.d.name, SchemaVersion, p.next))
		}
		if err != nil {
			w.failed.set(err)
			continue
		}
		w.d.next.Store(p.next)
	}
}

// cleanUncommitted deletes rows of games at or past next_gid on every
// shard and waits until the deletions are done (ALTER … DELETE is a
// mutation, applied in the background; only the parts that exist when it
// is sent are rewritten, so later inserts are safe).
func (d *DB) cleanUncommitted() error {
	next := d.committed()
	for _, n := range d.nodes {
		for _, t := range tables {
			if t.name == "dict" {
				continue // terms without games are never asked for
			}
			rr, err := n.rows(fmt.Sprintf("SELECT count() FROM %s WHERE gid >= %d", d.local(t.name), next))
			if err != nil {
				return err
			}
			if rr.u64() == 0 {
				continue
			}
			if err := n.exec(fmt.Sprintf("ALTER TABLE %s DELETE WHERE gid >= %d", d.local(t.name), next)); err != nil {
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

var le = binary.LittleEndian

// AddPrepared adds a game unless it is stored already; ids are given in
// the order games are added, as the Badger store gives them. Its rows
// are appended to the blocks of their shards without allocating (a full
// block is sent and replaced by an emptied one).
func (w *Writer) AddPrepared(p *index.Prepared) (index.AddResult, error) {
	if err := w.failed.get(); err != nil {
		return index.AddResult{}, err
	}
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
	nodes := w.d.nodes
	shards := uint64(len(nodes))
	gs := uint64(gid) % shards

	g := w.games[gs] // gid, game, result, date, rating, plies, hash, players, record
	if g.rows >= w.blockRows {
		g = w.swap(nodes[gs], g, "games")
		w.games[gs] = g
	}
	c := g.data
	c[0] = le.AppendUint32(c[0], gid)
	c[1] = append(c[1], uint8(a.Game))
	c[2] = append(c[2], uint8(a.Result))
	c[3] = le.AppendUint32(c[3], a.Date)
	c[4] = le.AppendUint16(c[4], a.Rating)
	c[5] = le.AppendUint16(c[5], a.Plies)
	c[6] = le.AppendUint64(c[6], a.Hash)
	c[7] = le.AppendUint32(c[7], a.Players)
	c[8] = appendBytes(c[8], p.Encoded())
	g.rows++

	// A game's position rows (key, game, gid, ply, code, result, date,
	// rating) differ in key, ply and code only.
	l := w.positions[0].layout
	var row sortItem
	l.put(&row, 1, uint64(a.Game))
	l.put(&row, 2, uint64(gid))
	l.put(&row, 5, uint64(a.Result))
	l.put(&row, 6, uint64(a.Date))
	l.put(&row, 7, uint64(a.Rating))
	plyAt, codeAt := l.off[3], l.off[4]
	p.EachOccurrence(func(key uint64, ply, code uint16) {
		s := key % shards
		b := w.positions[s]
		row.k = key
		le.PutUint16(row.row[plyAt:], ply)
		le.PutUint16(row.row[codeAt:], code)
		b.items = append(b.items, row)
		if b.rows++; b.rows >= w.blockRows {
			w.positions[s] = w.swap(nodes[s], b, "positions")
		}
	})

	terms := p.Terms()
	if terms == nil {
		// Not prepared by CopyGames: analysed here.
		w.fields = w.fields[:0]
		w.terms.Each(p, func(ft *index.FieldTerms, _ bool) {
			if ft.Rows == nil {
				ft.Rows = w.TermRows(ft)
			}
			w.fields = append(w.fields, ft)
		})
		terms = w.fields
	}
	for _, ft := range terms {
		n := len(ft.Terms)
		if !ft.Stored {
			// First seen: its terms go to dict, once each (field
			// values share terms: Carlsen, Magnus and Carlsen, M.).
			d := w.dict // field, term, tid
			for i, t := range ft.Terms {
				id := ft.Rows[8*i : 8*i+8]
				if w.inDict[le.Uint64(id)] {
					continue
				}
				w.inDict[le.Uint64(id)] = true
				d.data[0] = appendString(d.data[0], ft.Field)
				d.data[1] = appendString(d.data[1], t)
				d.data[2] = append(d.data[2], id...)
				d.rows++
			}
			ft.Stored = true
		}
		b := w.termRows[gs]
		if b.rows+n > w.blockRows {
			// Sent before it overflows: it was made for blockRows
			// rows.
			b = w.swap(nodes[gs], b, "terms")
			w.termRows[gs] = b
		}
		var row sortItem // tid, gid, pos
		tl := b.layout
		tl.put(&row, 1, uint64(gid))
		posAt := tl.off[2]
		for i := range n {
			row.k = le.Uint64(ft.Rows[8*i:])
			copy(row.row[posAt:posAt+4], ft.Rows[8*n+4*i:])
			b.items = append(b.items, row)
		}
		b.rows += n
	}

	if w.inBatch++; w.inBatch >= w.batchGames {
		w.endBatch()
	}
	return index.AddResult{Gid: gid}, w.failed.get()
}

// TermRows is the rows of a field value's terms as the terms table takes
// them: their ids (termID), then their positions, each run copied as it
// is into its column (index.TermRower: CopyGames has them made while it
// prepares the games).
func (w *Writer) TermRows(ft *index.FieldTerms) []byte {
	rows := make([]byte, 0, 12*len(ft.Terms))
	for _, t := range ft.Terms {
		rows = le.AppendUint64(rows, termID(ft.Field, t))
	}
	for _, pos := range ft.Pos {
		rows = le.AppendUint32(rows, pos)
	}
	return rows
}

// endBatch sends the open batch's last rows and queues its commit.
func (w *Writer) endBatch() {
	nodes := w.d.nodes
	for s, n := range nodes {
		w.positions[s] = w.swap(n, w.positions[s], "positions")
		w.termRows[s] = w.swap(n, w.termRows[s], "terms")
		w.games[s] = w.swap(n, w.games[s], "games")
	}
	if w.dict.rows > 0 {
		// Every shard answers term lookups from its own dict.
		for _, n := range nodes[1:] {
			cp := w.block("dict")
			for i := range cp.data {
				cp.data[i] = append(cp.data[i], w.dict.data[i]...)
			}
			cp.rows = w.dict.rows
			w.ship(n, cp, "dict")
		}
		w.dict = w.swap(nodes[0], w.dict, "dict")
	}
	w.batch.next = w.next
	w.commits <- w.batch
	w.batch = &pending{}
	w.inBatch = 0
}

// Close sends and commits the last batch, waits for every insert, and
// lets the next writer in.
func (w *Writer) Close() error {
	if w.inBatch > 0 {
		w.endBatch()
	}
	// Every batch's sends are queued before its commit: once both queues
	// are closed, the senders and the committer finish what is left.
	close(w.commits)
	close(w.sends)
	w.workers.Wait()
	err := w.failed.get()
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

// errReadOnly is returned by NewGameWriter on a database opened to read.
var errReadOnly = errors.New("clickhouse: database is open read-only")
