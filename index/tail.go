package index

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
)

// Tail blocks hold the postings of positions that are not popular. A
// position key's top bits name its block (one Badger value per block and
// run): tailBucketBits of them, or fewer in a small run (its bucket bits,
// tailBitsFor); the next bits are its fingerprint inside the block, as
// many as the block needs to keep stray matches rare (at least 8, and
// the bits of the block's size: fingerprintBits) plus, in a small run's
// block, the bucket bits it lacks, so that merges can file its postings
// into finer blocks.
// A lookup returns every game whose posting shares the bucket and
// fingerprint; the caller replays each to verify, so a stray match costs
// time, never a wrong answer.
const tailBucketBits = 14

// minTailBits is the fewest bucket bits of a run: a block's fingerprints
// then carry up to 8 bits more, 32 at most (maxTailWidth).
const (
	minTailBits  = 6
	maxTailWidth = 32
)

// tailBitsFor is the bucket bits of a run of games games: a block of about
// 64 postings at some 80 positions a game, never more blocks than
// tailBucketBits gives. A run of 100 games had 7,000 blocks of one or two
// postings at 14 bits, each a Badger key that its import, every compaction
// and every merge of small runs handled (issue 18: 100-game imports); it
// has 128 at 7 bits. A lookup reads one block a run either way.
func tailBitsFor(games int) int {
	if fullTailsOnly {
		return tailBucketBits
	}
	return max(minTailBits, min(tailBucketBits, bits.Len(uint(games))))
}

// fullTailsOnly makes every run a full one, as xqdb wrote them before
// schema version 8: tests build the stores of older versions with it.
var fullTailsOnly = false

// tailEntry is one tail posting: game gid reached a position whose key has
// the block's bucket; key holds the key bits below the bucket, aligned to
// the top (print compares the fingerprint width in use).
type tailEntry struct {
	gid uint32
	key uint64 // key << the run's bucket bits (tailBitsFor)
}

func tailBucket(key uint64) uint16 { return tailBlock(key, tailBucketBits) }

// tailBlock is the block of key in a run of bucket bits b.
func tailBlock(key uint64, b int) uint16 { return uint16(key >> (64 - b)) }

// printOf returns the fingerprint of width w of a key shifted left by the
// bucket bits.
func printOf(shifted uint64, w int) uint32 { return uint32(shifted >> (64 - w)) }

// fingerprintBits is the fingerprint width for a block of n entries: a
// half to one stray match per lookup, never fewer than 8 bits. Each
// stray costs a replay of a game, a block of records read and decoded:
// one bit more than one or two strays take made trees at a million games
// 19–22% faster at p50 (fresh processes; 27% warm), the store 2.2%
// larger (the pgnmentor corpus 1.8%; issue 18). A writer passes the n its
// block will have once runs are merged (tailWidth), not the n it writes.
func fingerprintBits(n int) int { return max(8, min(24, bits.Len(uint(n)))) }

// tailWidth is the fingerprint width of a block of n entries written by a
// run whose blocks will grow by scale (the games of the store once the
// import is done, to the run's games) as runs merge. A merge keeps the
// narrowest width of the blocks it merges, since bits a block dropped
// cannot be recovered; so a block written as wide as its own size needs
// ends, merged, with a stray per 256 entries. A million games imported in
// runs of 50,000 gave merged blocks of 4,900 entries with 8-bit
// fingerprints: 19 stray replays per tree lookup (issue 18).
func tailWidth(n int, scale float64) int {
	return fingerprintBits(max(n, int(float64(n)*scale)))
}

// besideTailWidth is the narrowest fingerprint of a run that gets a
// position filter (filterWanted: a small run beside larger ones). Sized
// for the store it will be merged into, such a run's blocks had 11 or 12
// bits; merged by tiers among their peers, they stay beside the large
// runs for a long time, and every lookup read each of them: a 40,000-game
// run's blocks of about 190 entries gave a stray replay in 8% to 11% of
// the lookups that reached it, and its filter, which can only hash the
// bits a merge knows (bucket and fingerprint: 25), let that many through
// (issue 18: after ten growth imports at a million games, 100 stray
// replays more over 1,000 trees). At 16 bits, blocks of the largest
// filtered run (filterMaxGames, about 600 entries) give one in a hundred.
// A merge keeps the narrowest width, so once merged into a large run
// they cost nothing more; until then, 4 or 5 bits more a posting (a
// fifth more tail for such a run: 4 MB over 100,000 games added).
const besideTailWidth = 16

