package index

import (
	"bytes"
	"encoding/binary"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

func TestTailBlockRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 2, 150, 640, 5000} {
		var keys []uint64
		var es []tailEntry
		for i := 0; i < n; i++ {
			k := rng.Uint64()
			keys = append(keys, k)
			es = append(es, tailEntry{rng.Uint32N(150_000) + 1, k << tailBucketBits})
		}
		b := encodeTail(nil, slices.Clone(es), fingerprintBits(len(es)))
		count := 0
		prev := uint32(0)
		err := decodeTail(b, func(gid, print uint32, w int) {
			if gid < prev || w != fingerprintBits(n) {
				t.Fatalf("entries out of order or width %d", w)
			}
			prev = gid
			count++
		})
		if err != nil || count != n {
			t.Fatalf("n=%d: decoded %d entries, %v", n, count, err)
		}
		if n == 640 {
			if per := float64(len(b)) / 640; per > 2.8 {
				t.Errorf("%.2f bytes per entry at 640 entries, want ≤ 2.8", per)
			}
		}
		stray := 0
		for i, k := range keys {
			gids, err := lookupTail(b, k, tailBucketBits, nil)
			if err != nil || !slices.Contains(gids, es[i].gid) {
				t.Fatalf("lookup of entry %d missed gid %d: %v %v", i, es[i].gid, gids, err)
			}
			stray += len(gids) - 1
		}
		if n > 0 && float64(stray)/float64(n) > 1 {
			t.Errorf("n=%d: %.2f stray matches per lookup", n, float64(stray)/float64(n))
		}
	}
}

func FuzzDecodeTail(f *testing.F) {
	f.Add(encodeTail(nil, []tailEntry{{1, 2 << 40}, {300, 4 << 50}, {1 << 20, 1 << 63}}, 8))
	f.Add(encodeTail(nil, []tailEntry{{7, 3 << 40}, {3_000_000_000, 5 << 50}}, maxTailWidth))
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = decodeTail(b, func(uint32, uint32, int) {})
	})
}

// TestTailWideFingerprints: a coarse block's fingerprints of up to 32
// bits round-trip, with gids far apart (the Rice parameter then yields to
// the width: both are read in one 57-bit window).
func TestTailWideFingerprints(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, gids := range [][]uint32{{1, 2, 3}, {5, 2_000_000_000, 4_000_000_000}, {4_294_967_295}} {
		var es []tailEntry
		for _, g := range gids {
			es = append(es, tailEntry{g, rng.Uint64()})
		}
		b := encodeTail(nil, slices.Clone(es), maxTailWidth)
		i := 0
		err := decodeTail(b, func(gid, print uint32, w int) {
			if w != maxTailWidth || gid != es[i].gid || print != printOf(es[i].key, w) {
				t.Errorf("entry %d: gid %d print %x width %d, want %d %x %d", i, gid, print, w, es[i].gid, printOf(es[i].key, maxTailWidth), maxTailWidth)
			}
			i++
		})
		if err != nil || i != len(es) {
			t.Fatalf("gids %v: decoded %d entries, %v", gids, i, err)
		}
	}
}

func TestTailMergeKeepsNarrowestWidth(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var small, big []tailEntry
	var keys []uint64
	for i := 0; i < 3000; i++ {
		k := rng.Uint64()
		keys = append(keys, k)
		e := tailEntry{uint32(i + 1), k << tailBucketBits}
		if i < 10 {
			small = append(small, e)
		} else {
			big = append(big, e)
		}
	}
	var merged []tailEntry
	minW := 64
	for _, b := range [][]byte{encodeTail(nil, small, fingerprintBits(len(small))), encodeTail(nil, big, fingerprintBits(len(big)))} {
		_ = decodeTail(b, func(gid, print uint32, w int) {
			merged = append(merged, tailEntry{gid, uint64(print) << (64 - w)})
			minW = min(minW, w)
		})
	}
	b := encodeTail(nil, merged, minW)
	for i, k := range keys {
		gids, _ := lookupTail(b, k, tailBucketBits, nil)
		if !slices.Contains(gids, uint32(i+1)) {
			t.Fatalf("merged block lost posting %d", i+1)
		}
	}
}

