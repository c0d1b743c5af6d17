package index

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2"
	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
)

// ErrSchemaMismatch is returned when a store was written by another
// on-disk format version.
var ErrSchemaMismatch = errors.New("index: store has another schema version")

// ErrNoStore is returned when opening for reading a folder that holds no
// store.
var ErrNoStore = errors.New("index: no database here")

// Options configure Open.
type Options struct {
	// ReadOnly opens without write access (several readers may share a
	// store; no writer may run at the same time).
	ReadOnly bool
	// Opening, when set, fills a record's Opening and OpeningName from its
	// moves and position keys (query/opening, which the index may not
	// import), for metadata documents rebuilt from stored records: those
	// fields are not stored (record.go).
	Opening func(r *Record, keys []uint64)
	// Existing opens only a store that exists (ErrNoStore otherwise): a
	// writable open for maintenance, which must not create one.
	Existing bool
	// RunGames is how many games an import buffers before writing a run
	// (default 50,000).
	RunGames int
	// DeferCompaction opens for a small write (an import of up to about
	// 2,000 games): Badger's compactions wait for a larger writer (level
	// 0's, for level 0 to hold deferredLevelZeroTables tables:
	// openStoreBadger), and so do Bleve's merges of larger segments
	// (smallTiered) and merges of more than smallMergeGames games
	// (mergeDeferred).
	DeferCompaction bool
	// PromoteAt is how many games must reach a position before it gets a
	// stats entry instead of tail postings (default 16).
	PromoteAt int
	// MaxRuns is how many large runs may be live before the end of an
	// import merges the newest (default 8), with as many small ones beside
	// them (mergeFrom). Up to that, a lookup reads one value per run, which
	// measured no slower at the latency targets' scale (bench/query.sh: p50
	// 0.55 ms with 4 runs, 0.48 ms with 1), while merging rewrote the whole
	// position index after every large import.
	MaxRuns int
}

func (o Options) withDefaults() Options {
	if o.RunGames <= 0 {
		o.RunGames = 50_000
	}
	if o.PromoteAt <= 0 {
		o.PromoteAt = 16
	}
	if o.MaxRuns <= 0 {
		o.MaxRuns = 8
	}
	return o
}

// manifest is the store's commit record: everything up to NextGid and in
// LiveRuns is committed; a Pending run was being written when the process
// stopped and is cleaned away at the next write (a merge under way,
// Merging, goes on instead).
type manifest struct {
	NextGid  uint32   `json:"next_gid"`
	NextRun  uint32   `json:"next_run"`
	LiveRuns []uint32 `json:"live_runs"`
	Pending  uint32   `json:"pending,omitempty"`
	// Garbage names runs that are no longer live but whose folders may
	// still be there (merged away, or dropped by a reindex): a merge's
	// commit names its sources, then removes their folders (merge.go,
	// dropGarbageRuns); after a crash between the two, the next writer
	// does.
	Garbage []uint32 `json:"garbage,omitempty"`
	// MetaUpTo: games below it have their Bleve document.
	MetaUpTo uint32 `json:"meta_up_to"`
	// Deleted counts the deleted games below NextGid; Deleting names the
	// games a deletion was removing when the process stopped (delete.go).
	Deleted  uint32   `json:"deleted,omitempty"`
	Deleting []uint32 `json:"deleting,omitempty"`
	// RunGames counts the games of each live run when written (deletions
	// do not lower it), for the merge policy (merge.go); a run without a
	// count is taken as large.
	RunGames map[uint32]uint32 `json:"run_games,omitempty"`
	// RunFrom: the first gid of each live run's games, where known (a
	// merge's when all its sources had one). A lookup skips the tail of a
	// run whose games all came after a popular position's first stats
	// game (reader.go, tailGames). An xqdb that does not know the field
	// drops it, and readers then read every run's tail block.
	RunFrom map[uint32]uint32 `json:"run_from,omitempty"`
	// TailBits: the bucket bits of each live run written with fewer than
	// tailBucketBits (tail.go, tailBitsFor); a run without is a full one.
	TailBits map[uint32]uint8 `json:"tail_bits,omitempty"`
	// Filters: the live runs with a position filter (filter.go). An xqdb
	// that does not know the field drops it, and readers then read every
	// run's tail block, as they would without filters.
	Filters map[uint32]runFilter `json:"filters,omitempty"`
	// HashedUpTo: games below it have their h| entry (hashes.go).
	HashedUpTo uint32 `json:"hashed_up_to,omitempty"`
	// PopularKeys: every key with a stats value has its p| entry
	// (popular.go).
	PopularKeys bool `json:"popular_keys,omitempty"`
	// Heads: no live run has a head (head.go) that disagrees with its
	// stats value, and every live stats value of headMinGames games or
	// more has one. An xqdb that does not know the field drops it when it
	// writes the manifest, and may have rewritten stats values without
	// their heads: readers then ignore the heads until a writer rewrites
	// them (indexHeads).
	Heads bool `json:"heads,omitempty"`
	// Epochs: which run added which games, in gid order; runs write
	// disjoint, increasing gid ranges. One entry an import run.
	Epochs []epoch `json:"epochs,omitempty"`
	// Merging: a merge under way, written a part at a time by the imports
	// that follow the one that began it (merge.go, mergeStep). Its
	// sources stay live until its last part commits; readers read its run
	// for the stats values it has merged (statsRuns). An xqdb that does
	// not know the field drops it when it writes the manifest: the
	// part-written run is then named nowhere (space, never an answer).
	Merging *mergeState `json:"merging,omitempty"`
}

