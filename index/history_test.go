package index

import (
	"testing"

	"github.com/xqdb/xqdb/engine"
)

func TestHistoryCountsAcrossRuns(t *testing.T) {
	var h history
	k1 := uint64(0x1234_5678_9ABC_DEF0)
	k2 := k1 + 1<<16 // same bucket, another position
	k3 := k1 ^ 1<<63 // another bucket
	k4 := k1 | 3     // differs from k1 only in the low bits an entry drops
	h.add(engine.Xiangqi, tailBucket(k1), []uint64{historyEntry(k2, 2), historyEntry(k1, 3)})
	h.add(engine.Xiangqi, tailBucket(k3), []uint64{historyEntry(k3, 1)})
	h.add(engine.Xiangqi, tailBucket(k1), []uint64{historyEntry(k1, 4)})
	h.add(engine.Chess, tailBucket(k1), []uint64{historyEntry(k1, 70000)})
	for _, tt := range []struct {
		game engine.Game
		key  uint64
		want int
	}{
		{engine.Xiangqi, k1, 7}, {engine.Xiangqi, k2, 2}, {engine.Xiangqi, k3, 1},
		{engine.Xiangqi, k4, 7}, {engine.Xiangqi, k1 + 2<<16, 0},
		{engine.Chess, k1, 0xFFFF}, {engine.Chess, k2, 0},
	} {
		if got := h.count(tt.game, tt.key); got != tt.want {
			t.Errorf("count(%v, %x) = %d, want %d", tt.game, tt.key, got, tt.want)
		}
	}
	if h.entries != 4 {
		t.Errorf("%d entries, want 4", h.entries)
	}
}
