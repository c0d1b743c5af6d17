package index

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestTailBlockRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 2, 150, 3000} {
		var es []tailEntry
		for i := 0; i < n; i++ {
			es = append(es, tailEntry{uint16(rng.Uint32()), rng.Uint32N(300_000)})
		}
		es = append(es, es[:n/3]...) // duplicates collapse
		b := encodeTail(nil, slices.Clone(es))
		var got []tailEntry
		if err := decodeTail(b, func(p uint16, g uint32) bool { got = append(got, tailEntry{p, g}); return true }); err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(es)
		slices.SortFunc(want, func(a, b tailEntry) int {
			if a.print != b.print {
				return int(a.print) - int(b.print)
			}
			return int(a.gid) - int(b.gid)
		})
		want = slices.Compact(want)
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: round trip differs", n)
		}
		if n == 150 {
			if per := float64(len(b)) / 150; per > 4.0 {
				t.Errorf("%.2f bytes per entry at 150 entries, want ≤ 4", per)
			}
		}
		for _, e := range want[:min(len(want), 20)] {
			gids, err := lookupTail(b, e.print, nil)
			if err != nil || !slices.Contains(gids, e.gid) {
				t.Fatalf("lookup %d missed gid %d: %v %v", e.print, e.gid, gids, err)
			}
		}
	}
}

func FuzzDecodeTail(f *testing.F) {
	f.Add(encodeTail(nil, []tailEntry{{1, 2}, {300, 4}, {65535, 1 << 20}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = decodeTail(b, func(uint16, uint32) bool { return true })
	})
}