// grouper puts each key's occurrences together, in the bucket's order,
// for buckets small and large (the start position's, a run's every game).
func TestGrouperGroupsByKeyInOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var g grouper
	for _, n := range []int{0, 1, 300, 5000, 70_000} {
		const bucket = uint64(0x1234) << (64 - tailBucketBits)
		occ := make([]occurrence, n)
		for i := range occ {
			// few distinct keys, so groups are large
			occ[i] = occurrence{key: bucket | rng.Uint64N(50)<<20 | 7, gid: uint32(i * 3), ply: uint16(i)}
		}
		got := g.group(nil, occ)
		if len(got) != n {
			t.Fatalf("n=%d: %d occurrences out", n, len(got))
		}
		seen := map[uint64]bool{}
		for i, o := range got {
			if i > 0 && got[i-1].key == o.key {
				if got[i-1].gid >= o.gid {
					t.Fatalf("n=%d: group of %x out of gid order", n, o.key)
				}
				continue
			}
			if seen[o.key] {
				t.Fatalf("n=%d: key %x in two groups", n, o.key)
			}
			seen[o.key] = true
		}
		want := slices.Clone(occ)
		slices.SortFunc(want, func(a, b occurrence) int { return int(a.gid) - int(b.gid) })
		slices.SortStableFunc(got, func(a, b occurrence) int { return int(a.gid) - int(b.gid) })
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: occurrences lost or changed", n)
		}
	}
}

func BenchmarkGroupBucket(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	occ := make([]occurrence, 256)
	for i := range occ {
		occ[i] = occurrence{key: rng.Uint64() >> tailBucketBits, gid: uint32(i)}
	}
	var dst []occurrence
	var g grouper
	for b.Loop() {
		dst = g.group(dst[:0], occ)
	}
}

// randomRunOccurrences are the occurrences of a run of n games of random
// keys, of both games, 40 a game; their gids are left unset, as a
// writer's are until its bucketer lays them out.
func randomRunOccurrences(n int) []gameOccurrences {
	rng := rand.New(rand.NewPCG(3, 4))
	gs := make([]gameOccurrences, n)
	for i := range gs {
		gs[i] = gameOccurrences{gid: uint32(i + 1), game: engine.Game(rng.IntN(2))}
		for ply := range 40 {
			gs[i].occ = append(gs[i].occ, occurrence{key: rng.Uint64(), ply: uint16(ply), code: uint16(rng.IntN(100))})
		}
	}
	return gs
}

// TestBucketOccurrences: a bucketer lays out every occurrence, gid
// set, by game and tail bucket, in gid order within each bucket, and says
// where each bucket starts.
func TestBucketOccurrences(t *testing.T) {
	for _, n := range []int{0, 1, 3, 5000} {
		gs := randomRunOccurrences(n)
		bucket := func(g engine.Game, key uint64) int { return int(g)%4*tailBuckets + int(tailBucket(key)) }
		type placed struct {
			o      occurrence
			bucket int
		}
		var want []placed
		for _, g := range gs {
			for _, o := range g.occ {
				o.gid = g.gid
				want = append(want, placed{o, bucket(g.game, o.key)})
			}
		}
		slices.SortStableFunc(want, func(a, b placed) int { return a.bucket - b.bucket })
		// In new memory, and in a larger run's, as a writer's next run.
		used := make([]occurrence, len(want)+7)
		for i := range used {
			used[i] = occurrence{key: ^uint64(i), gid: 1 << 31}
		}
		for _, bk := range []bucketer{{}, {out: used}} {
			out, starts := bk.layOut(gs)
			if len(out) != len(want) || len(starts) != 4*tailBuckets+1 || starts[len(starts)-1] != len(out) {
				t.Fatalf("n=%d: %d occurrences, %d starts ending at %d; want %d", n, len(out), len(starts), starts[len(starts)-1], len(want))
			}
			for i, w := range want {
				if out[i] != w.o {
					t.Fatalf("n=%d: occurrence %d is %+v, want %+v", n, i, out[i], w.o)
				}
				if starts[w.bucket] > i || starts[w.bucket+1] <= i {
					t.Fatalf("n=%d: occurrence %d of bucket %d outside [%d, %d)", n, i, w.bucket, starts[w.bucket], starts[w.bucket+1])
				}
			}
		}
	}
}

