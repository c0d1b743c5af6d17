package index

import (
	"encoding/binary"

	"github.com/dgraph-io/badger/v4"

	"github.com/xqdb/xqdb/engine"
)

// Attrs are the per-game facts queries filter and sort on without reading
// whole records, and what imports recognise the game by: kept in chunks of
// attrsPerChunk games, 22 bytes each, loaded into memory whole, or by a
// read-only store chunk by chunk (Store.Attrs).
//
// Its fields are in the order that packs them into 24 bytes (32 in the
// order of the stored chunk): a store holds every game's attributes in
// memory once a lookup has met a few chunks, 26 MB at a million games,
// fresh memory a process touches as it loads them (issue 18).
type Attrs struct {
	Game   engine.Game
	Result engine.Result
	Rating uint16 // average of the known player ratings, 0 unknown
	Date   uint32 // yyyymmdd; zero parts unknown
	Hash   uint64 // de-duplication hash of the moves (foldHash of games.GameHash)
	// Players is a hash of the players' names as twin checks compare them
	// (playersHash).
	Players uint32
	Plies   uint16
	// Deleted marks a game xqdb delete removed: its id is not reused.
	Deleted bool
}

const (
	attrsPerChunk = 4096
	attrsSize     = 22
	// attrsDeleted is the bit of the first byte (the game) that marks a
	// deleted game.
	attrsDeleted = 0x80
)

func putAttrs(b []byte, a Attrs) {
	b[0] = byte(a.Game)
	if a.Deleted {
		b[0] |= attrsDeleted
	}
	b[1] = byte(a.Result)
	binary.BigEndian.PutUint32(b[2:], a.Date)
	binary.BigEndian.PutUint16(b[6:], a.Rating)
	binary.BigEndian.PutUint16(b[8:], a.Plies)
	binary.BigEndian.PutUint64(b[10:], a.Hash)
	binary.BigEndian.PutUint32(b[18:], a.Players)
}

func getAttrs(b []byte) Attrs {
	return Attrs{
		Game:    engine.Game(b[0] &^ attrsDeleted),
		Result:  engine.Result(b[1]),
		Date:    binary.BigEndian.Uint32(b[2:]),
		Rating:  binary.BigEndian.Uint16(b[6:]),
		Plies:   binary.BigEndian.Uint16(b[8:]),
		Hash:    binary.BigEndian.Uint64(b[10:]),
		Players: binary.BigEndian.Uint32(b[18:]),
		Deleted: b[0]&attrsDeleted != 0,
	}
}

// ParseDate reads the dates real records carry into yyyymmdd with unknown
// parts zero: "1990.05.01", "1990.??.??", "1990-05-01", "1990", and CCPD's
// "4/17/1996", "19960417", "1996年4月17日下午", and "15-7-2009" (day
// first when the first number cannot be a month). It returns 0 when no
// year can be read (a two-digit year is not guessed).
func ParseDate(s string) uint32 {
	var nums [3]int
	var lens [3]int
	n := 0
	for i := 0; i < len(s) && n < 3; {
		c := s[i]
		if c >= '0' && c <= '9' {
			v, l := 0, 0
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				v = v*10 + int(s[i]-'0')
				i++
				l++
			}
			nums[n], lens[n] = v, l
			n++
			continue
		}
		if c == '?' { // "1990.??.??": an unknown part
			for i < len(s) && s[i] == '?' {
				i++
			}
			nums[n], lens[n] = 0, 2
			n++
			continue
		}
		i++
	}
	var y, m, d int
	switch {
	case lens[0] == 8: // yyyymmdd, as a seventh of CCPD's records ("20091115-09:00" too)
		y, m, d = nums[0]/10000, nums[0]/100%100, nums[0]%100
	case n == 1 && lens[0] == 6: // yyyymm
		y, m = nums[0]/100, nums[0]%100
	case n >= 1 && lens[0] == 4:
		y, m, d = nums[0], nums[1], nums[2]
	case n == 3 && lens[2] == 4: // m/d/yyyy, or d-m-yyyy when the first cannot be a month
		y, m, d = nums[2], nums[0], nums[1]
		if m > 12 && d <= 12 {
			m, d = d, m
		}
	default:
		return 0
	}
	if y < 1000 || y > 2999 {
		return 0
	}
	if m < 0 || m > 12 {
		m = 0
	}
	if d < 0 || d > 31 {
		d = 0
	}
	return uint32(y*10000 + m*100 + d)
}

