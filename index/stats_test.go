package index

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// randomStats makes a stats value of n games from gid first on, playing
// moves among codes.
func randomStats(rng *rand.Rand, first uint32, n int, codes []uint16) *statsValue {
	v := &statsValue{}
	gid := first
	for range n {
		gid += 1 + rng.Uint32N(300)
		a := Attrs{Result: engine.Result(1 + rng.IntN(3)), Rating: uint16(rng.IntN(2800)), Date: 19900101 + uint32(rng.IntN(300000))}
		v.add(gid, codes[rng.IntN(len(codes))], a)
	}
	return v
}

// TestStatsMergerAsMergeStats: a merge of runs' stats values without
// decoding their postings writes, byte for byte, what decoding them,
// folding them with mergeStats and encoding the result writes: the same
// moves in the same slots, every game once, in gid order (issue 18).
func TestStatsMergerAsMergeStats(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var m statsMerger // reused across values, as a merge does
	for _, tc := range []struct {
		name  string
		games []int // per run, oldest first
		codes [][]uint16
	}{
		{"one run", []int{5}, [][]uint16{{1, 2, 3}}},
		{"same moves", []int{40, 3, 100}, [][]uint16{{1, 2}, {1, 2}, {1, 2}}},
		{"moves in another order", []int{20, 20}, [][]uint16{{1, 2, 3}, {3, 2, 1}}},
		{"new moves later", []int{10, 30, 7, 1}, [][]uint16{{5}, {6, 5, 9}, {EndSlot, 9}, {300}}},
		{"an empty run", []int{10, 0, 10}, [][]uint16{{1, 4}, {2}, {4, 1}}},
		{"many moves", []int{2000, 500}, [][]uint16{make([]uint16, 0), make([]uint16, 0)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i := range tc.codes {
				for len(tc.codes[i]) == 0 {
					for c := range 200 { // past one uvarint byte of slots
						tc.codes[i] = append(tc.codes[i], uint16(c*7+i))
					}
				}
			}
			var vals [][]byte
			want := &statsValue{}
			first := uint32(1)
			for i, n := range tc.games {
				v := randomStats(rng, first, n, tc.codes[i])
				vals = append(vals, encodeStats(nil, v))
				mergeStats(want, v)
				first += 100_000
			}
			got, games, err := m.merge(nil, vals)
			if err != nil {
				t.Fatal(err)
			}
			if wantBytes := encodeStats(nil, want); !bytes.Equal(got, wantBytes) || games != uint64(len(want.Games)) {
				t.Fatalf("merged %d bytes, %d games; decoding, merging and encoding gives %d bytes, %d games", len(got), games, len(wantBytes), len(want.Games))
			}
		})
	}
}

// FuzzStatsMerger: no input makes the merge panic; corrupt values are an
// error.
func FuzzStatsMerger(f *testing.F) {
	rng := rand.New(rand.NewPCG(1, 2))
	f.Add(encodeStats(nil, randomStats(rng, 1, 10, []uint16{1, 2})), encodeStats(nil, randomStats(rng, 5000, 3, []uint16{2, 3})))
	f.Add([]byte{1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 5, 3}, []byte{0, 0})
	f.Fuzz(func(t *testing.T, a, b []byte) {
		var m statsMerger
		got, games, err := m.merge(nil, [][]byte{a, b})
		if err != nil {
			return
		}
		v, err := decodeStats(got)
		if err != nil || uint64(len(v.Games)) != games {
			t.Fatalf("merged value does not decode (%v) or has %d games, not %d", err, len(v.Games), games)
		}
	})
}

// TestEncodeTailAllocatesOnce: a tail block is sized before it is
// written, so encoding it allocates its bytes once, however many entries
// and however long its unary codes (a merge encodes tens of thousands).
func TestEncodeTailAllocatesOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{1, 60, 700, 5000} {
		es := make([]tailEntry, n)
		gid := uint32(1_000_000) // a late run: a long first gap
		for i := range es {
			gid += 1 + rng.Uint32N(200)
			es[i] = tailEntry{gid, rng.Uint64()}
		}
		var b []byte
		if allocs := testing.AllocsPerRun(20, func() { b = encodeTail(nil, es, 14) }); allocs != 1 && !raceEnabled {
			t.Errorf("%d entries: %.0f allocations, want 1", n, allocs)
		}
		count := 0
		if err := decodeTail(b, func(g, print uint32, w int) {
			if e := es[count]; g != e.gid || print != printOf(e.key, 14) {
				t.Fatalf("entry %d: got gid %d print %d, want %d %d", count, g, print, e.gid, printOf(e.key, 14))
			}
			count++
		}); err != nil || count != n {
			t.Fatalf("%d entries: decoded %d, %v", n, count, err)
		}
	}
}