// tailWidthAt is tailWidth for a block of n entries of a run of bucket
// bits b: the bits between its bucket and a full one, then the width the
// full blocks it covers (n/2^(tailBucketBits-b) entries each) will need.
func tailWidthAt(n int, scale float64, b int) int {
	shift := tailBucketBits - b
	return shift + fingerprintBits(max(n, int(float64(n)*scale))>>shift)
}

// tailWidthKept is the fingerprint width a block asked for width keeps.
func tailWidthKept(width int) int { return max(8, min(width, maxTailWidth)) }

// encodeTail packs entries (any order; sorted here) into a block:
//
//	uvarint n | byte fingerprint bits | byte k | bits...
//
// Entries are in gid order; each is its gid's gap from the previous one,
// Rice-coded with parameter k (unary quotient, then k low bits), followed
// by its fingerprint. With ~600 entries per block over ~150,000 games that
// is about 10 bits for the gid and 10 for the fingerprint: 2.5 bytes.
//
// width is the fingerprint width (8 to maxTailWidth): tailWidthAt for
// postings with full keys; a merge of blocks passes the narrowest of their
// widths, since bits a block dropped cannot be recovered (fewer bits only
// add stray matches; more would lose postings).
func encodeTail(dst []byte, es []tailEntry, width int) []byte {
	n := len(es)
	w := tailWidthKept(width)
	byGid := func(a, b tailEntry) int {
		if a.gid != b.gid {
			return int(a.gid) - int(b.gid)
		}
		return cmp.Compare(printOf(a.key, w), printOf(b.key, w))
	}
	// Writers and merges hand entries nearly in order already.
	if !slices.IsSortedFunc(es, byGid) {
		slices.SortFunc(es, byGid)
	}
	k := 0
	if n > 0 {
		// Rice parameter near log2(mean gap · ln 2).
		mean := float64(es[n-1].gid) / float64(n)
		// k+w bits follow the quotient: decodeTail reads them in one
		// window of at least 57.
		for k < min(31, 57-w) && float64(uint64(1)<<(k+1)) <= mean*0.69 {
			k++
		}
	}
	// The block's exact size first: it is allocated once (a merge encodes
	// tens of thousands of blocks; growing each bit by bit was a tenth of
	// a tier merge's CPU, issue 18).
	nbits := uint64(0)
	prev := uint32(0)
	for _, e := range es {
		nbits += uint64((e.gid-prev)>>k) + 1 + uint64(k+w)
		prev = e.gid
	}
	dst = slices.Grow(dst, binary.MaxVarintLen64+2+int((nbits+7)/8))
	dst = binary.AppendUvarint(dst, uint64(n))
	dst = append(dst, byte(w), byte(k))
	bw := bitWriter{buf: dst}
	prev = 0
	for _, e := range es {
		gap := e.gid - prev
		prev = e.gid
		// The quotient in unary: ones, then a zero.
		q := gap >> k
		for ; q >= 31; q -= 31 {
			bw.write(1<<31-1, 31)
		}
		bw.write(1<<q-1, int(q)+1)
		bw.write(uint64(gap)&(1<<k-1), k)
		bw.write(uint64(printOf(e.key, w)), w)
	}
	return bw.flush()
}

// decodeTail calls fn for every entry of a block, in gid order, with its
// fingerprint and the fingerprint's width.
func decodeTail(b []byte, fn func(gid, print uint32, width int)) error {
	r, err := newTailReader(b)
	if err != nil {
		return err
	}
	for r.left > 0 {
		gid, print, err := r.next()
		if err != nil {
			return err
		}
		fn(gid, print, int(r.w))
	}
	return nil
}