// FormatDate writes yyyymmdd as PGN does: "1990.05.01", "1990.??.??", and
// "1934.??.06" (a day known without its month: pgnmentor has some).
func FormatDate(d uint32) string {
	if d == 0 {
		return ""
	}
	y, m, day := d/10000, d/100%100, d%100
	b := make([]byte, 0, 10)
	b = appendNum(b, int(y), 4)
	b = append(b, '.')
	if m == 0 {
		b = append(b, "??"...)
	} else {
		b = appendNum(b, int(m), 2)
	}
	b = append(b, '.')
	if day == 0 {
		return string(append(b, "??"...))
	}
	return string(appendNum(b, int(day), 2))
}

func appendNum(b []byte, v, width int) []byte {
	var tmp [8]byte
	for i := width - 1; i >= 0; i-- {
		tmp[i] = byte('0' + v%10)
		v /= 10
	}
	return append(b, tmp[:width]...)
}

// loadAttrs reads every attribute chunk into memory.
func (s *Store) loadAttrs() error {
	if s.attrsAll.Load() {
		return nil
	}
	s.attrsMu.Lock()
	defer s.attrsMu.Unlock()
	return s.loadAllAttrs()
}

// loadAllAttrs is loadAttrs under attrsMu. The two halves of the chunks
// are read side by side, each by an iterator of its own: a process's
// first load decompresses the chunks and touches the fresh memory they
// fill, 240 ms on one core at a million games (issue 18: the one lookup
// of a fresh process's batch that loads them).
func (s *Store) loadAllAttrs() error {
	if s.attrsAll.Load() {
		return nil
	}
	attrs := make([]Attrs, s.man.NextGid)
	chunks := uint32((uint64(len(attrs)) + attrsPerChunk - 1) / attrsPerChunk)
	err := inParallel(
		func() error { return s.readAttrsRange(attrs, 0, chunks/2) },
		func() error { return s.readAttrsRange(attrs, chunks/2, chunks) },
	)
	if err != nil {
		return err
	}
	s.attrs, s.someAttrs = attrs, nil
	s.attrsAll.Store(true)
	return nil
}

