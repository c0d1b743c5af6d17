package chess

// Zobrist keys are Polyglot's (ANCHORS §5): the XOR of Random64 entries for
// every piece (index 64*kind + square, kind bp0 wp1 bn2 wn3 … bk10 wk11),
// every castling right (768 W O-O, 769 W O-O-O, 770 B O-O, 771 B O-O-O), the
// e.p. file (772+file) when a pawn of the side to move stands beside the
// pawn that just double-stepped, and 780 when White is to move. make/unmake
// keep the key incrementally; computeKey is the reference.
var (
	zPiece  [16][64]uint64 // [Piece][Square]
	zCastle [16]uint64     // XOR of the rights in the 4-bit castling set
	zEP     [8]uint64      // [file]
	zTurn   uint64         // XORed in when White is to move
)

// initZobrist fills the key tables from polyglotRandom.
func initZobrist() {
	for pt := Pawn; pt <= King; pt++ {
		for c := White; c <= Black; c++ {
			kind := 2*int(pt-1) + 1 - int(c) // black even, white odd
			for s := 0; s < 64; s++ {
				zPiece[NewPiece(c, pt)][s] = polyglotRandom[64*kind+s]
			}
		}
	}
	for rights := 0; rights < 16; rights++ {
		for i := 0; i < 4; i++ {
			if rights&(1<<i) != 0 {
				zCastle[rights] ^= polyglotRandom[768+i]
			}
		}
	}
	for f := 0; f < 8; f++ {
		zEP[f] = polyglotRandom[772+f]
	}
	zTurn = polyglotRandom[780]
}

// computeKey computes the key of b from scratch.
func (b *board) computeKey() uint64 {
	var k uint64
	for s := Square(0); s < 64; s++ {
		if p := b.sq[s]; p != NoPiece {
			k ^= zPiece[p][s]
		}
	}
	k ^= zCastle[b.castle]
	if b.ep != NoSquare {
		k ^= zEP[b.ep.File()]
	}
	if b.side == White {
		k ^= zTurn
	}
	return k
}
