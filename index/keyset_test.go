package index

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestKeySet: a key set holds the keys loaded (in order, as a writer reads
// them from the P| entries, or out of order) and the keys added since, and
// no other, whatever bits they share with the filter.
func TestKeySet(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var s keySet
	if s.has(1) {
		t.Fatal("an empty set has a key")
	}
	want := map[uint64]bool{}
	k := uint64(0)
	for range 5_000 { // ascending, as loaded
		k += 1 + rng.Uint64N(1<<40)
		s.load(k)
		want[k] = true
	}
	for range 100 { // out of order: kept all the same
		k := rng.Uint64()
		s.load(k)
		want[k] = true
	}
	for range 1_000 { // added by the writer's runs
		k := rng.Uint64()
		s.add(k)
		want[k] = true
	}
	for k := range want {
		if !s.has(k) {
			t.Fatalf("key %x missing", k)
		}
		// The same low bits (the filter's) and another key.
		if other := k ^ 1<<40; !want[other] && s.has(other) {
			t.Fatalf("key %x found, never added", other)
		}
	}
	for range 10_000 {
		if k := rng.Uint64(); !want[k] && s.has(k) {
			t.Fatalf("key %x found, never added", k)
		}
	}
}

// keys returns the set's keys in ascending order.
func (s *keySet) keys() []uint64 {
	out := slices.Clone(s.sorted)
	for k := range s.m {
		out = append(out, k)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