// readAttrsRange decodes the stored attribute chunks from, ..., to-1 into
// attrs (indexed by gid); a chunk not stored leaves its games zero.
func (s *Store) readAttrsRange(attrs []Attrs, from, to uint32) error {
	return s.gdb.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{prefixAttrs, '|'}})
		defer it.Close()
		for it.Seek(attrsKey(from)); it.Valid(); it.Next() {
			chunk := binary.BigEndian.Uint32(it.Item().Key()[2:])
			if chunk >= to {
				return nil
			}
			err := it.Item().Value(func(v []byte) error {
				first := uint64(chunk) * attrsPerChunk
				if first < uint64(len(attrs)) {
					decodeAttrs(attrs[first:min(first+attrsPerChunk, uint64(len(attrs)))], v)
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// someChunksAlone is how many chunks chunkAttrs reads alone before it
// loads them all (a variable for tests). Each costs a lookup up to a
// millisecond in a fresh process (fresh memory, a block decompressed), and
// a batch's lookups meet them all soon: at one in eight of a million
// games' chunks, a thirtieth of the first thousand trees read one, and
// their p99 rose from 1.4 to 2.4 ms.
var someChunksAlone = 4

// decodeAttrs decodes an attribute chunk's value into dst, one element a
// game, as far as both go.
func decodeAttrs(dst []Attrs, v []byte) {
	for i := range dst {
		if (i+1)*attrsSize > len(v) {
			return
		}
		dst[i] = getAttrs(v[i*attrsSize:])
	}
}

// chunkAttrs returns the attributes of game gid (below NextGid) from its
// chunk, read alone the first time: a read-only store's one-off lookup
// (xqdb tree, games) that meets a few games need not load all of them,
// 24 MB and 0.2 s of a fresh process at a million games. Once a lookup or
// a batch of them has read a few chunks (someChunksAlone), the rest follow
// in one pass, which costs less than reading them one by one.
func (s *Store) chunkAttrs(gid uint32) Attrs {
	c := gid / attrsPerChunk
	s.attrsMu.Lock()
	defer s.attrsMu.Unlock()
	if s.attrsAll.Load() { // loaded since the caller looked
		return s.attrs[gid]
	}
	attrs, ok := s.someAttrs[c]
	if !ok && len(s.someAttrs) >= someChunksAlone {
		if err := s.loadAllAttrs(); err != nil {
			return Attrs{}
		}
		return s.attrs[gid]
	}
	if !ok {
		stored, err := s.readAttrsChunk(c)
		if err != nil {
			return Attrs{}
		}
		// Games the chunk does not hold are zero, as a whole load leaves them.
		first := c * attrsPerChunk
		attrs = make([]Attrs, min(attrsPerChunk, s.man.NextGid-first))
		copy(attrs, stored)
		if s.someAttrs == nil {
			s.someAttrs = map[uint32][]Attrs{}
		}
		s.someAttrs[c] = attrs
	}
	return attrs[gid-c*attrsPerChunk]
}

// setAttrs sets the attributes of game gid, when a reader of this store
// loaded them (Read); else they are read from the store when asked.
func (s *Store) setAttrs(gid uint32, a Attrs) {
	// Growing the slice may move it under a reader (Read).
	s.view.Lock()
	defer s.view.Unlock()
	if !s.attrsAll.Load() {
		return
	}
	for uint32(len(s.attrs)) <= gid {
		s.attrs = append(s.attrs, Attrs{})
	}
	s.attrs[gid] = a
}

// loadedAttrs returns the attributes of game gid if a reader of this
// store loaded them, which Read may be doing as a writer asks.
func (s *Store) loadedAttrs(gid uint32) (Attrs, bool) {
	s.view.RLock()
	defer s.view.RUnlock()
	if s.attrsAll.Load() && int(gid) < len(s.attrs) {
		return s.attrs[gid], true
	}
	return Attrs{}, false
}

// Attrs returns the attributes of game gid (zero for an unknown gid). A
// read-only store reads them chunk by chunk until something loads them
// all (Read, a scan of every game); a writable one loads them all.
func (s *Store) Attrs(gid uint32) Attrs {
	if gid >= s.man.NextGid {
		return Attrs{}
	}
	if !s.attrsAll.Load() {
		if s.opts.ReadOnly {
			return s.chunkAttrs(gid)
		}
		if err := s.loadAttrs(); err != nil {
			return Attrs{}
		}
	}
	if gid >= uint32(len(s.attrs)) {
		return Attrs{}
	}
	return s.attrs[gid]
}

// attrChunks encodes the attribute chunks that hold games from..to-1.
func (s *Store) attrChunks(from, to uint32) map[uint32][]byte {
	out := map[uint32][]byte{}
	for c := from / attrsPerChunk; c <= (to-1)/attrsPerChunk; c++ {
		first := c * attrsPerChunk
		last := min(first+attrsPerChunk, uint32(len(s.attrs)))
		buf := make([]byte, int(last-first)*attrsSize)
		for gid := first; gid < last; gid++ {
			putAttrs(buf[int(gid-first)*attrsSize:], s.attrs[gid])
		}
		out[c] = buf
	}
	return out
}
