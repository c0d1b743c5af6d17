package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/xqdb/xqdb/engine"
)

// openingCounts counts, per position, the games that reached it at an
// opening ply (ply <= promoteByHistoryPlies) and were left in the tail:
// what promotion needs to know of the earlier runs. Before, a writer
// decoded every earlier run's tail blocks to count them, so an import's
// cost grew with the database (a 10,000-game import into a million-game
// database spent 12 of its 37 CPU-seconds there, and held their
// fingerprints in memory).
//
// It is a count-min sketch with one hash: a cell counts every position
// that falls in it, in a byte (saturating at 255). A count is too high
// when positions share a cell, and too low by up to half once the table
// has grown (growing halves the counts); both only move the moment a
// position is promoted (one run sooner or later), never an answer: a
// popular position's stats entry and its tail postings answer alike.
// The table starts at 2^16 cells and doubles, up to 2^24 (16 MB), when it
// has counted twice as many postings as it has cells, so a cell holds
// about two stray postings whatever the size of the database.
//
// It lives in the file opening-counts beside Badger's folder. It is
// advisory, so a crash that loses or tears the latest counts loses nothing
// else; so a writer reads only the cells it asks about and writes back, in
// place, only what it changed: a small import touches a few thousand
// cells, and reading and writing the whole 16 MB table cost a hundred-game
// import into a million-game database about 0.1 CPU-seconds of its 0.65.
// The first cells are read one by one (few), since a page read lands in
// memory the process touches for the first time: on this project's
// virtual machine a fresh page costs about 40 µs, a one-byte read about 4
// (a hundred games touch some 2,400 cells, as many pages; issue 18). Past
// two cells a page on average, whole pages are read and written. A table
// that grows is written whole, aside, then renamed over the old one.
type openingCounts struct {
	bits     uint
	cells    []uint8 // pages not yet read hold zeros
	loaded   []bool  // per page of countsPage cells: read from the file
	dirty    []bool  // per page: changed since read
	postings uint64  // counted since the table last grew
	changed  bool
	// file holds the pages not yet read (nil: a new table, all zero);
	// whole says that save must write the whole table (new, grown, or
	// read from a file of the first format).
	file  *os.File
	whole bool
	// few holds the cells read one by one from file, with their changes,
	// while no page is loaded; pages says that they were given up for
	// pages (fewMax).
	few   map[int]fewCell
	pages bool
}

// fewCell is a cell read on its own, and whether it changed since.
type fewCell struct {
	v     uint8
	dirty bool
}

const (
	countsFile     = "opening-counts"
	countsMagic    = "xqdbOC2\n" // then bits and postings, 8 bytes each, big-endian; then the cells
	countsMagicV1  = "xqdbOC1\n" // then bits (1 byte), postings (uvarint), the cells
	countsHeader   = len(countsMagic) + 16
	countsMinBits  = 16
	countsPageBits = 12 // 4 KB pages, as the system's
	countsPage     = 1 << countsPageBits
)

// countsMaxBits bounds the table (2^24 cells: 16 MB); a variable for tests.
var countsMaxBits uint = 24

func newOpeningCounts() *openingCounts {
	return newTable(countsMinBits, 0, true)
}

// newTable returns a table of 2^bits cells, all zero, none read.
func newTable(bits uint, postings uint64, whole bool) *openingCounts {
	pages := 1 << (bits - countsPageBits)
	// A large allocation comes zeroed from the system, untouched: only the
	// pages read or counted cost memory.
	return &openingCounts{bits: bits, postings: postings, whole: whole,
		cells: make([]uint8, 1<<bits), loaded: make([]bool, pages), dirty: make([]bool, pages)}
}

func (c *openingCounts) cell(game engine.Game, key uint64) int {
	h := (key ^ uint64(game%4)<<56) * 0x9e3779b97f4a7c15
	return int(h >> (64 - c.bits))
}

// page makes sure page p has been read from the file. A page that cannot
// be read counts nothing: the counts are advisory.
func (c *openingCounts) page(p int) {
	if c.loaded[p] {
		return
	}
	if len(c.few) > 0 {
		c.toPages()
		if c.loaded[p] {
			return
		}
	}
	c.loaded[p] = true
	if c.file != nil {
		c.file.ReadAt(c.cells[p*countsPage:(p+1)*countsPage], int64(countsHeader+p*countsPage))
	}
}

// fewMax is how many cells are read one by one before whole pages are:
// two a page, where a page read starts to cost less than its cells' reads.
func (c *openingCounts) fewMax() int { return 2 * len(c.loaded) }

// get returns cell i.
func (c *openingCounts) get(i int) uint8 {
	p := i >> countsPageBits
	if c.loaded[p] || c.file == nil || c.pages {
		c.page(p)
		return c.cells[i]
	}
	if fc, ok := c.few[i]; ok {
		return fc.v
	}
	if len(c.few) >= c.fewMax() {
		c.toPages()
		return c.get(i)
	}
	var b [1]byte
	c.file.ReadAt(b[:], int64(countsHeader+i)) // unread, it counts nothing
	if c.few == nil {
		c.few = map[int]fewCell{}
	}
	c.few[i] = fewCell{v: b[0]}
	return b[0]
}

// set sets cell i, which get has returned.
func (c *openingCounts) set(i int, v uint8) {
	if p := i >> countsPageBits; c.loaded[p] {
		c.cells[i] = v
		c.dirty[p] = true
		return
	}
	c.few[i] = fewCell{v, true}
}

// toPages gives the cells read one by one up for their pages.
func (c *openingCounts) toPages() {
	few := c.few
	c.few, c.pages = nil, true
	for i, fc := range few {
		p := i >> countsPageBits
		c.page(p)
		if fc.dirty {
			c.cells[i] = fc.v
			c.dirty[p] = true
		}
	}
}