// epoch says which run added the games from From on (up to the next
// epoch's From): their records are keyed under it (keys.go).
type epoch struct {
	From uint32 `json:"from"`
	Run  uint32 `json:"run"`
}

// recordRun returns the run whose key range holds game gid's record: run
// 0 for the games before the first epoch (those of a store migrated from
// schema version 6 or older).
func (m *manifest) recordRun(gid uint32) uint32 {
	i := sort.Search(len(m.Epochs), func(i int) bool { return m.Epochs[i].From > gid })
	if i == 0 {
		return 0
	}
	return m.Epochs[i-1].Run
}

// gameKey is the key of game gid's record.
func (s *Store) gameKey(gid uint32) []byte { return recordKey(s.man.recordRun(gid), gid) }

func (m *manifest) live(run uint32) bool { return slices.Contains(m.LiveRuns, run) }

// addRun makes run live, with its games, from gid from on, written with
// tailBitsFor(games) bucket bits.
func (m *manifest) addRun(run uint32, from uint32, games int) {
	m.LiveRuns = append(m.LiveRuns, run)
	if m.RunGames == nil {
		m.RunGames = map[uint32]uint32{}
	}
	m.RunGames[run] = uint32(games)
	m.setRunFrom(run, from)
	m.setTailBits(run, tailBitsFor(games))
}

// setRunFrom records the first gid of run's games.
func (m *manifest) setRunFrom(run, from uint32) {
	if m.RunFrom == nil {
		m.RunFrom = map[uint32]uint32{}
	}
	m.RunFrom[run] = from
}

// mergedFrom returns the first gid of a merge of runs: the least of
// theirs, unless one is not known.
func (m *manifest) mergedFrom(runs []uint32) (uint32, bool) {
	from := uint32(math.MaxUint32)
	for _, r := range runs {
		f, ok := m.RunFrom[r]
		if !ok {
			return 0, false
		}
		from = min(from, f)
	}
	return from, len(runs) > 0
}

// setTailBits records the bucket bits run was written with.
func (m *manifest) setTailBits(run uint32, b int) {
	if b == tailBucketBits {
		return
	}
	if m.TailBits == nil {
		m.TailBits = map[uint32]uint8{}
	}
	m.TailBits[run] = uint8(b)
}

// tailBits returns the bucket bits of run's tail blocks.
func (m *manifest) tailBits(run uint32) int {
	if b, ok := m.TailBits[run]; ok {
		return int(b)
	}
	return tailBucketBits
}

// setFilter records run's filter, if it has one.
func (m *manifest) setFilter(run uint32, f *runFilter) {
	if f == nil {
		return
	}
	if m.Filters == nil {
		m.Filters = map[uint32]runFilter{}
	}
	m.Filters[run] = *f
}

// forgetRun drops what the manifest knows of a run no longer stored.
func (m *manifest) forgetRun(run uint32) {
	delete(m.RunGames, run)
	delete(m.RunFrom, run)
	delete(m.TailBits, run)
	delete(m.Filters, run)
}

// Store is an open database folder: Badger in badger/ (records), globals/
// and runs/RUN (runstore.go), Bleve in meta.bleve/.
type Store struct {
	dir  string
	opts Options
	db   *badger.DB  // the game records (keys.go)
	gdb  *badger.DB  // the global kinds: the manifest, attributes, hashes (globalsDir)
	meta bleve.Index // nil when read-only and the metadata index is missing
	man  manifest
	// manMu guards the manifest writes of the import goroutine and the
	// background metadata indexer.
	manMu sync.Mutex
	// metaIndexed: the metadata indexer has indexed every game below it,
	// committed or not yet (under manMu).
	metaIndexed uint32
	// view lets readers share the store with a writer in the same process
	// (xqdb serve, issue 17): a reader holds it for reading over a whole
	// query (Read), and every change to what readers see in memory (the
	// manifest, the attributes) holds it for writing. A commit therefore
	// waits for the queries under way, which all ran on the previous
	// committed state, and a query never sees half a commit; values of an
	// uncommitted run are in Badger already but belong to no live run and
	// to no gid below NextGid, so readers skip them.
	view sync.RWMutex

	attrs []Attrs // every game's, loaded on first use by writers and Read (attrs.go)
	// attrsAll: attrs holds every game's (loadAttrs).
	attrsAll atomic.Bool
	// someAttrs holds the attribute chunks a read-only store's lookups
	// asked for, by chunk, before or without a whole load (chunkAttrs).
	attrsMu   sync.Mutex
	someAttrs map[uint32][]Attrs

	// hashReads counts the h| values read for duplicate checks (by the
	// writer's goroutine only): tests check when a writer skips them.
	hashReads int

	fieldsOnce sync.Once
	fields     fieldSet // the metadata index's fields, for queries

	filters filterCache // the position filters mapped (filter.go)

	runs runDBs // the runs' Badgers opened (runstore.go)

	// reopened: Badger was opened twice, to compact level 0 at Close
	// (openStoreBadger).
	reopened bool
}