// BenchmarkBucketOccurrences: a run of 50,000 games, 2 million
// occurrences, laid out by bucket (per occurrence: ns/op ÷ 2e6), in the
// last run's memory as a writer does.
func BenchmarkBucketOccurrences(b *testing.B) {
	gs := randomRunOccurrences(50_000)
	var bk bucketer
	for b.Loop() {
		bk.layOut(gs)
	}
}

// TestTailWidthAnticipatesMerges: a run writes its tail blocks with the
// fingerprint width of the blocks they will be merged into (the store's
// size once the import is done), since a merge keeps the narrowest width;
// twenty runs of 50,000 games, merged, then still give at most one stray
// match per lookup, where blocks as wide as each run needed gave 19
// (issue 18).
func TestTailWidthAnticipatesMerges(t *testing.T) {
	for _, tt := range []struct {
		name         string
		n            int
		store, games int // games of the store after the import, of the run
		want         int
	}{
		{"one run is the store", 929, 200_000, 200_000, 10},
		{"a run of a million-game import", 245, 1_000_000, 50_000, 13},
		{"a small import into a million games", 49, 1_010_000, 10_000, 13},
		{"a small store", 10, 100, 100, 8},
		{"a run larger than the store says", 3000, 10, 50_000, 12},
	} {
		if got := tailWidth(tt.n, runScale(tt.store, tt.games)); got != tt.want {
			t.Errorf("%s: width %d, want %d", tt.name, got, tt.want)
		}
	}
	// Twenty runs' blocks of one bucket, written as their store will be
	// and merged: the strays per lookup stay those of one block.
	rng := rand.New(rand.NewPCG(7, 8))
	const runs, perRun = 20, 245
	var keys []uint64
	var merged []tailEntry
	width := 64
	for r := 0; r < runs; r++ {
		var es []tailEntry
		for i := 0; i < perRun; i++ {
			k := rng.Uint64()
			keys = append(keys, k)
			es = append(es, tailEntry{uint32(r*perRun + i + 1), k << tailBucketBits})
		}
		b := encodeTail(nil, es, tailWidth(perRun, runScale(1_000_000, 50_000)))
		_ = decodeTail(b, func(gid, print uint32, w int) {
			merged = append(merged, tailEntry{gid, uint64(print) << (64 - w)})
			width = min(width, w)
		})
	}
	b := encodeTail(nil, merged, width)
	stray := 0
	for i, k := range keys {
		gids, err := lookupTail(b, k, tailBucketBits, nil)
		if err != nil || !slices.Contains(gids, uint32(i+1)) {
			t.Fatalf("merged block lost posting %d: %v", i+1, err)
		}
		stray += len(gids) - 1
	}
	if per := float64(stray) / float64(len(keys)); per > 1 {
		t.Errorf("%.2f stray matches per lookup in the merged block of %d entries (width %d), want ≤ 1", per, len(merged), width)
	}
}

// TestTailBitsFor: a run's bucket bits give blocks of about 64 postings
// at 80 positions a game, between minTailBits and tailBucketBits.
func TestTailBitsFor(t *testing.T) {
	for _, tt := range []struct{ games, want int }{
		{0, 6}, {1, 6}, {63, 6}, {100, 7}, {400, 9}, {4092, 12}, {8191, 13}, {10_000, 14}, {1_000_000, 14},
	} {
		if got := tailBitsFor(tt.games); got != tt.want {
			t.Errorf("tailBitsFor(%d) = %d, want %d", tt.games, got, tt.want)
		}
	}
}

