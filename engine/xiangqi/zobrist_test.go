package xiangqi

import (
	"fmt"
	"hash/fnv"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// The Zobrist table is part of the on-disk format: these values must never
// change without a database schema migration.
func TestZobristTableIsFrozen(t *testing.T) {
	h := fnv.New64a()
	for c := engine.First; c <= engine.Second; c++ {
		for k := General; k <= Soldier; k++ {
			for i := 0; i < 90; i++ {
				fmt.Fprintf(h, "%016x", ZobristPiece(c, k, SquareFrom90(i)))
			}
		}
	}
	fmt.Fprintf(h, "%016x", ZobristBlackToMove())
	p := NewStart()
	keys := []uint64{p.Key()}
	for _, mv := range []string{"h2e2", "h9g7", "h0g2", "i9h9"} {
		m, _ := ParseICCSMove(mv)
		p.Make(m)
		keys = append(keys, p.Key())
	}
	got := fmt.Sprintf("table %016x keys %016x", h.Sum64(), keys)
	want := "table e5377e4ec47ebe32 keys [79592402c3e2dfa0 8ff7ddb07400b48a 9ebd127e560619fe 631e57c70e1f6dfc c8a77394496bc0a0]"
	if got != want {
		t.Errorf("Zobrist golden changed:\n got %s\nwant %s", got, want)
	}
}

func TestZobristFirstValues(t *testing.T) {
	// SplitMix64 from the documented seed: the first value belongs to the
	// red general on a0.
	g := splitMix64(ZobristSeed)
	if got := ZobristPiece(engine.First, General, Square(0, 0)); got != g.next() {
		t.Fatalf("first table value %016x does not come from the seed", got)
	}
}
