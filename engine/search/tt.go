package search

import "github.com/xqdb/xqdb/engine"

// Bound kinds of a transposition-table score.
const (
	boundNone  = 0
	boundUpper = 1 // the score is at most this (failed low)
	boundLower = 2 // the score is at least this (failed high)
	boundExact = boundUpper | boundLower
)

// ttEntry is one slot: 16 bytes.
type ttEntry struct {
	key   uint64
	move  engine.Move
	score int16
	depth int8
	bound uint8
	gen   uint8
}

// table is a transposition table of two-slot buckets: the first slot keeps
// the deepest recent result, the second is always replaced.
type table struct {
	e    []ttEntry
	mask uint64
	gen  uint8
}

func newTable(mb int) table {
	if mb < 1 {
		mb = 1
	}
	n := uint64(mb) << 20 / 16
	size := uint64(2)
	for size*2 <= n {
		size *= 2
	}
	return table{e: make([]ttEntry, size), mask: size/2 - 1}
}

func (t *table) clear() {
	clear(t.e)
	t.gen = 0
}

func (t *table) probe(key uint64) (ttEntry, bool) {
	i := (key & t.mask) * 2
	if e := t.e[i]; e.key == key && e.bound != boundNone {
		return e, true
	}
	if e := t.e[i+1]; e.key == key && e.bound != boundNone {
		return e, true
	}
	return ttEntry{}, false
}

func (t *table) store(key uint64, m engine.Move, score, depth int, bound uint8) {
	i := (key & t.mask) * 2
	slot := &t.e[i]
	if slot.key != key && slot.gen == t.gen && int(slot.depth) > depth {
		slot = &t.e[i+1]
	}
	if m == engine.NoMove && slot.key == key {
		m = slot.move // keep the move of an earlier search of this position
	}
	*slot = ttEntry{key: key, move: m, score: int16(score), depth: int8(max(min(depth, 127), -1)), bound: bound, gen: t.gen}
}

// Mate scores are stored relative to the node, not the root, so that a
// position reached at another ply reads the right distance.
func scoreToTT(s, ply int) int {
	switch {
	case s >= mateBound:
		return s + ply
	case s <= -mateBound:
		return s - ply
	}
	return s
}

func scoreFromTT(s, ply int) int {
	switch {
	case s >= mateBound:
		return s - ply
	case s <= -mateBound:
		return s + ply
	}
	return s
}