// TestCoarseTailBlocksMerge: runs of fewer bucket bits (a block spans
// several of a full run's) merge with full ones into blocks of any bits
// at least theirs, and every posting is found again under its key, with
// no more stray matches than the widths promise. The blocks are written
// as tailWriter writes them.
func TestCoarseTailBlocksMerge(t *testing.T) {
	s, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rng := rand.New(rand.NewPCG(11, 12))
	runBits := map[uint32]int{1: 6, 2: 7, 3: tailBucketBits, 4: 9}
	const perRun = 8000
	type posting struct {
		key uint64
		gid uint32
	}
	var all []posting
	wb := s.newBatch()
	for run := uint32(1); run <= 4; run++ {
		b := runBits[run]
		blocks := map[uint16][]tailEntry{}
		for i := 0; i < perRun; i++ {
			k := rng.Uint64()
			gid := uint32(run-1)*perRun + uint32(i) + 1
			all = append(all, posting{k, gid})
			blocks[tailBlock(k, b)] = append(blocks[tailBlock(k, b)], tailEntry{gid, k << b})
		}
		for blk, es := range blocks {
			if err := wb.Set(tailKey(0, run, blk), encodeTail(nil, es, tailWidthAt(len(es), 4, b))); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := wb.Flush(); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		runs []uint32
		bits int
	}{
		{[]uint32{1, 2}, 7},
		{[]uint32{1, 2, 4}, 11},
		{[]uint32{1, 2, 3, 4}, tailBucketBits},
	} {
		from := make([]int, len(tt.runs))
		for i, r := range tt.runs {
			from[i] = runBits[r]
		}
		// Whole, in the two halves a merge runs side by side, and in the
		// slices a merge under way writes a part at a time (never finer
		// than the coarsest run's blocks): the same blocks.
		mergeIn := func(parts ...keyRange) map[uint16][]byte {
			merged := map[uint16][]byte{}
			for _, part := range parts {
				err := s.viewRuns(func(txn *view) error {
					_, err := mergeTails(txn, tt.runs, from, 0, 9, tt.bits, part, nil, func(k, v []byte) error {
						if !bytes.HasPrefix(k, runPrefix(prefixTail, 0, 9)) {
							t.Fatalf("merged key %x outside run 9's tail", k)
						}
						b := binary.BigEndian.Uint16(k[len(k)-2:])
						if !part.holds(uint64(b) << (64 - tt.bits)) {
							t.Fatalf("part %x–%x wrote block %d of %d bits", part.lo, part.hi, b, tt.bits)
						}
						if merged[b] != nil {
							t.Fatalf("block %d written twice", b)
						}
						merged[b] = slices.Clone(v)
						return nil
					})
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			return merged
		}
		merged := mergeIn(keyRange{end: true})
		if halves := mergeIn(keyRange{hi: 1 << 63}, keyRange{lo: 1 << 63, end: true}); !maps.EqualFunc(merged, halves, bytes.Equal) {
			t.Fatalf("runs %v at %d bits: merged in halves, %d blocks differ from merged whole", tt.runs, tt.bits, len(merged)-len(halves))
		}
		grid := slices.Min(from)
		var parts []keyRange // of 3, 1 and 5 slices of the coarsest run's blocks
		for u, i := 0, 0; u < 1<<grid; i++ {
			next := min(1<<grid, u+[]int{3, 1, 5}[i%3])
			parts = append(parts, keyRange{lo: uint64(u) << (64 - grid), hi: uint64(next) << (64 - grid), end: next == 1<<grid})
			u = next
		}
		if inParts := mergeIn(parts...); !maps.EqualFunc(merged, inParts, bytes.Equal) {
			t.Fatalf("runs %v at %d bits: merged in %d parts, %d blocks differ from merged whole", tt.runs, tt.bits, len(parts), len(merged)-len(inParts))
		}
		if len(merged) > 1<<tt.bits {
			t.Fatalf("%d merged blocks at %d bits", len(merged), tt.bits)
		}
		stray, n := 0, 0
		for _, p := range all {
			if !slices.Contains(tt.runs, (p.gid-1)/perRun+1) {
				continue
			}
			n++
			gids, err := lookupTail(merged[tailBlock(p.key, tt.bits)], p.key, tt.bits, nil)
			if err != nil || !slices.Contains(gids, p.gid) {
				t.Fatalf("runs %v merged at %d bits lost game %d: %v", tt.runs, tt.bits, p.gid, err)
			}
			stray += len(gids) - 1
		}
		if per := float64(stray) / float64(n); per > 2 {
			t.Errorf("runs %v merged at %d bits: %.2f stray matches a lookup", tt.runs, tt.bits, per)
		}
	}
}

// BenchmarkLookupTail times a lookup in a block of the size a
// million-game run's blocks have (about 4,900 postings): every tree at a
// position that is not popular decodes one such block a run.
func BenchmarkLookupTail(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 4900
	es := make([]tailEntry, n)
	for i := range es {
		es[i] = tailEntry{rng.Uint32N(1_000_000) + 1, rng.Uint64() << tailBucketBits}
	}
	block := encodeTail(nil, es, fingerprintBits(n))
	key := rng.Uint64()
	var dst []uint32
	b.SetBytes(int64(len(block)))
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if dst, err = lookupTail(block, key, tailBucketBits, dst[:0]); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMergedBlocksKeepTheRunsMeanWidth: twenty runs of a million-game
// import, their blocks of about 230 entries (spread as random keys spread
// them: the square root, 15), each block's width chosen for its run's
// mean block so far (blockMean): merged, the blocks keep the width the
// mean asks for. Chosen for each block's own size, a block below 205
// entries in any of the twenty runs made the merged one a bit narrower:
// more than half of them.
func TestMergedBlocksKeepTheRunsMeanWidth(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const runs, buckets = 20, 200
	scale := runScale(1_000_000, 50_000)
	narrowest := make([]int, buckets)    // by the runs' mean
	ownNarrowest := make([]int, buckets) // by each block's own size
	for b := range narrowest {
		narrowest[b], ownNarrowest[b] = 64, 64
	}
	for r := 0; r < runs; r++ {
		var sizes blockMean
		for b := 0; b < buckets; b++ {
			n := 230 + int(15*rng.NormFloat64())
			narrowest[b] = min(narrowest[b], tailWidth(sizes.add(n), scale))
			ownNarrowest[b] = min(ownNarrowest[b], tailWidth(n, scale))
		}
	}
	want := fingerprintBits(runs * 230) // what the merged blocks' size asks for
	narrow, ownNarrow := 0, 0
	for b := range narrowest {
		if narrowest[b] < want {
			narrow++
		}
		if ownNarrowest[b] < want {
			ownNarrow++
		}
	}
	t.Logf("merged blocks narrower than %d bits: %d of %d by the mean, %d by their own size", want, narrow, buckets, ownNarrow)
	// The first blocks of a run have no mean yet.
	if narrow > buckets/20 {
		t.Errorf("%d of %d merged blocks narrower than %d bits, want at most %d", narrow, buckets, want, buckets/20)
	}
	if ownNarrow < buckets/4 {
		t.Errorf("by each block's own size %d of %d merged blocks narrower: the test no longer spreads the blocks as runs do", ownNarrow, buckets)
	}
}

// TestTailWriterWidthsFollowTheRunsMean: the tail writer gives each block
// the width of the run's mean block so far (blockMean), not its own
// size's: a run of a million-game import, its blocks of about 230
// entries, scale 20, writes nearly every block at the width 4,600
// entries ask for, though one block in twenty is small enough to ask for
// a bit less.
func TestTailWriterWidthsFollowTheRunsMean(t *testing.T) {
	s, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rng := rand.New(rand.NewPCG(11, 12))
	const run, blocks = 1, 200
	scale := runScale(1_000_000, 50_000)
	wb := s.newBatch()
	var tw tailWriter
	tw.init(wb, run, scale, tailBucketBits)
	ownNarrow, gid := 0, uint32(0)
	want := fingerprintBits(230 * 20)
	for b := range blocks {
		if err := tw.enter(engine.Chess, uint16(b)); err != nil {
			t.Fatal(err)
		}
		n := 230 + int(15*rng.NormFloat64())
		if tailWidth(n, scale) < want {
			ownNarrow++
		}
		for range n {
			gid += 1 + rng.Uint32N(40)
			tw.entries = append(tw.entries, tailEntry{gid, rng.Uint64() << tw.bits})
		}
	}
	if err := tw.finish(); err != nil {
		t.Fatal(err)
	}
	if err := wb.Flush(); err != nil {
		t.Fatal(err)
	}
	if ownNarrow < 4 {
		t.Fatalf("%d of %d blocks small enough to ask for fewer bits: the test no longer spreads the blocks as runs do", ownNarrow, blocks)
	}
	read, narrow := 0, 0
	err = s.viewRuns(func(txn *view) error {
		for b := range blocks {
			err := readValue(txn, tailKey(byte(engine.Chess), run, uint16(b)), func(v []byte) error {
				read++
				r, err := newTailReader(v)
				if err == nil && int(r.w) < want {
					narrow++
				}
				return err
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if read != blocks {
		t.Fatalf("read %d blocks back, wrote %d", read, blocks)
	}
	// The first blocks of a run have no mean yet.
	if narrow > 1 {
		t.Errorf("%d of %d blocks narrower than %d bits, want at most 1 (%d by their own sizes)", narrow, blocks, want, ownNarrow)
	}
}
