package chess

import (
	"math/bits"

	"github.com/xqdb/xqdb/engine"
)

// Attack tables, built once at package initialisation.
//
// Bishops use "fancy" magic bitboards: the occupancy of a square's
// relevant rays (the rays without their edge square) is multiplied by a
// per-square magic number and shifted to a dense index into a shared
// table of 41 KB. The magics come from gen_magics.go; init checks every
// index, so a bad magic cannot go unnoticed. Rooks take no such table
// (rookAttacks).
var (
	knightAttacks [64]uint64
	kingAttacks   [64]uint64
	pawnAttacks   [2][64]uint64 // [colour][square]: squares a pawn there attacks

	// betweenBB[a][b] holds the squares strictly between a and b when they
	// share a rank, file or diagonal, else 0.
	betweenBB [64][64]uint64
	// lineBB[a][b] holds the whole line (edge to edge) through a and b when
	// they are aligned, else 0. A pinned piece may move only along it.
	lineBB [64][64]uint64

	bishopTable  [5248]uint64
	bishopMagics [64]magicEntry
	// rankAttacks[o][f] are a rook's attacks along its rank from file f
	// when the rank's inner squares (b–g) are occupied as bits 0–5 of o.
	rankAttacks [64][8]uint8
)

type magicEntry struct {
	mask   uint64
	magic  uint64
	offset uint32
	shift  uint8
}

var (
	rookDirs   = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

// rookAttacks returns a rook's attacks from s: along the file by
// hyperbola quintessence (the subtraction trick, the ray below the rook
// mirrored by a byte swap), along the rank from rankAttacks. A rook's
// magic table is 800 KB, and the import's replay, which asks for rook
// attacks at nearly every move (the moves it ranks, the pins), met it out
// of the caches: without it the pgnmentor import went from 5.29 to 4.77 s
// (six alternating pairs) and BenchmarkReplayRankGames from 7.1 to 6.5 ms;
// perft, whose tables stay in the caches, lost about 5% (issue 18).
func rookAttacks(s Square, occ uint64) uint64 {
	s &= 63
	sq := uint64(1) << s
	file := fileA << (s & 7) &^ sq
	o := occ & file
	f := ((o - sq) ^ bits.ReverseBytes64(bits.ReverseBytes64(o)-bits.ReverseBytes64(sq))) & file
	sh := s &^ 7
	return f | uint64(rankAttacks[(occ>>(sh+1))&63][s&7])<<sh
}

func bishopAttacks(s Square, occ uint64) uint64 {
	m := &bishopMagics[s&63]
	return bishopTable[m.offset+uint32(((occ&m.mask)*m.magic)>>m.shift)]
}

func queenAttacks(s Square, occ uint64) uint64 {
	return rookAttacks(s, occ) | bishopAttacks(s, occ)
}

// slideAttacks is the slow reference for slider attacks, used to fill the
// tables and by tests.
func slideAttacks(s Square, occ uint64, dirs *[4][2]int) uint64 {
	var a uint64
	f0, r0 := s.File(), s.Rank()
	for _, d := range dirs {
		for f, r := f0+d[0], r0+d[1]; f >= 0 && f < 8 && r >= 0 && r < 8; f, r = f+d[0], r+d[1] {
			b := bit(NewSquare(f, r))
			a |= b
			if occ&b != 0 {
				break
			}
		}
	}
	return a
}

// initAttacks fills the tables; see init.go for the order of set-up.
func initAttacks() {
	initLeapers()
	initSliders(bishopMagics[:], bishopTable[:], &bishopMagicNumbers, &bishopDirs)
	initRanks()
	initLines()
}

func initRanks() {
	for o := range 64 {
		for f := range 8 {
			// The first rank's share of the ray walk, with the inner
			// squares occupied as o says.
			rankAttacks[o][f] = uint8(slideAttacks(Square(f), uint64(o)<<1, &rookDirs) & rank1)
		}
	}
}

func initLeapers() {
	knight := [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	king := [8][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}
	for s := Square(0); s < 64; s++ {
		f, r := s.File(), s.Rank()
		add := func(dst *uint64, df, dr int) {
			if nf, nr := f+df, r+dr; nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
				*dst |= bit(NewSquare(nf, nr))
			}
		}
		for _, d := range knight {
			add(&knightAttacks[s], d[0], d[1])
		}
		for _, d := range king {
			add(&kingAttacks[s], d[0], d[1])
		}
		add(&pawnAttacks[engine.First][s], -1, 1)
		add(&pawnAttacks[engine.First][s], 1, 1)
		add(&pawnAttacks[engine.Second][s], -1, -1)
		add(&pawnAttacks[engine.Second][s], 1, -1)
	}
}

func initSliders(entries []magicEntry, table []uint64, magics *[64]uint64, dirs *[4][2]int) {
	var offset uint32
	for s := Square(0); s < 64; s++ {
		// The relevant mask: the full rays minus their edge squares.
		var mask uint64
		f0, r0 := s.File(), s.Rank()
		for _, d := range dirs {
			for f, r := f0+d[0], r0+d[1]; ; f, r = f+d[0], r+d[1] {
				nf, nr := f+d[0], r+d[1]
				if nf < 0 || nf > 7 || nr < 0 || nr > 7 {
					break
				}
				mask |= bit(NewSquare(f, r))
			}
		}
		n := popcount(mask)
		e := &entries[s]
		*e = magicEntry{mask: mask, magic: magics[s], offset: offset, shift: uint8(64 - n)}
		filled := make([]bool, 1<<n)
		var sub uint64
		for {
			idx := uint32((sub * e.magic) >> e.shift)
			att := slideAttacks(s, sub, dirs)
			if filled[idx] && table[offset+idx] != att {
				panic("chess: bad magic for square " + s.String())
			}
			filled[idx] = true
			table[offset+idx] = att
			sub = (sub - mask) & mask
			if sub == 0 {
				break
			}
		}
		offset += 1 << n
	}
	if int(offset) != len(table) {
		panic("chess: magic table size mismatch")
	}
}

func initLines() {
	for a := Square(0); a < 64; a++ {
		for _, dirs := range []*[4][2]int{&rookDirs, &bishopDirs} {
			att := slideAttacks(a, 0, dirs)
			for b := Square(0); b < 64; b++ {
				if a == b || att&bit(b) == 0 {
					continue
				}
				betweenBB[a][b] = slideAttacks(a, bit(b), dirs) & slideAttacks(b, bit(a), dirs)
				lineBB[a][b] = (att & slideAttacks(b, 0, dirs)) | bit(a) | bit(b)
			}
		}
	}
}