// lookupTail appends the gids whose posting matches key's fingerprint in
// block b of a run of bucket bits bucketBits. Every tree at a position
// that is not popular decodes one block a run, thousands of entries in a
// large database: a block of 4,900 entries takes 24 µs in this loop, 30
// through decodeTail's callback (BenchmarkLookupTail).
func lookupTail(b []byte, key uint64, bucketBits int, dst []uint32) ([]uint32, error) {
	r, err := newTailReader(b)
	if err != nil {
		return dst, err
	}
	want := printOf(key<<bucketBits, int(r.w))
	for r.left > 0 {
		gid, print, err := r.next()
		if err != nil {
			return dst, err
		}
		if print == want && (len(dst) == 0 || dst[len(dst)-1] != gid) {
			dst = append(dst, gid)
		}
	}
	return dst, nil
}

// tailReader reads a tail block's entries in gid order, the bits 64 at a
// time (read bit by bit, decoding a block was the better part of a tree's
// time).
type tailReader struct {
	buf       []byte // the entries' bits
	pos       uint64 // the bit read next
	total     uint64 // the bits of buf
	left      uint64 // entries not read yet
	w, k      uint64 // fingerprint width, Rice parameter
	low, mask uint64 // k and w low bits
	gid       uint64 // the last entry's
}

func newTailReader(b []byte) (tailReader, error) {
	n, m := binary.Uvarint(b)
	if m <= 0 || len(b) < m+2 {
		return tailReader{}, fmt.Errorf("index: corrupt tail block header")
	}
	w, k := uint64(b[m]), uint64(b[m+1])
	if w < 8 || w > maxTailWidth || k > 31 || k+w > 57 || n > uint64(len(b))*8 {
		return tailReader{}, fmt.Errorf("index: corrupt tail block parameters")
	}
	buf := b[m+2:]
	return tailReader{buf: buf, total: uint64(len(buf)) * 8, left: n, w: w, k: k,
		low: 1<<k - 1, mask: 1<<w - 1}, nil
}

// next decodes the next entry (left > 0): the gap's quotient in unary
// (ones, then a zero), its k low bits and the fingerprint, from one
// window unless the quotient is long.
func (r *tailReader) next() (gid, print uint32, err error) {
	r.left--
	v := r.window()
	ones := uint64(bits.TrailingZeros64(^v))
	if ones+1+r.k+r.w <= 57 {
		r.pos += ones + 1
		v >>= ones + 1
	} else {
		q := uint64(0)
		for ones >= 57 {
			q += 56
			r.pos += 56
			if r.pos > r.total || q > 1<<32 {
				return 0, 0, fmt.Errorf("index: corrupt tail block")
			}
			ones = uint64(bits.TrailingZeros64(^r.window()))
		}
		r.pos += ones + 1
		v = r.window()
		ones += q
	}
	r.gid += ones<<r.k | v&r.low
	r.pos += r.k + r.w
	if r.pos > r.total || r.gid > 0xFFFFFFFF {
		return 0, 0, fmt.Errorf("index: corrupt tail block")
	}
	return uint32(r.gid), uint32(v >> r.k & r.mask), nil
}

// window returns the bits from pos on: at least 57 of them, zeros past
// the end.
func (r *tailReader) window() uint64 {
	if i := r.pos >> 3; i+8 <= uint64(len(r.buf)) {
		return binary.LittleEndian.Uint64(r.buf[i:]) >> (r.pos & 7)
	}
	var tmp [8]byte
	copy(tmp[:], r.buf[min(r.pos>>3, uint64(len(r.buf))):])
	return binary.LittleEndian.Uint64(tmp[:]) >> (r.pos & 7)
}

type bitWriter struct {
	buf  []byte
	acc  uint64
	nacc int
}

// write appends the n (≤ 32) low bits of v.
func (w *bitWriter) write(v uint64, n int) {
	w.acc |= (v & (1<<n - 1)) << w.nacc
	w.nacc += n
	for w.nacc >= 8 {
		w.buf = append(w.buf, byte(w.acc))
		w.acc >>= 8
		w.nacc -= 8
	}
}

func (w *bitWriter) flush() []byte {
	if w.nacc > 0 {
		w.buf = append(w.buf, byte(w.acc))
		w.acc, w.nacc = 0, 0
	}
	return w.buf
}
