package index

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"github.com/dgraph-io/badger/v4/pb"
	"github.com/dgraph-io/ristretto/v2/z"
)

// A run's stats values, tail blocks and heads live in a Badger of their
// own, runsDir/<run> (schema 9); the store's Badger keeps the game
// records and the global kinds. In one Badger, every import's level-0
// table spanned the runs written since the last compaction and the global
// keys after them, and a compaction of level 0 rewrote them all with the
// base level's tables they met: the tenth 10,000-game import into a
// million games compacted ten imports' runs (62 MB) for 1.0 s of its 1.7
// s, and runs merged away were deleted by a tombstone a key, which later
// compactions carried over every dead value (issue 18: each growth import
// within 1.5× of an import into an empty store). A run's folder is
// written once, by Badger's StreamWriter (sorted keys straight into
// tables of the lowest empty level: no memtable, no level 0, no
// compaction); a merge written a part at a time adds each part a level
// above the last; deleting a run removes its folder.
//
// The manifest names a run's folder only once it is written and synced;
// a writer removes the folders the manifest does not name (an import or
// merge stopped before its commit, runs merged away).
const runsDir = "runs"

// runDBs are the runs' Badgers a Store has opened.
type runDBs struct {
	mu       sync.Mutex
	dbs      map[uint32]*badger.DB
	writable map[uint32]bool
	// shared are a read-only store's read transactions, one a run, kept
	// until Close: nothing changes what they read, and a transaction's
	// start and end are a message each to the run's Badger's watermark
	// goroutines, for every run a lookup reads (issue 18).
	shared map[uint32]*badger.Txn
}

// runPath is the folder of run's values.
func (s *Store) runPath(run uint32) string {
	return filepath.Join(s.dir, runsDir, strconv.FormatUint(uint64(run), 10))
}

// runDB returns run's Badger, opened on first use and kept open until
// Close; nil when the run has no folder and write is false (or the store
// is read-only): a run that holds no values. A run only read is opened
// read-only, even by a writer: a writable open creates a log and a
// memtable, several milliseconds a run, and a merge or a lookup opens
// every live run (issue 18: 80 ms of a 100-game import's 0.47 s). Opened
// for writing, it is reopened so (creating its folder): only where no
// reader may hold it (openRunsWritable), and the merge under way's run,
// which the readers of xqdb serve read beside an import that writes it,
// is opened writable from the first.
func (s *Store) runDB(run uint32, write bool) (*badger.DB, error) {
	return s.runDBTables(run, write, runTableSize)
}

// runDBTables is runDB, a Badger it opens for writing building tables of
// tableSize bytes.
func (s *Store) runDBTables(run uint32, write bool, tableSize int64) (*badger.DB, error) {
	s.runs.mu.Lock()
	defer s.runs.mu.Unlock()
	if st := s.man.Merging; st != nil && st.Run == run {
		write = true
	}
	// A read-only store opens every run read-only: asked to write, it
	// would close and reopen the merge under way's run at every read (a
	// tree 2 ms more, issue 18).
	write = write && !s.opts.ReadOnly
	if db := s.runs.dbs[run]; db != nil {
		if !write || s.runs.writable[run] {
			return db, nil
		}
		delete(s.runs.dbs, run)
		if err := db.Close(); err != nil {
			return nil, err
		}
	}
	path := s.runPath(run)
	if _, err := os.Stat(filepath.Join(path, "MANIFEST")); err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		if !write {
			return nil, nil
		}
		if err := os.MkdirAll(path, 0o755); err != nil {
			return nil, err
		}
	}
	readOnly := !write
	db, err := openBadger(runBadgerOptions(path, readOnly).WithBaseTableSize(tableSize))
	if err != nil {
		return nil, fmt.Errorf("index: open run %d: %w", run, err)
	}
	if s.runs.dbs == nil {
		s.runs.dbs, s.runs.writable = map[uint32]*badger.DB{}, map[uint32]bool{}
	}
	s.runs.dbs[run], s.runs.writable[run] = db, !readOnly
	return db, nil
}

// openRuns opens the Badgers of the live runs and of the merge under way:
// a reader's, when it opens the store. Opened on first use, each cost the
// lookup that first read it a few milliseconds (the runs a filter rules
// out for most keys, at random lookups), which made the p99 of 1,000
// trees after ten growth imports at a million games 50% more than before
// them (issue 18).
func (s *Store) openRuns() error {
	runs := slices.Clone(s.man.LiveRuns)
	if st := s.man.Merging; st != nil {
		runs = append(runs, st.Run)
	}
	for _, run := range runs {
		if _, err := s.runDB(run, false); err != nil {
			return err
		}
	}
	return nil
}

