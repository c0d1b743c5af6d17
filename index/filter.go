package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math/bits"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Position filters. A lookup reads a tail block in every live run, and a
// run that is small beside the store seldom holds the position asked: the
// ten growth imports of issue 18 left five such runs beside the
// million-game one, and their blocks (a 16 KB Badger block decompressed
// each) made trees 20–40% slower than before them. So a run that is small
// beside its store carries a Bloom filter of its tail's position keys,
// which a lookup asks first; it has false positives only, so a run it
// rules out holds no posting the lookup would have found.
//
// A filter is a file of its own, filters/<run>.bloom, mapped into memory,
// not a Badger value: a lookup touches one 64-byte block of it, and
// mapped pages of a file the system has cached cost about 1 µs each on
// first touch on this project's machine, where a Badger value is
// decompressed into fresh memory at 13 µs a page (reading a run's filter
// from Badger cost a process of 1,000 trees what the filter saved it).
//
// A run written by an import knows its keys whole; a merged run knows of
// each posting only the top bits its block kept (the bucket and the
// fingerprint: tail.go), so its filter hashes the top Prefix bits, the
// fewest any of the merged runs' blocks kept (runFilter.Known). A posting
// a lookup's fingerprint matches shares those bits with the key asked.
const (
	// About 0.4% false positives with filterProbes (8 bits: 2–3%, and
	// the six small runs ten growth imports leave beside a million games
	// read 136 tail blocks more over 1,000 trees than one run of the same
	// games, 26 with 16 bits; trees 3–4% faster at p50 in a process's
	// first lookups, for 8 MB more filters; issue 18).
	filterBitsPerKey = 16
	filterProbes     = 5
	filterBlockBytes = 64 // a filter block: one cache line, all of a key's probes
	// filterMaxGames bounds the runs that get a filter (about 1.6 MB of
	// filter a 10,000 games).
	filterMaxGames = 1 << 17
)

// runFilter is what the manifest records of a run's filter; a run the
// manifest names has its file.
type runFilter struct {
	Prefix uint8 `json:"p"` // the top key bits hashed (64: the whole key)
	// Keys is the keys the filter was sized for, of each game; Known the
	// fewest top key bits any of the run's tail blocks keeps (its bucket
	// bits and narrowest fingerprint). A merge sizes the merged run's
	// filter by them, and hashes the Known bits of the merged keys.
	Keys  [4]uint32 `json:"k"`
	Known uint8     `json:"n"`
}

// filterWanted reports whether a run of games games in a store of
// storeGames games gets a filter: it is small, and a small part of the
// store (a run that holds an eighth of the store's positions holds an
// eighth of the positions asked, and its block is read then anyway).
func filterWanted(games, storeGames int) bool {
	return games <= filterMaxGames && games*8 <= storeGames
}

// filterBuilder fills a run's filter as its tail blocks are written, in
// memory sized beforehand.
type filterBuilder struct {
	f      runFilter
	blocks [4][]byte // by game
}

// newFilterBuilder sizes a filter for keys[g] keys of each game g,
// hashing their top prefix bits.
func newFilterBuilder(keys [4]int, prefix int) *filterBuilder {
	b := &filterBuilder{f: runFilter{Prefix: uint8(prefix), Known: 64}}
	for g, k := range keys {
		b.f.Keys[g] = uint32(k)
		b.blocks[g] = make([]byte, filterBlockBytes*filterBlocks(k))
	}
	return b
}

// filterBlocks is how many blocks a filter of k keys has: an even number,
// at least two, so that keys whose top bit is 0 and those whose top bit
// is 1 fill blocks apart (filterBlock picks them in key order), and a
// merge fills the two halves at once (mergeTails). A game sized for no key
// gets two empty blocks, which let no key through.
func filterBlocks(k int) int {
	blockBits := 8 * filterBlockBytes
	n := (k*filterBitsPerKey + blockBits - 1) / blockBits
	return max(2, n+n%2)
}

// add adds a key of game whose top Prefix bits are right.
func (b *filterBuilder) add(game byte, key uint64) {
	filterSet(b.blocks[game%4], key, int(b.f.Prefix))
}

// knownBits records that one of the run's blocks keeps the top known
// bits of its keys.
func (b *filterBuilder) knownBits(known int) { b.f.Known = min(b.f.Known, uint8(known)) }

