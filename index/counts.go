package index

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
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
// It lives in the file opening-counts beside Badger's folder, replaced
// whole (written aside, then renamed) when a writer closes: it is
// advisory, so a crash that loses the latest counts loses nothing else.
type openingCounts struct {
	bits     uint
	cells    []uint8
	postings uint64 // counted since the table last grew
	changed  bool
}

const (
	countsFile    = "opening-counts"
	countsMagic   = "xqdbOC1\n"
	countsMinBits = 16
)

// countsMaxBits bounds the table (2^24 cells: 16 MB); a variable for tests.
var countsMaxBits uint = 24

func newOpeningCounts() *openingCounts {
	return &openingCounts{bits: countsMinBits, cells: make([]uint8, 1<<countsMinBits)}
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
	cells := make([]uint8, 2<<c.bits)
	for i, v := range c.cells {
		h := (v + 1) / 2
		if v == 255 {
			h = 128
		}
		cells[2*i], cells[2*i+1] = h, h
	}
	c.bits++
	c.cells = cells
	c.postings /= 2
}

// loadOpeningCounts reads the counts of the store in dir; a store without
// them (new, or written before they existed) starts with none.
func loadOpeningCounts(dir string) (*openingCounts, error) {
	b, err := os.ReadFile(filepath.Join(dir, countsFile))
	if errors.Is(err, os.ErrNotExist) {
		return newOpeningCounts(), nil
	}
	if err != nil {
		return nil, err
	}
	c, err := decodeOpeningCounts(b)
	if err != nil {
		// Advisory data: start again rather than refuse the store.
		return newOpeningCounts(), nil
	}
	return c, nil
}

func decodeOpeningCounts(b []byte) (*openingCounts, error) {
	if !bytes.HasPrefix(b, []byte(countsMagic)) || len(b) < len(countsMagic)+2 {
		return nil, fmt.Errorf("index: %s: not a counts file", countsFile)
	}
	b = b[len(countsMagic):]
	bits := uint(b[0])
	postings, n := binary.Uvarint(b[1:])
	if n <= 0 || bits < countsMinBits || bits > 30 || len(b[1+n:]) != 1<<bits {
		return nil, fmt.Errorf("index: %s: corrupt", countsFile)
	}
	return &openingCounts{bits: bits, cells: b[1+n:], postings: postings}, nil
}

// save writes the counts into dir when they changed.
func (c *openingCounts) save(dir string) error {
	if !c.changed {
		return nil
	}
	b := make([]byte, 0, len(countsMagic)+11+len(c.cells))
	b = append(b, countsMagic...)
	b = append(b, byte(c.bits))
	b = binary.AppendUvarint(b, c.postings)
	b = append(b, c.cells...)
	path := filepath.Join(dir, countsFile)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	c.changed = false
	return nil
}