// count returns how many games reached key (an estimate, see above).
func (c *openingCounts) count(game engine.Game, key uint64) int {
	return int(c.get(c.cell(game, key)))
}

// add counts n more games reaching key.
func (c *openingCounts) add(game engine.Game, key uint64, n int) {
	if c.postings >= 2<<c.bits && c.bits < countsMaxBits {
		c.grow()
	}
	i := c.cell(game, key)
	c.set(i, uint8(min(int(c.get(i))+n, 255)))
	c.postings += uint64(n)
	c.changed = true
}

// grow doubles the table: a cell's two halves are the cells whose hashes
// start with its own, and each gets half its count, rounded up.
func (c *openingCounts) grow() {
	g := newTable(c.bits+1, c.postings/2, true)
	for p := range c.loaded {
		c.page(p)
	}
	for i, v := range c.cells {
		h := (v + 1) / 2
		if v == 255 {
			h = 128
		}
		g.cells[2*i], g.cells[2*i+1] = h, h
	}
	for p := range g.loaded {
		g.loaded[p] = true
	}
	c.closeFile()
	g.changed = c.changed
	*c = *g
}

func (c *openingCounts) closeFile() {
	if c.file != nil {
		c.file.Close()
		c.file = nil
	}
}

// loadOpeningCounts opens the counts of the store in dir, reading only
// their header; a store without them (new, or written before they
// existed) starts with none.
func loadOpeningCounts(dir string) (*openingCounts, error) {
	path := filepath.Join(dir, countsFile)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return newOpeningCounts(), nil
	}
	if err != nil {
		return nil, err
	}
	c, err := openOpeningCounts(f)
	if err != nil {
		f.Close()
		// Advisory data: start again rather than refuse the store.
		return newOpeningCounts(), nil
	}
	return c, nil
}

func openOpeningCounts(f *os.File) (*openingCounts, error) {
	var h [countsHeader]byte
	if _, err := io.ReadFull(f, h[:len(countsMagic)]); err != nil {
		return nil, err
	}
	if string(h[:len(countsMagic)]) == countsMagicV1 {
		b, err := io.ReadAll(f)
		if err != nil {
			return nil, err
		}
		f.Close()
		return decodeOpeningCountsV1(b)
	}
	if _, err := io.ReadFull(f, h[len(countsMagic):]); err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	bits := binary.BigEndian.Uint64(h[len(countsMagic):])
	if string(h[:len(countsMagic)]) != countsMagic || bits < countsMinBits || bits > 30 || st.Size() != int64(countsHeader)+1<<bits {
		return nil, fmt.Errorf("index: %s: corrupt", countsFile)
	}
	c := newTable(uint(bits), binary.BigEndian.Uint64(h[len(countsMagic)+8:]), false)
	c.file = f
	return c, nil
}

// decodeOpeningCountsV1 reads a table of the first format (after its
// magic), which save then writes whole in the current one.
func decodeOpeningCountsV1(b []byte) (*openingCounts, error) {
	if len(b) < 2 {
		return nil, fmt.Errorf("index: %s: not a counts file", countsFile)
	}
	bits := uint(b[0])
	postings, n := binary.Uvarint(b[1:])
	if n <= 0 || bits < countsMinBits || bits > 30 || len(b[1+n:]) != 1<<bits {
		return nil, fmt.Errorf("index: %s: corrupt", countsFile)
	}
	c := &openingCounts{bits: bits, postings: postings, whole: true, cells: b[1+n:]}
	c.loaded = make([]bool, 1<<(bits-countsPageBits))
	c.dirty = make([]bool, len(c.loaded))
	for p := range c.loaded {
		c.loaded[p] = true
	}
	return c, nil
}

// save writes the counts into dir when they changed: the pages changed,
// in place, or the whole table, aside and renamed.
func (c *openingCounts) save(dir string) error {
	if !c.changed {
		return nil
	}
	var h [countsHeader]byte
	copy(h[:], countsMagic)
	binary.BigEndian.PutUint64(h[len(countsMagic):], uint64(c.bits))
	binary.BigEndian.PutUint64(h[len(countsMagic)+8:], c.postings)
	if c.whole || c.file == nil {
		if err := c.saveWhole(dir, h[:]); err != nil {
			return err
		}
	} else {
		for p := 0; p < len(c.dirty); {
			if !c.dirty[p] {
				p++
				continue
			}
			q := p + 1 // neighbouring dirty pages in one write
			for q < len(c.dirty) && c.dirty[q] {
				q++
			}
			if _, err := c.file.WriteAt(c.cells[p*countsPage:q*countsPage], int64(countsHeader+p*countsPage)); err != nil {
				return err
			}
			p = q
		}
		for i, fc := range c.few {
			if !fc.dirty {
				continue
			}
			if _, err := c.file.WriteAt([]byte{fc.v}, int64(countsHeader+i)); err != nil {
				return err
			}
			c.few[i] = fewCell{v: fc.v}
		}
		if _, err := c.file.WriteAt(h[:], 0); err != nil {
			return err
		}
	}
	clear(c.dirty)
	c.changed = false
	return nil
}

func (c *openingCounts) saveWhole(dir string, header []byte) error {
	for p := range c.loaded {
		c.page(p)
	}
	path := filepath.Join(dir, countsFile)
	tmp := path + ".tmp"
	if err := writeFile(tmp, header, c.cells); err != nil {
		return err
	}
	c.closeFile()
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	c.file, c.whole = f, false
	return nil
}

func writeFile(path string, parts ...[]byte) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	for _, b := range parts {
		if _, err := f.Write(b); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