// mergedFilter returns a builder for the filter of a run of bucket bits
// bits merged from runs, or nil when one of them has no filter: each
// merged posting keeps at least the bits its source block kept, up to
// bits and the widest fingerprint.
func mergedFilter(m *manifest, runs []uint32, bits int) *filterBuilder {
	if !allFiltered(m, runs) {
		return nil
	}
	var keys [4]int
	prefix := bits + maxTailWidth
	for _, r := range runs {
		f := m.Filters[r]
		for g, k := range f.Keys {
			keys[g] += int(k)
		}
		prefix = min(prefix, int(f.Known))
	}
	return newFilterBuilder(keys, prefix)
}

// allFiltered reports whether every one of runs has a filter.
func allFiltered(m *manifest, runs []uint32) bool {
	for _, r := range runs {
		if _, ok := m.Filters[r]; !ok {
			return false
		}
	}
	return true
}

// filterHash mixes the top prefix bits of key (splitmix64's finalizer).
func filterHash(key uint64, prefix int) uint64 {
	z := key
	if prefix < 64 {
		z = key >> (64 - prefix)
	}
	z ^= uint64(prefix) << 58
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// filterBlock returns the block of key in v, which its top prefix bits
// pick in order (position keys are Zobrist keys, evenly spread): a run's
// keys, added bucket by bucket, then fill the filter from one end to the
// other, where hashed blocks took a cache miss each (a tier merge's
// 3.2 M keys into a 4 MB filter: 0.37 s).
func filterBlock(v []byte, key uint64, prefix int) []byte {
	if prefix < 64 {
		key &^= 1<<(64-prefix) - 1
	}
	hi, _ := bits.Mul64(key, uint64(len(v)/filterBlockBytes))
	b := int(hi)
	return v[b*filterBlockBytes : (b+1)*filterBlockBytes]
}

// filterSet sets key's probes, the low 45 bits of its hash, in its block.
func filterSet(v []byte, key uint64, prefix int) {
	blk := filterBlock(v, key, prefix)
	h := filterHash(key, prefix)
	for i := range filterProbes {
		bit := h >> (9 * i) & (8*filterBlockBytes - 1)
		blk[bit/8] |= 1 << (bit % 8)
	}
}

func filterHas(v []byte, key uint64, prefix int) bool {
	if len(v) < filterBlockBytes {
		return false // no key of this game
	}
	blk := filterBlock(v, key, prefix)
	h := filterHash(key, prefix)
	for i := range filterProbes {
		bit := h >> (9 * i) & (8*filterBlockBytes - 1)
		if blk[bit/8]&(1<<(bit%8)) == 0 {
			return false
		}
	}
	return true
}

// The file: a header, then each game's blocks.
//
//	"xqdbflt2" | run(4) | prefix(1) | 3 bytes 0 | blocks of game 0..3 (4 each)
const (
	filterMagic      = "xqdbflt2" // 1: blocks picked by the hash
	filterHeaderSize = 8 + 4 + 4 + 4*4
	filtersDir       = "filters"
)

func filterPath(dir string, run uint32) string {
	return filepath.Join(dir, filtersDir, strconv.FormatUint(uint64(run), 10)+".bloom")
}

// write writes run's filter file under the store folder dir, durably
// (synced, then renamed into place) before the manifest names it, and
// returns what the manifest records: nothing for a nil builder (a run
// without a filter).
func (b *filterBuilder) write(dir string, run uint32) (*runFilter, error) {
	if b == nil {
		return nil, nil
	}
	header := make([]byte, filterHeaderSize)
	copy(header, filterMagic)
	binary.LittleEndian.PutUint32(header[8:], run)
	header[12] = b.f.Prefix
	for g, v := range b.blocks {
		binary.LittleEndian.PutUint32(header[16+4*g:], uint32(len(v)/filterBlockBytes))
	}
	path := filterPath(dir, run)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	if err := replaceFile(path, true, header, b.blocks[0], b.blocks[1], b.blocks[2], b.blocks[3]); err != nil {
		return nil, fmt.Errorf("index: write the filter of run %d: %w", run, err)
	}
	return &b.f, nil
}

// reload reads back into b the filter that a merge under way wrote of
// its first parts (merge.go, mergeStep): the file must be one b would
// write, of the same sizes; false when it is not there or differs.
func (b *filterBuilder) reload(dir string, run uint32) bool {
	data, err := os.ReadFile(filterPath(dir, run))
	if err != nil || len(data) < filterHeaderSize || string(data[:8]) != filterMagic ||
		binary.LittleEndian.Uint32(data[8:]) != run || data[12] != b.f.Prefix {
		return false
	}
	at := filterHeaderSize
	for g, v := range b.blocks {
		if int(binary.LittleEndian.Uint32(data[16+4*g:])) != len(v)/filterBlockBytes || len(data)-at < len(v) {
			return false
		}
		at += len(v)
	}
	if at != len(data) {
		return false
	}
	at = filterHeaderSize
	for _, v := range b.blocks {
		at += copy(v, data[at:])
	}
	return true
}

// replaceFile writes parts, one after the other, to path by a temporary
// file renamed into place, so that no reader finds it half written;
// synced first when sync is set. A filter is synced: a crash then leaves
// the old file or the new one whole, or none (a file that is not there is
// a run read without its filter; one whose pages never reached the disk
// would rule out the run's positions). The opening counts, a hint, are
// not.
func replaceFile(path string, sync bool, parts ...[]byte) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	for _, p := range parts {
		if err == nil {
			_, err = f.Write(p)
		}
	}
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// loadedFilter is a run's filter file, mapped.
type loadedFilter struct {
	data   []byte    // the mapping, unmapped on release
	blocks [4][]byte // by game; nil: no key of that game
	prefix int
}

// openFilter maps run's filter file; a file that is missing or not what
// the manifest says gives nil (the run's blocks are read then, as without
// a filter).
func openFilter(dir string, run uint32, rf runFilter) *loadedFilter {
	data, err := mapFile(filterPath(dir, run))
	if err != nil {
		return nil
	}
	ok := len(data) >= filterHeaderSize && string(data[:8]) == filterMagic &&
		binary.LittleEndian.Uint32(data[8:]) == run && data[12] == rf.Prefix
	f := &loadedFilter{data: data, prefix: int(rf.Prefix)}
	at := filterHeaderSize
	for g := range f.blocks {
		if !ok {
			break
		}
		n := int(binary.LittleEndian.Uint32(data[16+4*g:])) * filterBlockBytes
		if n > len(data)-at {
			ok = false
			break
		}
		f.blocks[g] = data[at : at+n : at+n]
		at += n
	}
	if !ok || at != len(data) {
		unmapFile(data)
		return nil
	}
	return f
}

// mayHold reports whether the filter lets through key of game.
func (f *loadedFilter) mayHold(game byte, key uint64) bool {
	return filterHas(f.blocks[game%4], key, f.prefix)
}

// filterCache keeps the filters a store's lookups mapped: runs are never
// rewritten (a deletion only drops postings, which leaves their keys in
// the filter), so a filter stays right while its run lives.
type filterCache struct {
	mu   sync.Mutex
	runs map[uint32]*loadedFilter // nil: the run's file would not map
}

// mayHold reports whether run may hold a tail posting of key: false only
// when its filter says it holds none. Readers call it holding the view,
// so the live runs do not change under them.
func (s *Store) mayHold(game byte, run uint32, key uint64) bool {
	rf, ok := s.man.Filters[run]
	if !ok {
		return true
	}
	c := &s.filters
	c.mu.Lock()
	f, ok := c.runs[run]
	if !ok {
		if c.runs == nil {
			c.runs = map[uint32]*loadedFilter{}
		}
		// A new run: release those merged away since, which no reader
		// asks about any more.
		for r, old := range c.runs {
			if !s.man.live(r) {
				old.release()
				delete(c.runs, r)
			}
		}
		f = openFilter(s.dir, run, rf)
		c.runs[run] = f
	}
	c.mu.Unlock()
	return f == nil || f.mayHold(game, key)
}

func (f *loadedFilter) release() {
	if f != nil {
		unmapFile(f.data)
	}
}

// releaseFilters unmaps every filter (Close).
func (c *filterCache) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, f := range c.runs {
		f.release()
	}
	c.runs = nil
}

// sweepFilters deletes the filter files of runs that are not live: merged
// away, or written by a run that never committed. Writers call it when
// no run is being written.
func (s *Store) sweepFilters() error {
	entries, err := os.ReadDir(filepath.Join(s.dir, filtersDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".bloom")
		run, err := strconv.ParseUint(name, 10, 32)
		if ok && err == nil {
			if _, named := s.man.Filters[uint32(run)]; named && s.man.live(uint32(run)) {
				continue
			}
			if m := s.man.Merging; m != nil && m.Run == uint32(run) {
				continue // the merge under way goes on filling it
			}
		}
		if err := os.Remove(filepath.Join(s.dir, filtersDir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}
