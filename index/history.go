package index

import (
	"slices"

	"github.com/xqdb/xqdb/engine"
)

// history counts, per game and tail bucket, the games of a writer's runs
// that reached each opening position (ply <= promoteByHistoryPlies) and
// were left in the tail. Promotion needs how many games reached a position
// in earlier runs; for the writer's own runs this answers it without
// decoding their tail blocks again at every run, which made writing
// positions grow with the square of an import's size (a million games:
// 55 of 150 seconds).
//
// An entry is the 48 key bits below the bucket and a 16-bit count, and a
// bucket's entries are sorted: 8 bytes a position.
type history struct {
	buckets [4][tailBuckets][]uint64
	entries int
}

// maxHistory bounds history's entries (8 bytes each): past it, a writer
// counts from the tail blocks of every live run instead.
var maxHistory = 32 << 20 // a variable for tests

func historyEntry(key uint64, count int) uint64 {
	return key<<tailBucketBits&^0xFFFF | uint64(min(count, 0xFFFF))
}

// count returns how many games reached key in the runs recorded.
func (h *history) count(game engine.Game, key uint64) int {
	b := h.buckets[game%4][tailBucket(key)]
	e := historyEntry(key, 0)
	if i, _ := slices.BinarySearch(b, e); i < len(b) && b[i]&^0xFFFF == e {
		return int(b[i] & 0xFFFF)
	}
	return 0
}

// add records entries (historyEntry values of distinct keys of one bucket,
// in any order), adding to the counts of keys recorded before.
func (h *history) add(game engine.Game, bucket uint16, entries []uint64) {
	if len(entries) == 0 {
		return
	}
	slices.Sort(entries)
	old := h.buckets[game%4][bucket]
	merged := make([]uint64, 0, len(old)+len(entries))
	i, j := 0, 0
	for i < len(old) || j < len(entries) {
		switch {
		case j == len(entries) || i < len(old) && old[i]&^0xFFFF < entries[j]&^0xFFFF:
			merged = append(merged, old[i])
			i++
		case i == len(old) || entries[j]&^0xFFFF < old[i]&^0xFFFF:
			merged = append(merged, entries[j])
			j++
		default: // the same key: add the counts
			n := int(old[i]&0xFFFF) + int(entries[j]&0xFFFF)
			merged = append(merged, old[i]&^0xFFFF|uint64(min(n, 0xFFFF)))
			i++
			j++
		}
	}
	h.entries += len(merged) - len(old)
	h.buckets[game%4][bucket] = merged
}
