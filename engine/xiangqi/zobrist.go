package xiangqi

import "github.com/xqdb/xqdb/engine"

// Zobrist keys are stored on disk by the database, so the table is frozen:
// it is generated at start-up by SplitMix64 from a fixed seed, and a golden
// test pins its checksum and the keys of known positions. Changing anything
// here is a database format migration (bump the index schema version).
//
// Order of generation: for Red then Black, for kinds General, Advisor,
// Elephant, Horse, Chariot, Cannon, Soldier, for squares 0–89 (9*rank+file)
// one value each; then one value for Black to move.
const ZobristSeed uint64 = 0x7871_6462_2d7a_6f62 // "xqdb-zob" in ASCII

var (
	// zobPiece[c*8+kind][sq] for mailbox squares; zero off the board.
	zobPiece [16][256]uint64
	// zobBlack is XORed in when Black is to move.
	zobBlack uint64
)

// splitMix64 is Steele, Lea and Flood's SplitMix64 generator: tiny,
// well-mixed and easy to reimplement from the paper, so the table can be
// rebuilt anywhere.
type splitMix64 uint64

func (s *splitMix64) next() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func init() {
	g := splitMix64(ZobristSeed)
	for c := 0; c < 2; c++ {
		for k := General; k <= Soldier; k++ {
			for i := 0; i < NumFiles*NumRanks; i++ {
				zobPiece[c*8+int(k)][SquareFrom90(i)] = g.next()
			}
		}
	}
	zobBlack = g.next()
}

// zobIndex maps a piece id to its row in zobPiece.
var zobIndex [numIDs]uint8

func init() {
	for id := 16; id < numIDs; id++ {
		zobIndex[id] = uint8(colorOf(uint8(id)))*8 + uint8(kindOf[id])
	}
}

// ZobristPiece returns the key component of a piece of kind k and colour c
// on sq (exported for tools that build keys without a Position).
func ZobristPiece(c engine.Color, k Kind, sq uint8) uint64 { return zobPiece[int(c)*8+int(k)][sq] }

// ZobristBlackToMove returns the key component XORed in when Black moves.
func ZobristBlackToMove() uint64 { return zobBlack }

// computeKey recomputes the key from scratch (set-up and tests; Make keeps
// it incrementally).
func (p *Position) computeKey() uint64 {
	var k uint64
	for id := uint8(16); id < numIDs; id++ {
		if sq := p.sq[id]; sq != 0 {
			k ^= zobPiece[zobIndex[id]][sq]
		}
	}
	if p.side == engine.Second {
		k ^= zobBlack
	}
	return k
}

// RecomputeKey returns the key computed from scratch; tests compare it with
// the incrementally kept Key.
func (p *Position) RecomputeKey() uint64 { return p.computeKey() }