// Open opens the database in dir, creating it unless opts.ReadOnly.
func Open(dir string, opts Options) (*Store, error) {
	opts = opts.withDefaults()
	if err := recoverRewrite(dir); err != nil {
		return nil, err
	}
	bdir := filepath.Join(dir, "badger")
	if opts.ReadOnly || opts.Existing {
		// Badger writes its MANIFEST first: a badger/ folder without one
		// is an import stopped before it wrote anything.
		if _, err := os.Stat(filepath.Join(bdir, "MANIFEST")); err != nil {
			return nil, fmt.Errorf("%w: %s", ErrNoStore, dir)
		}
	}
	if !opts.ReadOnly {
		if err := checkStoreDir(dir); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(bdir, 0o755); err != nil {
			return nil, err
		}
	}
	db, reopened, err := openStoreBadger(bdir, opts)
	if err != nil {
		return nil, fmt.Errorf("index: open %s: %w", bdir, err)
	}
	s := &Store{dir: dir, opts: opts, db: db, reopened: reopened}
	if err := s.openGlobals(); err != nil {
		db.Close()
		return nil, err
	}
	closeAll := func() {
		s.gdb.Close()
		db.Close()
	}
	if err := s.checkSchema(); err != nil {
		closeAll()
		return nil, err
	}
	if err := s.loadManifest(); err != nil {
		closeAll()
		return nil, err
	}
	if err := s.openMetaIndex(); err != nil {
		closeAll()
		return nil, err
	}
	// Garbage runs alone wait for the next import (merge.go,
	// dropGarbageRuns): readers skip them like any run that is not live.
	if !opts.ReadOnly && s.man.Pending != 0 {
		if err := s.cleanPending(); err != nil {
			s.Close()
			return nil, err
		}
	}
	if !opts.ReadOnly && len(s.man.Deleting) > 0 {
		if err := s.finishDelete(nil, true); err != nil {
			s.Close()
			return nil, fmt.Errorf("index: finish the interrupted deletion: %w", err)
		}
	}
	if opts.ReadOnly {
		if err := s.openRuns(); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// globalsDir is the folder of the globals Badger (schema 9): the
// manifest, the version, the attributes, the move hashes and the popular
// keys, which every import writes a little of. In the store's Badger
// their keys made every import's table reach over every other's, so that
// Badger compacted level 0 whole into the tables they met (issue 18).
const globalsDir = "globals"

// openGlobals opens the globals Badger, creating it for a writable open
// of a new store. A store written before version 9 has none, and keeps
// its version in the store's Badger: checkSchema then names migrate.
func (s *Store) openGlobals() error {
	gdir := filepath.Join(s.dir, globalsDir)
	if _, err := os.Stat(filepath.Join(gdir, "MANIFEST")); err != nil {
		ver, found, err := readVersion(s.db)
		switch {
		case err != nil:
			return err
		case found:
			return schemaError(s.dir, ver)
		case s.opts.ReadOnly:
			// A first import stopped before it created the globals (kill
			// -9): the store holds nothing committed, and reads as empty.
			gdb, err := badger.Open(badger.DefaultOptions("").WithInMemory(true).WithLogger(nil))
			if err != nil {
				return err
			}
			s.gdb = gdb
			return nil
		}
		if err := os.MkdirAll(gdir, 0o755); err != nil {
			return err
		}
	}
	bo := globalsOptions(gdir, s.opts.ReadOnly)
	var gdb *badger.DB
	var err error
	if s.opts.DeferCompaction && !s.opts.ReadOnly {
		bo = bo.WithNumCompactors(0)
		gdb, _, err = openDeferred(gdir, bo, bo.WithCompactL0OnClose(true), globalsDeferredTables)
	} else {
		gdb, err = openBadger(bo)
	}
	if err != nil {
		return fmt.Errorf("index: open %s: %w", gdir, err)
	}
	s.gdb = gdb
	return nil
}

// globalsDeferredTables bounds the level-0 tables small writes leave in the
// globals Badger (one each), as deferredLevelZeroTables does in the
// store's: the small write that finds that many compacts level 0 at its
// Close, and none runs a compactor. Every level-0 table there reaches over
// the whole key range (random move hashes, metadata values), so a
// compaction of level 0 rewrites the whole base level; when a small
// write's compactors began one, at a random moment, its Close waited for
// it (issue 18: imports of 100 games of 0.30–0.55 s at random places in
// the stream, where the others took 0.1).
const globalsDeferredTables = 24

// globalsOptions are the options of the globals Badger: the store's,
// with a small base level in small tables, as a compaction of level 0
// rewrites the whole base level (globalsDeferredTables). Badger's default
// base level, 10 MB, held 6.6 MB at a million games, 350,000 keys, and
// the small write that compacted level 0 took 0.29-0.31 s where the others
// took 0.09; with 2 MB in tables of 1 MB 0.18-0.25 s, and the ten growth
// imports before them the same (issue 18). Larger writes' compactors take
// level 0 at five tables.
func globalsOptions(dir string, readOnly bool) badger.Options {
	return badgerOptions(dir, readOnly).
		WithBaseTableSize(1 << 20).
		WithBaseLevelSize(2 << 20).
		WithNumLevelZeroTables(5).
		// Above the bound of small writes, which run no compactor, so
		// that the write after them does not wait for its compactors.
		WithNumLevelZeroTablesStall(globalsDeferredTables + 20).
		WithNumCompactors(2)
}

// readVersion reads the schema version in db, if any.
func readVersion(db *badger.DB) (ver uint64, found bool, err error) {
	err = db.View(func(txn *badger.Txn) error {
		return readValue(txn, versionKey, func(v []byte) error {
			found = true
			ver, _ = binary.Uvarint(v)
			return nil
		})
	})
	return ver, found, err
}

// schemaError is the error for a store of version ver, another than
// this xqdb's.
func schemaError(dir string, ver uint64) error {
	if ver >= 5 && ver < SchemaVersion {
		return fmt.Errorf("%w: %s has version %d, this xqdb reads %d: run xqdb migrate --db %s (or export the games and import them into a new folder)", ErrSchemaMismatch, dir, ver, SchemaVersion, dir)
	}
	return fmt.Errorf("%w: %s has version %d, this xqdb reads %d (import the games again into a new folder)", ErrSchemaMismatch, dir, ver, SchemaVersion)
}

// openStoreBadger opens the store's Badger folder dir. A small write
// (Options.DeferCompaction) runs no compactor: every writer leaves a
// level-0 table at Close, and a compaction that starts while it runs —
// level 0 reaching NumLevelZeroTables, or a level below over its target
// — rewrites the tables it overlaps (the last ones of the base level,
// where an import's keys and the global kinds meet: 8 to 40 MB at a
// million games), and Close waits for it: 100 games added in 0.5 to 1.5 s
// instead of 0.25 (issue 18, "every time"). The next import of more
// games compacts them, or the small write that finds
// deferredLevelZeroTables tables in level 0: it compacts level 0 at its
// Close (a short session can end before Badger's compactors, which look
// every 50 ms, begin), and level 0 only: with compactors it waited, when
// they began (after a random delay of up to a second), for the levels
// below to spill too (issue 18: of 200 imports of 100, the 173rd took 4.26
// and 6.28 s in two runs, at most 1.40 s without them). Below that bound
// a point read skips those tables by their key ranges or bloom filters.
//
// The writer before it leaves levelZeroMarker when it leaves level 0 at the
// bound, so that the small write opens Badger once (markLevelZero). Without
// the marker (a store an older xqdb wrote, a crash) it counts level 0's
// tables, and at the bound closes and opens again (reopened): 35-45 ms, and
// the memtable arena of the first opening, freed, is memory the
// compaction's table buffers are then given and must clear, faulting in
// each page (issue 18: the bound's session, 24 level-0 tables at a million
// games, 0.50-0.55 s opening twice, 0.44-0.48 s once).
//
// The tables a small write's compaction of level 0 writes are
// levelZeroCompactionTableSize.
func openStoreBadger(dir string, opts Options) (db *badger.DB, reopened bool, err error) {
	bo := badgerOptions(dir, opts.ReadOnly)
	if opts.ReadOnly {
		db, err = openBadger(bo)
		return db, false, err
	}
	if !opts.DeferCompaction {
		return openLargerWrite(dir, bo)
	}
	bo = bo.WithNumCompactors(0)
	return openDeferred(dir, bo, bo.WithCompactL0OnClose(true).WithBaseTableSize(levelZeroCompactionTableSize), deferredLevelZeroTables)
}

// openDeferred opens the Badger folder dir for a small write: with compact
// when dir holds levelZeroMarker, else with bo, unless level 0 holds bound
// tables (openCompactingAt).
func openDeferred(dir string, bo, compact badger.Options, bound int) (db *badger.DB, reopened bool, err error) {
	if _, err := os.Stat(filepath.Join(dir, levelZeroMarker)); err == nil {
		db, err = openBadger(compact)
		return db, false, err
	}
	return openCompactingAt(bo, bound, compact)
}

// openCompactingAt opens Badger with bo, unless level 0 holds bound tables
// or more: then it closes it and opens it again with compact (reopened).
func openCompactingAt(bo badger.Options, bound int, compact badger.Options) (db *badger.DB, reopened bool, err error) {
	db, err = openBadger(bo)
	if err != nil || db.Levels()[0].NumTables < bound {
		return db, false, err
	}
	if err := db.Close(); err != nil {
		return nil, false, err
	}
	db, err = openBadger(compact)
	return db, true, err
}

// openLargerWrite opens Badger for a write that is not small. Its
// compactors compact level 0 once it holds NumLevelZeroTables tables, but
// each begins after a random delay of up to a second, so an import shorter
// than that (10,000 games take 0.6 s on a fast machine) may end before
// they begin, and leave level 0 over its bound to the small writes after
// it: the one at deferredLevelZeroTables then compacted ten growth
// imports' tables, 58 MB, for 100 games (issue 18: 0.88 s, the only one of
// 72 over 0.5 s). A larger write that finds level 0 at the bound therefore
// compacts it at Close, whether its compactors began or not: it opens
// Badger a second time with CompactL0OnClose (35-45 ms, one import in
// NumLevelZeroTables). Not one import earlier (counting the table its
// memtable will leave): the compaction fills the base level past its
// target, and the next larger write's compactors push it down a level.
//
// The writer before it leaves largerWriteMarker when it leaves level 0 at
// that bound, so that the larger write opens Badger once, as a small write
// does with levelZeroMarker (the tenth growth import at a million games
// opened it twice, a memtable arena and a log more).
func openLargerWrite(dir string, bo badger.Options) (db *badger.DB, reopened bool, err error) {
	// Reopened, its compactors leave level 0 to Close, unless the write is
	// a large one that takes it to the small writes' bound: when they began
	// compacting it during the import, Close then compacted the import's
	// own table into what they had written (issue 18: the tenth growth
	// import at a million games 2.25-2.61 s, against 1.50-1.78 s when
	// Close alone compacts, three runs each on copies of one store).
	compact := bo.WithCompactL0OnClose(true).WithNumLevelZeroTables(deferredLevelZeroTables)
	// Below the bound, its compactors take level 0 one table past it: the
	// table the import's own memtable leaves at Close reaches the bound
	// while they may still run, and a write that lasted past their delay
	// then compacted level 0 inside its Close (issue 18: the ninth growth
	// import at a million games, on one core, compacted it in one run of
	// four, 2.94 s against 1.31–1.72; in bench/scale.sh on a slow machine
	// 2.34 s), not the next larger write. An import that leaves several
	// tables still has them compacted as it goes.
	if _, err := os.Stat(filepath.Join(dir, largerWriteMarker)); err == nil {
		db, err = openBadger(compact)
		return db, false, err
	}
	return openCompactingAt(bo.WithNumLevelZeroTables(bo.NumLevelZeroTables+1), bo.NumLevelZeroTables, compact)
}

// levelZeroMarker is the file in the Badger folder that says level 0 holds
// deferredLevelZeroTables tables: the next small write compacts it;
// largerWriteMarker says it holds NumLevelZeroTables: the next larger
// write compacts it.
const (
	levelZeroMarker   = "compact-level-0"
	largerWriteMarker = "compact-level-0-larger"
)

// markLevelZero leaves levelZeroMarker and largerWriteMarker, or removes
// them, for what level 0 will hold after Close: the tables it holds now
// and the memtable's, less what a compaction at Close takes: in the
// store's Badger the oldest table alone (each import's records are a
// table of their own, after all the others), in the globals' all of them
// (each reaches over the whole key range). The markers are hints
// (openDeferred counts the tables without them), so an error leaves them
// as they were.
func (s *Store) markLevelZero() {
	after := s.db.Levels()[0].NumTables + 1
	if s.db.Opts().CompactL0OnClose {
		after--
	}
	markBounds(filepath.Join(s.dir, badgerDir), after, mark{levelZeroMarker, deferredLevelZeroTables}, mark{largerWriteMarker, levelZeroTables})
	after = s.gdb.Levels()[0].NumTables + 1
	if s.gdb.Opts().CompactL0OnClose {
		after = 0
	}
	markBounds(filepath.Join(s.dir, globalsDir), after, mark{levelZeroMarker, globalsDeferredTables})
}

// A mark is a marker file and the level-0 tables it stands for.
type mark struct {
	name  string
	bound int
}

// markBounds leaves in dir each marker whose bound the tables after reach,
// and removes the others.
func markBounds(dir string, after int, marks ...mark) {
	for _, m := range marks {
		path := filepath.Join(dir, m.name)
		if after < m.bound {
			_ = os.Remove(path)
		} else if _, err := os.Stat(path); err != nil {
			_ = os.WriteFile(path, nil, 0o644)
		}
	}
}

// badgerOptions are the options of the store's Badger folder dir.
func badgerOptions(dir string, readOnly bool) badger.Options {
	o := badger.DefaultOptions(dir).
		WithLogger(nil).
		WithReadOnly(readOnly).
		WithCompression(options.ZSTD).
		// zstd's fastest level: it compresses every table Badger writes,
		// memtable flushes and compactions, and at level 3 it was the
		// largest single cost of the growth import that compacts level 0
		// (0.44 of 2.67 CPU-seconds in its match finder alone; the tail
		// blocks, Rice-coded, do not shrink at any level). Level 1: that
		// import 1.72 → 1.50 s (medians of seven, copies of one store),
		// ../shared/data's store 95.2 → 97.1 MB (issue 18).
		WithZSTDCompressionLevel(1).
		// A lookup reads one small value from each block it touches (a
		// candidate game's record, a run's tail block), and Badger
		// decompresses the whole block: 16 KB blocks instead of 64 KB
		// took a million-game store's tree p50 from 1.90 to 1.20 ms, for
		// 1% more bytes on random games and 4% on ../shared/data's (4 KB
		// blocks: 1.01 ms, but 15% more bytes there; issue 18).
		WithBlockSize(blockSize).
		// A point read checks the bloom filter of every table whose key
		// range holds the key (each level-0 table and one table a level
		// below: five at a million games after ten growth imports), and a
		// false positive decodes a block for nothing. Badger sizes its
		// filters at about ln 2 times the bits the rate asks for: its
		// default rate, 1%, gives 7 bits a key and 5.2% of the checks of
		// absent keys said "maybe" (TestBloomFiltersSparePointReads), so a
		// quarter of the reads that found nothing decoded a block, and
		// every table a tree's reads passed added to its time (issue 18:
		// trees after ten growth imports). 0.01% gives 14 bits a key and
		// 0.17% (a few MB of filters more at a million games).
		WithBloomFalsePositive(bloomFalsePositive).
		WithValueThreshold(1 << 20). // keep values in the LSM, compressed
		WithValueLogFileSize(64 << 20).
		WithNumVersionsToKeep(1).
		// Four times Badger's default table size: a million-game store
		// had 198 tables, and every writer's Close syncs each table's
		// memory map (an msync, a device flush on this machine: 0.5 s of
		// the wall time of 100 games added) and its Open reads each
		// table's index. Compactions then move coarser pieces.
		WithBaseTableSize(8 << 20).
		// Memtables of memTableSize, two of them (Badger's default is
		// five of 64 MB) bound the memtable arenas an import holds, and two
		// compactors (four by default, on a 2-core machine) the tables
		// built at once, each in a buffer of twice the table size: a
		// million-game import's live heap held 250 MB of arenas and 260
		// MB of table buffers at its end, more than its memory limit left
		// the collector (issue 18: peak memory ≤ 2 GB; 3 and 4 before).
		WithMemTableSize(memTableSize).
		WithNumMemtables(2).
		WithNumCompactors(2).
		// A small block cache: a writer reads each block once (a merge
		// reads its runs through, a duplicate check one block per new
		// game), and every block Badger's 256 MB default keeps is fresh
		// memory, slow to touch on this machine and heap the import's
		// limit must leave room for.
		WithBlockCacheSize(16 << 20).
		WithNumLevelZeroTables(levelZeroTables).
		// Above deferredLevelZeroTables, with room for the memtables of a
		// small write's merges: with no compactor, a stall never ends.
		WithNumLevelZeroTablesStall(deferredLevelZeroTables + 20).
		// No conflict detection: every transaction of the store writes
		// blindly (a write batch, the manifest), and one writer at a time
		// (busy.go). Detection cost a map entry a key written, and each
		// committed batch's keys kept until older reads end.
		WithDetectConflicts(false).
		// No compaction on close: it would compress every table a second
		// time (0.6 CPU-seconds at the end of a 140,000-game import) for
		// nothing a first import deleted. Badger compacts level 0 itself
		// once it holds NumLevelZeroTables tables, which reclaims what run
		// merges delete.
		WithCompactL0OnClose(false)
	if readOnly {
		o = o.WithBlockCacheSize(readerBlockCache)
	}
	return o
}

const (
	blockSize          = 16 << 10
	bloomFalsePositive = 0.0001
	// levelZeroTables is the store's NumLevelZeroTables. Every import
	// leaves a level-0 table (its last memtable), and a level-0 compaction
	// rewrites the base level's tables it overlaps. Ten tables before one
	// (Badger's default is five) halves how often imports pay for that
	// (small ones defer it: openStoreBadger); reads check each table's
	// bloom filter.
	levelZeroTables = 10
	// deferredLevelZeroTables bounds the level-0 tables small writes leave
	// without compacting (openStoreBadger).
	deferredLevelZeroTables = 24
	// memTableSize is the store's memtable, a quarter of Badger's default
	// (64 MB), whose arena Badger allocates whole (83 MB for 64 MB) and
	// whose write-ahead log is a mapped file of twice its size: every
	// memtable an import fills is fresh memory, about 3 ms a MB to touch on
	// this project's virtual machine, and a small one is reused. Imports,
	// alternating the two, one run each: a million games 112.2 s, 214.6
	// CPU-seconds at 64 MB against 89.2 s, 169.9 at 16 MB (peak 1.26 and
	// 1.32 GB); the pgnmentor corpus 7.6–8.4 s against 7.5–7.7, four pairs,
	// 16 MB faster in each (issue 18). At a million games, 100 games leave
	// a level-0 table of 50-70 KB and 1,800 (1 MB of PGN, about
	// smallImportBytes) one of 0.8 MB, compressed.
	memTableSize = 16 << 20
	// levelZeroCompactionTableSize is the size of the tables a small
	// write's compaction of level 0 writes (8 MB elsewhere: badgerOptions).
	// Level 0's tables reach from their runs to the global keys after the
	// run space, so that compaction rewrites every table of the base level
	// from level 0's oldest run to the global keys: in tables of 8 MB, one,
	// which each bound's session rewrote whole with what the one before had
	// put in it. Issue 18, the first and second bound's sessions after ten
	// 10,000-game imports at a million games, two runs each: 8 MB tables
	// 0.42 and 0.53-0.55 s, 4 MB 0.46 and 0.41-0.42 s, 3 MB 0.45-0.47 and
	// 0.33-0.35 s, 2 MB 0.47-0.48 and 0.34-0.37 s.
	levelZeroCompactionTableSize = 3 << 20
	// readerBlockCache is the block cache of a read-only store, which
	// belongs to a short-lived process (tree, games, show, a --batch).
	// Badger's cache (256 MB by default) keeps every block it
	// decompresses, so until it is full each block read lands in memory
	// the process touches for the first time: on this project's virtual
	// machine 7-13 ms a MB in page faults, several times the block's
	// decoding, for blocks a process seldom reads twice. A small cache
	// recycles the memory of the blocks it evicts (a million-game store,
	// 1,000 trees: 44,516 page faults with 256 MB, 21,274 with 1 MB;
	// p50 1.59 ms with 256 MB, 0.98 ms with 8 MB; issue 18).
	readerBlockCache = 8 << 20
)

// flatten compacts Badger's tables into one level: after a large import,
// whose merges of runs left the dead values and their tombstones in
// level 0 and the levels below. Left there, the next level-0 compaction
// (some small imports later) rewrites every table they overlap, nearly
// the whole store: at a million games, 11 to 17 CPU-seconds of one
// 10,000-game import, and lookups skip the dead values until then.
// Flatten compacts tables only: the memtable, which the import's last
// merges and garbage deletions filled (tombstones over the merged runs,
// tens of MB at a million games), is flushed first, else Close flushed it
// into level 0 over the flattened store, and a compaction some imports
// later carried its tombstones down over the dead values: the tenth
// 10,000-game import after a million-game one rewrote 190 MB of level 6
// (36 CPU-seconds, 2026-12-02; issue 18).
//
// The globals Badger too: a large import wrote most of its attributes and
// hashes, which its compactions would otherwise rewrite over the next
// imports (issue 18: the first growth imports after a migration, 1.6–2.0×
// the empty-database import).
//
// The two Badgers flatten side by side: each flush builds its table on one
// core (records 0.84 s, globals 0.26 s at the end of a 137,000-game
// import, one after the other). A Badger whose tables are all in level 0
// is left as it is (levelZeroOnly).
func (s *Store) flatten() error {
	var errs [2]error
	var wg sync.WaitGroup
	for i, db := range []*badger.DB{s.db, s.gdb} {
		if levelZeroOnly(db) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if errs[i] = flushMemtable(db); errs[i] == nil {
				errs[i] = db.Flatten(runtime.NumCPU())
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs[:]...)
}

// levelZeroOnly reports whether db's tables are all in level 0, with
// room there for the table its memtable leaves at Close: a store that
// one import filled from empty. No compaction is owed on it (Badger
// compacts level 0 at levelZeroTables) and its tables hold no values of
// an earlier import to drop, so flattening would only compress them all
// a second time: 0.6 of the 9.9 CPU-seconds, 0.34 s of the 5.6 s, of the
// pgnmentor import into an empty database (five pairs alternating;
// issue 18, import ≥ 0.5× SCID).
func levelZeroOnly(db *badger.DB) bool {
	levels := db.Levels()
	for _, l := range levels[1:] {
		if l.NumTables > 0 {
			return false
		}
	}
	return levels[0].NumTables+1 < levelZeroTables
}

// flushKey sorts after every key of the store. Badger has no call that
// flushes its memtable but Close and DropPrefix, which flushes the
// memtables without the dropped prefix's keys before it drops that
// prefix from the tables that hold it: with one key of a prefix no
// table's range covers, it flushes the memtable and drops nothing else.
var flushKey = []byte{0xff, '|', 'f', 'l', 'u', 's', 'h'}

// flushMemtable writes db's memtable's values into a level-0 table.
func flushMemtable(db *badger.DB) error {
	err := db.Update(func(txn *badger.Txn) error { return txn.Set(flushKey, nil) })
	if err != nil {
		return err
	}
	return db.DropPrefix(flushKey)
}

// Close closes the store.
func (s *Store) Close() error {
	s.filters.release()
	var errs []error
	if s.meta != nil {
		errs = append(errs, s.meta.Close())
	}
	errs = append(errs, s.closeRunDBs())
	// The two Badgers close side by side: each writes its memtable into a
	// table on one core (0.09 and 0.03 s, one after the other, at the end
	// of the pgnmentor import; issue 18).
	if !s.opts.ReadOnly {
		s.markLevelZero()
	}
	var gerr error
	var wg sync.WaitGroup
	wg.Go(func() { gerr = s.gdb.Close() })
	errs = append(errs, s.db.Close())
	wg.Wait()
	errs = append(errs, gerr)
	return errors.Join(errs...)
}

// Dir returns the database folder.
func (s *Store) Dir() string { return s.dir }

// checkSchema refuses a store of another version, and gives a new one
// this version.
func (s *Store) checkSchema() error {
	ver, found, err := readVersion(s.gdb)
	switch {
	case err != nil:
		return err
	case found && ver != SchemaVersion:
		return schemaError(s.dir, ver)
	case found || s.opts.ReadOnly:
		return nil
	}
	return s.gdb.Update(func(txn *badger.Txn) error {
		return txn.Set(versionKey, binary.AppendUvarint(nil, SchemaVersion))
	})
}

func (s *Store) loadManifest() error {
	s.man = manifest{NextGid: 1, NextRun: 1}
	return s.gdb.View(func(txn *badger.Txn) error {
		return readValue(txn, manifestKey, func(v []byte) error { return json.Unmarshal(v, &s.man) })
	})
}

// updateManifest changes the manifest and writes it in its own synced
// transaction: the commit point of a run, after the records it names are
// synced (the runs' values are, by batch.Flush). Every change to s.man
// goes through here, under manMu.
func (s *Store) updateManifest(change func(m *manifest)) error {
	s.manMu.Lock()
	defer s.manMu.Unlock()
	s.view.Lock()
	change(&s.man)
	// Bleve may run ahead of the commits; the manifest vouches only for
	// committed games.
	s.man.MetaUpTo = max(s.man.MetaUpTo, min(s.metaIndexed, s.man.NextGid))
	s.view.Unlock()
	b, err := json.Marshal(&s.man)
	if err != nil {
		return err
	}
	if err := s.db.Sync(); err != nil {
		return err
	}
	if err := s.gdb.Update(func(txn *badger.Txn) error { return txn.Set(manifestKey, b) }); err != nil {
		return err
	}
	return s.gdb.Sync()
}

func (s *Store) metaUpTo() uint32 {
	s.manMu.Lock()
	defer s.manMu.Unlock()
	return max(s.man.MetaUpTo, 1)
}

// setMetaIndexed records that Bleve has indexed every game below gid.
func (s *Store) setMetaIndexed(gid uint32) error {
	return s.updateManifest(func(*manifest) { s.metaIndexed = max(s.metaIndexed, gid) })
}

// Games returns how many games the store holds.
func (s *Store) Games() int { return int(s.man.NextGid - 1 - s.man.Deleted) }

// Read runs fn, a query of any length, on the last committed state: a
// writer of the same Store (an import run by xqdb serve) commits before or
// after it, never during it. Queries that share a Store with a writer must
// run inside Read; Read also loads the attributes first, so that
// concurrent readers do not race to load them.
func (s *Store) Read(fn func() error) error {
	if !s.attrsAll.Load() {
		s.view.Lock()
		err := s.loadAttrs()
		s.view.Unlock()
		if err != nil {
			return err
		}
	}
	s.view.RLock()
	defer s.view.RUnlock()
	return fn()
}

// cleanPending removes what an interrupted run or merge wrote, and the
// runs a merge replaced: game records at or past NextGid, and the folders
// of the Pending run (not committed), of the Garbage runs and of any run
// the manifest does not name (sweepRuns).
func (s *Store) cleanPending() error {
	if s.man.Pending != 0 && s.man.live(s.man.Pending) {
		// An older xqdb stopped after committing a merge: its merged runs
		// are named nowhere.
		return s.cleanDeadRuns()
	}
	runs := slices.Clone(s.man.Garbage)
	if s.man.Pending != 0 {
		runs = append(runs, s.man.Pending)
	}
	wb := s.db.NewWriteBatch()
	defer wb.Cancel()
	err := s.db.View(func(txn *badger.Txn) error { return s.deleteUncommittedRecords(txn, wb) })
	if err != nil {
		return err
	}
	if err := wb.Flush(); err != nil {
		return err
	}
	if err := s.removeRuns(runs); err != nil {
		return err
	}
	err = s.updateManifest(func(m *manifest) {
		m.Pending = 0
		m.Garbage = slices.DeleteFunc(m.Garbage, func(r uint32) bool { return slices.Contains(runs, r) })
		for run := range m.RunGames {
			if !m.live(run) {
				m.forgetRun(run)
			}
		}
	})
	if err != nil {
		return err
	}
	if err := s.sweepRuns(); err != nil {
		return err
	}
	return s.sweepFilters() // the pending run's, if it wrote one
}

// deleteUncommittedRecords adds to wb the deletion of the records a run
// that was not committed wrote: under the runs after the last epoch's (a
// run commits its records with its epoch), which a writer numbers after
// it.
func (s *Store) deleteUncommittedRecords(txn *badger.Txn, wb *badger.WriteBatch) error {
	from := uint32(1)
	if n := len(s.man.Epochs); n > 0 {
		from = s.man.Epochs[n-1].Run + 1
	}
	for run := from; run < s.man.NextRun; run++ {
		p := kindPrefix(prefixGame, run)
		if err := deleteFrom(txn, wb, p, p); err != nil {
			return err
		}
	}
	return nil
}

// readValue calls fn with the value at key, unless there is none; the
// value is valid during the call only.
func readValue(txn getter, key []byte, fn func(v []byte) error) error {
	item, err := txn.Get(key)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return item.Value(fn)
}

// deleteFrom deletes the keys with prefix from from on: txn and wb are
// Badger's or the store's with its runs (view, batch).
func deleteFrom(txn iterating, wb interface{ Delete([]byte) error }, prefix, from []byte) error {
	it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
	defer it.Close()
	for it.Seek(from); it.ValidForPrefix(prefix); it.Next() {
		if err := wb.Delete(it.Item().KeyCopy(nil)); err != nil {
			return err
		}
	}
	return nil
}

// cleanDeadRuns removes, as cleanPending does, game records at or past
// NextGid and the folders of every run that is not live: for a store
// whose dead runs are not named.
func (s *Store) cleanDeadRuns() error {
	wb := s.db.NewWriteBatch()
	defer wb.Cancel()
	err := s.db.View(func(txn *badger.Txn) error { return s.deleteUncommittedRecords(txn, wb) })
	if err != nil {
		return err
	}
	if err := wb.Flush(); err != nil {
		return err
	}
	err = s.updateManifest(func(m *manifest) {
		m.Pending, m.Garbage = 0, nil
		m.Merging = nil // its run was not live: deleted below
		for run := range m.RunGames {
			if !m.live(run) {
				m.forgetRun(run)
			}
		}
	})
	if err != nil {
		return err
	}
	if err := s.sweepRuns(); err != nil {
		return err
	}
	return s.sweepFilters()
}
