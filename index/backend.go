package index

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dgraph-io/badger/v4"

	"github.com/xqdb/xqdb/engine"
)

// DB is a game database as the commands that import and read games use it
// (import, tree, games, show, export, stats; DESIGN "index store
// interface"). Store, Badger and Bleve in a folder, is the default; other
// backends (index/clickhouse) register an opener for a URL scheme with
// RegisterBackend and give the same answers.
type DB interface {
	// Dir says where the database is: its folder, or its URL.
	Dir() string
	// Games counts the stored games; LastGid is the highest id given.
	Games() int
	LastGid() uint32
	// Game reads one stored game (ErrNoGame when there is none).
	Game(gid uint32) (*Record, error)
	// Attrs returns what queries sort and filter games on.
	Attrs(gid uint32) Attrs
	// EachGame calls fn for every stored game in id order.
	EachGame(fn func(gid uint32, a Attrs)) error
	// Position looks a position up: per next move statistics, and with
	// withGames every game that reached it.
	Position(game engine.Game, pos engine.Position, withGames bool) (*PositionStats, error)
	// Search returns the ids of the games that match every query string
	// (querylang.go), among within when it is not nil.
	Search(within []uint32, queries ...string) ([]uint32, error)
	// Summary counts what the database holds, for xqdb stats.
	Summary() (*Summary, error)
	// NewGameWriter starts adding games.
	NewGameWriter() (GameWriter, error)
	Close() error
}

// GameWriter adds prepared games (Prepare) to a DB. Adding a game stored
// before gives its id with Duplicate set, so that importing the same
// games again adds none. Close commits what was added.
type GameWriter interface {
	SetDedupe(d Dedupe)
	AddPrepared(p *Prepared) (AddResult, error)
	Close() error
}

// Summary is what xqdb stats prints of a database.
type Summary struct {
	Games   int
	PerGame map[string]int // games per game name
	Plies   int64
	// Positions counts (game, position) pairs in the position index;
	// Popular the positions with their own statistics, where the backend
	// has such a tier.
	Positions int64
	Popular   int64
	// Bytes are the bytes on disk per part ("badger", "bleve"; a table
	// name for ClickHouse); Entries what each kind of entry holds.
	Bytes   map[string]int64
	Entries map[string]any
}

// Opener opens the database at a backend URL (the whole URL, scheme
// included).
type Opener func(url string, opts Options) (DB, error)

var (
	backendsMu sync.Mutex
	backends   = map[string]Opener{}
)

// RegisterBackend makes OpenDB open URLs of scheme with open; a backend
// package calls it from init (as database/sql drivers do).
func RegisterBackend(scheme string, open Opener) {
	backendsMu.Lock()
	defer backendsMu.Unlock()
	backends[scheme] = open
}

// IsURL reports whether location names a backend by URL (scheme://…)
// rather than a database folder.
func IsURL(location string) bool {
	scheme, _, ok := strings.Cut(location, "://")
	return ok && scheme != "" && !strings.ContainsAny(scheme, "/\\")
}

