package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

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
// else. A writer maps the file and counts in place: it touches only the
// pages of the cells it asks about, and the system writes back only those
// it changed. (Read into memory, each page cost a fresh page, about 40 µs
// on this project's virtual machine, and a read: a 10,000-game import
// into a million-game store reads nearly every page of the 16 MB table,
// which took 0.075 CPU-seconds on the run writer's critical path; mapped,
// 0.043, profiles of five and three such imports; issue 18.) A table that
// grows is written whole, aside, then renamed over the old one.
type openingCounts struct {
	bits     uint
	cells    []uint8 // the table: the mapped file past its header, or memory
	postings uint64  // counted since the table last grew
	changed  bool
	// mapped is the file's mapping, header and cells, when cells are in
	// it; nil when the table is in memory (new, grown, or read from a
	// file of the first format, or where xqdb maps no files), which save
	// writes whole.
	mapped []byte
}

const (
	countsFile    = "opening-counts"
	countsMagic   = "xqdbOC2\n" // then bits and postings, 8 bytes each, big-endian; then the cells
	countsMagicV1 = "xqdbOC1\n" // then bits (1 byte), postings (uvarint), the cells
	countsHeader  = len(countsMagic) + 16
	countsMinBits = 16
)

// countsMaxBits bounds the table (2^24 cells: 16 MB); a variable for tests.
var countsMaxBits uint = 24

func newOpeningCounts() *openingCounts {
	return newTable(countsMinBits, 0)
}

// newTable returns a table of 2^bits cells, all zero, in memory.
func newTable(bits uint, postings uint64) *openingCounts {
	// A large allocation comes zeroed from the system, untouched: only the
	// pages counted cost memory.
	return &openingCounts{bits: bits, postings: postings, cells: make([]uint8, 1<<bits)}
}

func (c *openingCounts) cell(game engine.Game, key uint64) int {
	h := (key ^ uint64(game%4)<<56) * 0x9e3779b97f4a7c15
	return int(h >> (64 - c.bits))
}

// count returns how many games reached key (an estimate, see above).
func (c *openingCounts) count(game engine.Game, key uint64) int {
	return int(c.cells[c.cell(game, key)])
}

// add counts n more games reaching key.
func (c *openingCounts) add(game engine.Game, key uint64, n int) {
	if c.postings >= 2<<c.bits && c.bits < countsMaxBits {
		c.grow()
	}
	i := c.cell(game, key)
	c.cells[i] = uint8(min(int(c.cells[i])+n, 255))
	c.postings += uint64(n)
	c.changed = true
}

// grow doubles the table: a cell's two halves are the cells whose hashes
// start with its own, and each gets half its count, rounded up.
func (c *openingCounts) grow() {
	g := newTable(c.bits+1, c.postings/2)
	for i, v := range c.cells {
		h := (v + 1) / 2
		if v == 255 {
			h = 128
		}
		g.cells[2*i], g.cells[2*i+1] = h, h
	}
	c.release()
	g.changed = c.changed
	*c = *g
}

// release unmaps the table's file, if mapped (the table is unusable
// then).
func (c *openingCounts) release() {
	if c.mapped != nil {
		unmapFile(c.mapped)
		c.mapped, c.cells = nil, nil
	}
}

// loadOpeningCounts opens the counts of the store in dir, mapping them;
// a store without them (new, or written before they existed) starts with
// none.
func loadOpeningCounts(dir string) (*openingCounts, error) {
	path := filepath.Join(dir, countsFile)
	data, mapped, err := mapFileWritable(path)
	if errors.Is(err, os.ErrNotExist) {
		return newOpeningCounts(), nil
	}
	if err != nil {
		return nil, err
	}
	c, err := decodeOpeningCounts(data, mapped)
	if err != nil {
		if mapped {
			unmapFile(data)
		}
		// Advisory data: start again rather than refuse the store.
		return newOpeningCounts(), nil
	}
	return c, nil
}

// decodeOpeningCounts takes the table from data, the file, mapped or
// read.
func decodeOpeningCounts(data []byte, mapped bool) (*openingCounts, error) {
	if len(data) >= len(countsMagicV1) && string(data[:len(countsMagicV1)]) == countsMagicV1 {
		c, err := decodeOpeningCountsV1(data[len(countsMagicV1):])
		if err == nil && mapped {
			c.cells = slices.Clone(c.cells) // the file is rewritten whole
			unmapFile(data)
		}
		return c, err
	}
	if len(data) < countsHeader || string(data[:len(countsMagic)]) != countsMagic {
		return nil, fmt.Errorf("index: %s: not a counts file", countsFile)
	}
	bits := binary.BigEndian.Uint64(data[len(countsMagic):])
	if bits < countsMinBits || bits > 30 || len(data) != countsHeader+1<<bits {
		return nil, fmt.Errorf("index: %s: corrupt", countsFile)
	}
	c := &openingCounts{bits: uint(bits), postings: binary.BigEndian.Uint64(data[len(countsMagic)+8:]), cells: data[countsHeader:]}
	if mapped {
		c.mapped = data
	}
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
	return &openingCounts{bits: bits, postings: postings, cells: b[1+n:]}, nil
}

// save writes the counts into dir when they changed: a mapped table its
// header (the cells are in the file already), a table in memory whole,
// aside and renamed.
func (c *openingCounts) save(dir string) error {
	if !c.changed {
		return nil
	}
	var h [countsHeader]byte
	copy(h[:], countsMagic)
	binary.BigEndian.PutUint64(h[len(countsMagic):], uint64(c.bits))
	binary.BigEndian.PutUint64(h[len(countsMagic)+8:], c.postings)
	if c.mapped != nil {
		copy(c.mapped, h[:])
	} else {
		if err := replaceFile(filepath.Join(dir, countsFile), false, h[:], c.cells); err != nil {
			return err
		}
	}
	c.changed = false
	return nil
}