// openRunsWritable opens the live runs and the merge under way's
// writable, before a view that rewrites some of their values (a deletion,
// the heads rewritten): a view's transaction would not survive the
// reopening.
func (s *Store) openRunsWritable() error {
	if s.opts.ReadOnly {
		return nil
	}
	for _, run := range s.man.LiveRuns {
		if _, err := s.runDB(run, true); err != nil {
			return err
		}
	}
	return nil
}

// runBadgerOptions are the options of a run's Badger folder dir: those
// of the store's for the values (badgerOptions) but compression, small
// buffers (a run is written by StreamWriter; only a deletion of games
// writes through its memtable), and no compactor until a deletion leaves
// level 0 tables.
func runBadgerOptions(dir string, readOnly bool) badger.Options {
	o := badger.DefaultOptions(dir).
		WithLogger(nil).
		WithReadOnly(readOnly).
		// Uncompressed: a run's values hardly shrink (the tail blocks are
		// Rice-coded; zstd made the million-game run 200 MB of 202), and
		// without compression Badger needs no block cache. Each Badger's
		// cache brought its own goroutines and 2,816 separately allocated
		// counters, which every collection marks: after ten growth
		// imports a reader's mark phase took 5.5 ms a cycle against 1.6
		// in one Badger, and trees' p50 / p99 grew 15–24% / 19–28% over
		// the ten; uncompressed and without caches, −8–−7% / −3–+1%, as
		// the blocks are read from the mapped files, not decoded (issue
		// 18: reads after the ten within 20% of before them).
		WithCompression(options.None).
		WithBlockCacheSize(0).
		WithBlockSize(blockSize).
		WithBloomFalsePositive(bloomFalsePositive).
		// Values past 128 KB (the stats values of the most popular
		// positions: the start position's lists a few MB at a million
		// games) go to the value log, read without decompressing.
		WithValueThreshold(runValueThreshold).
		WithValueLogFileSize(64 << 20).
		WithNumVersionsToKeep(1).
		// A StreamWriter's stream allocates a table builder of twice the
		// table size, zeroed, and a merge writes four streams a game at
		// once. Its tables are those of the last level, the base size
		// times the multiplier for each level above it: 2 MB tables made
		// 64 MB ones, and 1 GB of builders for a 10,000-game import (0.3
		// CPU-seconds of garbage collection; issue 18). A small run's
		// writer asks for smaller ones (runTableSizeFor).
		WithBaseTableSize(runTableSize).
		// A writable open allocates its memtable whole, and a run written
		// by StreamWriter never uses it: the smallest whose batches (15% of
		// it) hold a value of ValueThreshold.
		WithMemTableSize(1 << 20).
		WithNumMemtables(2).
		WithNumCompactors(2).
		WithDetectConflicts(false).
		WithCompactL0OnClose(false)
	o.TableSizeMultiplier = 1
	return o
}

const runValueThreshold = 128 << 10

// runTableSize is the size of a run's tables, but for small runs.
const runTableSize = 4 << 20

// runTableSizeFor is the size of the tables of a run of games games: about
// what its largest stream holds (a run takes some 200 bytes a game), so
// that each stream builds one table, in a builder no larger than needed.
// Each builder is fresh memory, slow to touch on this project's machine,
// and a 100-game import's run and a merge of 1,600 games (four streams
// each) zeroed 4 × 8 MB of builders for a few hundred KB of values: 0.15
// of such a merging import's 0.5 CPU-seconds (issue 18: 100 games in ≤
// 0.5 s every time). Fewer than one table a stream would cost more: each
// table's index takes a 3 MB buffer of its own.
func runTableSizeFor(games int) int64 {
	if games >= runTableSize/256 { // a run of unknown size too (math.MaxInt)
		return runTableSize
	}
	return max(256<<10, 256*int64(games))
}

// closeRunDBs closes every run's Badger the store opened.
func (s *Store) closeRunDBs() error {
	s.runs.mu.Lock()
	defer s.runs.mu.Unlock()
	var errs []error
	for run, txn := range s.runs.shared {
		txn.Discard()
		delete(s.runs.shared, run)
	}
	for run, db := range s.runs.dbs {
		errs = append(errs, db.Close())
		delete(s.runs.dbs, run)
		delete(s.runs.writable, run)
	}
	return errors.Join(errs...)
}