// OpenDB opens a database: a folder with Open, or a backend URL with the
// opener registered for its scheme.
func OpenDB(location string, opts Options) (DB, error) {
	if !IsURL(location) {
		s, err := Open(location, opts)
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	scheme, _, _ := strings.Cut(location, "://")
	backendsMu.Lock()
	open := backends[scheme]
	backendsMu.Unlock()
	if open == nil {
		return nil, fmt.Errorf("index: no backend for %s:// (known: folders%s)", scheme, knownSchemes())
	}
	return open(location, opts)
}

func knownSchemes() string {
	backendsMu.Lock()
	defer backendsMu.Unlock()
	var b strings.Builder
	for s := range backends {
		b.WriteString(", " + s + "://")
	}
	return b.String()
}

// NewGameWriter starts writing to the store (NewWriter, as a GameWriter).
func (s *Store) NewGameWriter() (GameWriter, error) {
	w, err := s.NewWriter()
	if err != nil {
		return nil, err
	}
	return w, nil
}

// Summary counts the store's games, plies and position postings and its
// bytes on disk.
func (s *Store) Summary() (*Summary, error) {
	out := &Summary{Games: s.Games(), PerGame: map[string]int{}, Bytes: map[string]int64{}, Entries: map[string]any{}}
	err := s.EachGame(func(_ uint32, a Attrs) {
		out.PerGame[a.Game.String()]++
		out.Plies += int64(a.Plies)
	})
	if err != nil {
		return nil, err
	}
	popular, popPostings, tail, err := s.PositionCounts()
	if err != nil {
		return nil, err
	}
	out.Positions, out.Popular = popPostings+tail, popular
	out.Bytes["badger"], out.Bytes["bleve"] = s.DiskBytes()
	out.Bytes["filters"] = DirBytes(filepath.Join(s.dir, filtersDir))
	usage, err := s.Usage()
	if err != nil {
		return nil, err
	}
	for k, v := range usage {
		out.Entries[k] = v
	}
	out.Entries["runs"] = s.runLayout()
	return out, nil
}

// runLayout is how the position index stands between imports (issue 18):
// the runs a lookup reads, a merge of some of them under way (its key
// slices written so far) and the runs merges replaced, which the next
// imports delete.
func (s *Store) runLayout() map[string]any {
	s.manMu.Lock()
	defer s.manMu.Unlock()
	out := map[string]any{"live": len(s.man.LiveRuns), "awaiting_deletion": len(s.man.Garbage)}
	if st := s.man.Merging; st != nil {
		out["merging"] = map[string]any{"runs": len(st.Sources), "slices": 1 << st.Grid, "slices_done": st.Done[0] + st.Done[1]}
	}
	return out
}

var _ DB = (*Store)(nil)

// rawRecords is a DB that reads stored records as bytes, many at a time
// (Store: one pass over their keys; index/clickhouse: one query): what
// CopyGames decodes itself.
type rawRecords interface {
	RawRecords(gids []uint32) ([][]byte, error)
}

// RawRecords returns the stored bytes of the records gids (ascending ids),
// read in one pass of an iterator over their keys. The records are copied
// into a few large buffers, not into one each (a copy reads 196 k).
func (s *Store) RawRecords(gids []uint32) ([][]byte, error) {
	out := make([][]byte, len(gids))
	if len(gids) == 0 {
		return out, nil
	}
	var slab []byte
	err := s.db.View(func(txn *badger.Txn) error {
		opt := badger.DefaultIteratorOptions
		opt.Prefix = []byte{prefixRun, '|'}
		opt.PrefetchSize = 256
		it := txn.NewIterator(opt)
		defer it.Close()
		var want []byte
		for i := range gids {
			// Records of consecutive gids are neighbours (keys.go): a seek
			// only where the gids skip some or pass into another run.
			want = appendRecordKey(want[:0], s.man.recordRun(gids[i]), gids[i])
			if !it.Valid() || !bytes.Equal(it.Item().Key(), want) {
				it.Seek(want)
			}
			if !it.Valid() || !bytes.Equal(it.Item().Key(), want) {
				return fmt.Errorf("%w: %d", ErrNoGame, gids[i])
			}
			err := it.Item().Value(func(v []byte) error {
				if cap(slab)-len(slab) < len(v) {
					slab = make([]byte, 0, max(len(v), rawSlab))
				}
				slab = append(slab, v...)
				out[i] = slab[len(slab)-len(v) : len(slab) : len(slab)]
				return nil
			})
			if err != nil {
				return err
			}
			it.Next()
		}
		return nil
	})
	return out, err
}

// rawSlab is the bytes of a buffer RawRecords copies records into.
const rawSlab = 1 << 20

// CopyGames adds every game of src, in id order, to w: each record is
// replayed for its position keys (decoding it plays its moves: the keys
// come with it), named by opening (the Options.Opening of the commands;
// nil leaves it unnamed) and prepared as an import prepares it, keeping
// its stored bytes, so the copy answers as the original. fn is told of
// each.
func CopyGames(src DB, w GameWriter, opening func(r *Record, keys []uint64), fn func(p *Prepared, res AddResult)) error {
	var gids []uint32
	if err := src.EachGame(func(gid uint32, _ Attrs) { gids = append(gids, gid) }); err != nil {
		return err
	}
	// Reading is one request a chunk; replaying and preparing is the
	// work, done on every core while the writer adds the chunk before
	// (adding is one goroutine's work: alone, it left the other cores
	// idle); games are added in id order.
	chunk := copyChunk
	type prepared struct {
		games []*Prepared
		err   error
	}
	chunks := make(chan prepared, 1)
	done := make(chan struct{})
	var producer sync.WaitGroup
	// On an early return the producer stops, and it has stopped reading
	// src when CopyGames returns.
	defer producer.Wait()
	defer close(done)
	producer.Add(1)
	go func() {
		defer producer.Done()
		defer close(chunks)
		scratch := make([]copyScratch, runtime.GOMAXPROCS(0))
		if tr, ok := w.(TermRower); ok {
			for i, c := range sharedTermCaches(len(scratch), tr.TermRows) {
				scratch[i].terms = c
			}
		}
		for lo := 0; lo < len(gids); lo += chunk {
			ps, err := prepareChunk(src, gids[lo:min(lo+chunk, len(gids))], opening, scratch)
			select {
			case chunks <- prepared{ps, err}:
			case <-done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range chunks {
		if c.err != nil {
			return c.err
		}
		for _, p := range c.games {
			res, err := w.AddPrepared(p)
			if err != nil {
				return err
			}
			if fn != nil {
				fn(p, res)
			}
		}
	}
	return nil
}

// copyChunk is how many games CopyGames reads and prepares at a time (a
// variable for tests).
var copyChunk = 4096

// copyScratch is what one goroutine of CopyGames reuses from game to game.
type copyScratch struct {
	rec recordScratch
	// terms analyses the metadata, when the writer is a TermRower.
	terms *TermCache
}

// prepareChunk prepares stored games gids of src on every core (one
// scratch each).
func prepareChunk(src DB, gids []uint32, opening func(r *Record, keys []uint64), scratch []copyScratch) ([]*Prepared, error) {
	var bs [][]byte
	if raw, ok := src.(rawRecords); ok {
		var err error
		if bs, err = raw.RawRecords(gids); err != nil {
			return nil, err
		}
	}
	out := make([]*Prepared, len(gids))
	var next atomic.Int64
	errs := make([]error, len(scratch))
	var wg sync.WaitGroup
	for w := range scratch {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(gids) && errs[w] == nil; i = int(next.Add(1) - 1) {
				var b []byte
				if bs != nil {
					b = bs[i]
				}
				s := &scratch[w]
				if out[i], errs[w] = prepareStored(src, gids[i], b, opening, &s.rec); errs[w] == nil && s.terms != nil {
					listTerms(s.terms, out[i])
				}
			}
		}()
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// prepareStored prepares stored game gid of src (b, its stored bytes,
// when already read; s, the goroutine's buffers for decoding them).
func prepareStored(src DB, gid uint32, b []byte, opening func(r *Record, keys []uint64), s *recordScratch) (*Prepared, error) {
	var r *Record
	var keys []uint64
	var err error
	if b != nil {
		// prepare keeps neither r.Moves nor keys: s may hold them.
		r, err = decodeRecordKeys(gid, b, s)
		keys = s.keys
	} else if r, err = src.Game(gid); err == nil {
		keys, err = recordKeys(r)
	}
	if err != nil {
		return nil, fmt.Errorf("index: copy game %d: %w", gid, err)
	}
	if opening != nil {
		opening(r, keys)
	}
	// The stored bytes are what Prepare would encode, when they are of
	// this version.
	if len(b) == 0 || b[0] != recordVersion {
		b = nil
	}
	p, err := prepare(&Game{Record: *r, Keys: keys}, b)
	if err != nil {
		return nil, fmt.Errorf("index: copy game %d: %w", gid, err)
	}
	return p, nil
}