// closeRunDB closes run's Badger, if open.
func (s *Store) closeRunDB(run uint32) error {
	s.runs.mu.Lock()
	defer s.runs.mu.Unlock()
	db := s.runs.dbs[run]
	if db == nil {
		return nil
	}
	delete(s.runs.dbs, run)
	delete(s.runs.writable, run)
	return db.Close()
}

// removeRuns deletes the folders of runs.
func (s *Store) removeRuns(runs []uint32) error {
	for _, run := range runs {
		if err := s.closeRunDB(run); err != nil {
			return err
		}
		if err := os.RemoveAll(s.runPath(run)); err != nil {
			return err
		}
	}
	return nil
}

// runFolders returns the runs that have a folder, in order.
func (s *Store) runFolders() ([]uint32, error) {
	entries, err := os.ReadDir(filepath.Join(s.dir, runsDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var runs []uint32
	for _, e := range entries {
		if run, err := strconv.ParseUint(e.Name(), 10, 32); err == nil && e.IsDir() {
			runs = append(runs, uint32(run))
		}
	}
	slices.Sort(runs)
	return runs, nil
}

// sweepRuns removes the folders of runs the manifest does not name as
// live, as the merge under way's or as garbage: written by an import or a
// merge that never committed. Writers call it when no run is being
// written.
func (s *Store) sweepRuns() error {
	runs, err := s.runFolders()
	if err != nil {
		return err
	}
	var dead []uint32
	for _, r := range runs {
		if !s.man.live(r) && !slices.Contains(s.man.Garbage, r) && (s.man.Merging == nil || s.man.Merging.Run != r) {
			dead = append(dead, r)
		}
	}
	return s.removeRuns(dead)
}

// isRunValue reports whether k is a stats value, tail block or head of a
// run: a key of the run's own Badger.
func isRunValue(k []byte) bool {
	if len(k) < 7 || k[0] != prefixRun {
		return false
	}
	kind := k[6]
	return kind == prefixStats || kind == prefixTail || kind == prefixHead
}

// getter reads one key: a *badger.Txn or a *view.
type getter interface {
	Get(key []byte) (*badger.Item, error)
}

// iterating iterates over keys: a *badger.Txn or a *view.
type iterating interface {
	NewIterator(badger.IteratorOptions) *badger.Iterator
}

// isGlobalKey reports whether k is of a global kind: a key of the
// globals Badger (globalsDir).
func isGlobalKey(k []byte) bool {
	if len(k) == 0 {
		return false
	}
	switch k[0] {
	case prefixAttrs, prefixHash, prefixPopular, prefixManifest, prefixVersion, prefixPostings:
		return true
	}
	return false
}

// view reads the store: its Badgers and the runs', in one read
// transaction each, the runs' opened on first use. Keys of the run
// space's values go to their run's Badger, the global kinds to the
// globals Badger, the records to the store's.
type view struct {
	s    *Store
	main *badger.Txn
	glob *badger.Txn
	runs []runTxn
	err  error // a run's Badger NewIterator could not open
}

type runTxn struct {
	run    uint32
	txn    *badger.Txn // nil: the run has no folder
	shared bool        // the store's (sharedTxn), not the view's
}

// viewRuns runs fn in a view of the store and its runs.
func (s *Store) viewRuns(fn func(v *view) error) error {
	v := &view{s: s, main: s.db.NewTransaction(false), glob: s.gdb.NewTransaction(false)}
	defer v.discard()
	if err := fn(v); err != nil {
		return err
	}
	return v.err
}

func (v *view) discard() {
	v.main.Discard()
	v.glob.Discard()
	for _, r := range v.runs {
		if r.txn != nil && !r.shared {
			r.txn.Discard()
		}
	}
}

// txnOf returns the transaction that holds key.
func (v *view) txnOf(key []byte) (*badger.Txn, error) {
	switch {
	case isRunValue(key):
		return v.runTxn(runOf(key))
	case isGlobalKey(key):
		return v.glob, nil
	}
	return v.main, nil
}

// runTxn returns run's transaction, nil when the run has no folder.
func (v *view) runTxn(run uint32) (*badger.Txn, error) {
	for _, r := range v.runs {
		if r.run == run {
			return r.txn, nil
		}
	}
	db, err := v.s.runDB(run, false)
	if err != nil {
		return nil, err
	}
	var txn *badger.Txn
	shared := v.s.opts.ReadOnly
	switch {
	case db == nil:
	case shared:
		txn = v.s.sharedTxn(run, db)
	default:
		txn = db.NewTransaction(false)
	}
	v.runs = append(v.runs, runTxn{run, txn, shared})
	return txn, nil
}

// sharedTxn returns the read-only store's transaction on run's Badger db.
func (s *Store) sharedTxn(run uint32, db *badger.DB) *badger.Txn {
	s.runs.mu.Lock()
	defer s.runs.mu.Unlock()
	txn := s.runs.shared[run]
	if txn == nil {
		if s.runs.shared == nil {
			s.runs.shared = map[uint32]*badger.Txn{}
		}
		txn = db.NewTransaction(false)
		s.runs.shared[run] = txn
	}
	return txn
}

// Get reads key's item.
func (v *view) Get(key []byte) (*badger.Item, error) {
	txn, err := v.txnOf(key)
	if err != nil {
		return nil, err
	}
	if txn == nil {
		return nil, badger.ErrKeyNotFound
	}
	return txn.Get(key)
}

// NewIterator iterates over o.Prefix, which must lie in one Badger: in
// one run's values, in one global kind, or among the records. A run
// without a folder iterates over nothing (the store's Badger holds no
// run values), and so does one whose Badger cannot be opened, an error
// viewRuns then returns.
func (v *view) NewIterator(o badger.IteratorOptions) *badger.Iterator {
	switch {
	case isRunValue(o.Prefix):
		txn, err := v.runTxn(runOf(o.Prefix))
		if err != nil && v.err == nil {
			// Iterating over nothing, fn would go on as if the run were
			// empty (a merge would drop its values): viewRuns returns it.
			v.err = err
		}
		if txn != nil {
			return txn.NewIterator(o)
		}
	case isGlobalKey(o.Prefix):
		return v.glob.NewIterator(o)
	}
	return v.main.NewIterator(o)
}

// eachRunKey calls fn with the iterator at every key of one kind
// (prefixStats, prefixTail, prefixHead) of the live runs and the merge
// under way's, run by run; values are not prefetched. (Not of the
// garbage runs: a writer of the same Store may be removing them.)
func (v *view) eachRunKey(kind byte, fn func(it *badger.Iterator) error) error {
	runs := slices.Clone(v.s.man.LiveRuns)
	if st := v.s.man.Merging; st != nil {
		runs = append(runs, st.Run)
	}
	slices.Sort(runs)
	for _, run := range runs {
		txn, err := v.runTxn(run)
		if err != nil {
			return err
		}
		if txn == nil {
			continue // a run without values
		}
		err = func() error {
			it := txn.NewIterator(badger.IteratorOptions{Prefix: kindPrefix(kind, run)})
			defer it.Close()
			for it.Rewind(); it.Valid(); it.Next() {
				if len(it.Item().Key()) < 8 {
					continue // no such key is written
				}
				if err := fn(it); err != nil {
					return err
				}
			}
			return nil
		}()
		if err != nil {
			return err
		}
	}
	return nil
}

// batch writes keys to the store: the run space's values to their run's
// Badger, the global kinds to the globals Badger, the records to the
// store's. A run marked by stream is
// written by Badger's StreamWriter: its keys must come in order within
// each stream (runStream), and it takes no deletions. Safe for concurrent
// use.
type batch struct {
	s    *Store
	main *badger.WriteBatch
	glob *badger.WriteBatch
	mu   sync.Mutex
	runs map[uint32]*runSink
}

// runSink is where a batch writes one run's values.
type runSink struct {
	db       *badger.DB
	wb       *badger.WriteBatch
	sw       *badger.StreamWriter
	streams  map[uint32]*z.Buffer // the entries not yet handed to sw
	last     map[uint32][]byte    // each stream's last key
	tailBits int
}

func (s *Store) newBatch() *batch {
	return &batch{s: s, main: s.db.NewWriteBatch(), glob: s.gdb.NewWriteBatch(), runs: map[uint32]*runSink{}}
}

// stream makes the batch write run's values by StreamWriter: into the
// lowest empty level of the run's Badger (PrepareIncremental), which must
// have no value in its memtable. tailBits are the run's bucket bits
// (runStream); a Badger it opens builds tables of tableSize bytes
// (runTableSizeFor).
func (b *batch) stream(run uint32, tailBits int, tableSize int64) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	db, err := b.s.runDBTables(run, true, tableSize)
	if err != nil {
		return err
	}
	sw := db.NewStreamWriter()
	if err := sw.PrepareIncremental(); err != nil {
		// Its memtable holds values (a deletion's, replayed from its log
		// after a crash): closed, Badger writes them to level 0, which
		// PrepareIncremental then compacts.
		sw.Cancel()
		if err := b.s.closeRunDB(run); err != nil {
			return err
		}
		if db, err = b.s.runDBTables(run, true, tableSize); err != nil {
			return err
		}
		sw = db.NewStreamWriter()
		if err := sw.PrepareIncremental(); err != nil {
			sw.Cancel()
			return fmt.Errorf("index: write run %d: %w", run, err)
		}
	}
	b.runs[run] = &runSink{db: db, sw: sw, streams: map[uint32]*z.Buffer{}, last: map[uint32][]byte{}, tailBits: tailBits}
	return nil
}

// sink returns run's sink (under b.mu).
func (b *batch) sink(run uint32) (*runSink, error) {
	if rs := b.runs[run]; rs != nil {
		return rs, nil
	}
	db, err := b.s.runDB(run, true)
	if err != nil {
		return nil, err
	}
	rs := &runSink{db: db, wb: db.NewWriteBatch()}
	b.runs[run] = rs
	return rs, nil
}

// runStream is the stream of a run value's key in a StreamWriter, whose
// keys must come in order: one for each kind and game (a writer goes
// through the buckets writing stats values, heads and tail blocks side by
// side), and for the tail blocks one for each half of the key space (the
// bucket's top bit of tailBits), which a merge writes side by side. Each
// stream builds a table in a buffer of twice the table size, zeroed.
func runStream(k []byte, tailBits int) uint32 {
	var half uint32
	if k[6] == prefixTail && len(k) == 10 {
		half = uint32(binary.BigEndian.Uint16(k[8:]) >> (tailBits - 1) & 1)
	}
	return 1<<24 | uint32(k[6])<<16 | uint32(k[7])<<8 | half
}

// streamFlushBytes is how much a stream buffers before StreamWriter
// takes it.
const streamFlushBytes = 1 << 20

// Set writes v at k. The batch may keep k and v until Flush.
func (b *batch) Set(k, v []byte) error {
	switch {
	case isGlobalKey(k):
		return b.glob.Set(k, v)
	case !isRunValue(k):
		return b.main.Set(k, v)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	rs, err := b.sink(runOf(k))
	if err != nil {
		return err
	}
	if rs.sw == nil {
		return rs.wb.Set(k, v)
	}
	id := runStream(k, rs.tailBits)
	// Badger's stream writer panics, in a goroutine of its own, at a key
	// out of order.
	if last, ok := rs.last[id]; ok && bytes.Compare(k, last) <= 0 {
		return fmt.Errorf("index: run %d: key %x written after %x", runOf(k), k, last)
	}
	rs.last[id] = append(rs.last[id][:0], k...)
	buf := rs.streams[id]
	if buf == nil {
		buf = z.NewBuffer(64<<10, "xqdb.run")
		rs.streams[id] = buf
	}
	badger.KVToBuffer(&pb.KV{Key: k, Value: v, Version: 1, StreamId: id}, buf)
	if buf.LenNoPadding() < streamFlushBytes {
		return nil
	}
	err = rs.sw.Write(buf)
	buf.Reset()
	return err
}

// Delete deletes k.
func (b *batch) Delete(k []byte) error {
	switch {
	case isGlobalKey(k):
		return b.glob.Delete(k)
	case !isRunValue(k):
		return b.main.Delete(k)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	rs, err := b.sink(runOf(k))
	if err != nil {
		return err
	}
	if rs.sw != nil {
		return fmt.Errorf("index: delete in run %d, which is being streamed", runOf(k))
	}
	return rs.wb.Delete(k)
}

// Flush writes everything and syncs the runs' Badgers, then the records
// and the global kinds (whose commit, the manifest, syncs their Badgers:
// updateManifest).
func (b *batch) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for run, rs := range b.runs {
		if err := rs.flush(); err != nil {
			return fmt.Errorf("index: write run %d: %w", run, err)
		}
	}
	if err := b.main.Flush(); err != nil {
		return err
	}
	return b.glob.Flush()
}

func (rs *runSink) flush() error {
	if rs.sw != nil {
		for id, buf := range rs.streams {
			if err := rs.sw.Write(buf); err != nil {
				return err
			}
			buf.Release()
			delete(rs.streams, id)
		}
		err := rs.sw.Flush()
		rs.sw = nil
		return err
	}
	if err := rs.wb.Flush(); err != nil {
		return err
	}
	return rs.db.Sync()
}

// Cancel drops what was not flushed.
func (b *batch) Cancel() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.main.Cancel()
	b.glob.Cancel()
	for _, rs := range b.runs {
		if rs.sw != nil {
			rs.sw.Cancel()
			rs.sw = nil
		}
		for _, buf := range rs.streams {
			buf.Release()
		}
		rs.streams = nil
		if rs.wb != nil {
			rs.wb.Cancel()
		}
	}
}
