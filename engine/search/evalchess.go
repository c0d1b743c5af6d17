package search

import (
	"math/bits"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/chess"
)

// The chess evaluation: material and piece-square values written for this
// project (centralisation for the pieces, advancement for pawns, a
// sheltered king in the middlegame and an active one in the endgame),
// mobility, pawn structure (passed, isolated, doubled), rooks on open
// files, the bishop pair and the king's pawn shield, tapered between
// middlegame and endgame by the pieces left.

var (
	chessMG, chessEG [7][64]int16
	passedMask       [2][64]uint64
	fileMask         [8]uint64
	adjacentFiles    [8]uint64
	mobMG            = [7]int{chess.Knight: 4, chess.Bishop: 5, chess.Rook: 2, chess.Queen: 1}
	mobEG            = [7]int{chess.Knight: 4, chess.Bishop: 5, chess.Rook: 4, chess.Queen: 2}
	phaseWeight      = [7]int{chess.Knight: 1, chess.Bishop: 1, chess.Rook: 2, chess.Queen: 4}
	passedBonusEG    = [8]int{0, 10, 15, 25, 45, 75, 120, 0}
)

func init() {
	for s := 0; s < 64; s++ {
		f, r := s&7, s>>3
		fd, rd := float64(f)-3.5, float64(r)-3.5
		if fd < 0 {
			fd = -fd
		}
		if rd < 0 {
			rd = -rd
		}
		cd := max(fd, rd) // 0.5 in the centre … 3.5 on the edge
		centre := 3.5 - cd
		pawnMG := [8]int{0, 0, 0, 5, 10, 20, 40, 0}
		pawnEG := [8]int{0, 0, 5, 10, 20, 35, 60, 0}
		chessMG[chess.Pawn][s] = int16(100 + pawnMG[r])
		if (f == 3 || f == 4) && (r == 3 || r == 4) {
			chessMG[chess.Pawn][s] += 15
		}
		chessEG[chess.Pawn][s] = int16(120 + pawnEG[r])
		chessMG[chess.Knight][s] = int16(320 + int(centre*12) - 12)
		chessEG[chess.Knight][s] = int16(300 + int(centre*10) - 10)
		chessMG[chess.Bishop][s] = int16(330 + int(centre*6))
		chessEG[chess.Bishop][s] = int16(320 + int(centre*6))
		chessMG[chess.Rook][s] = 500
		if r == 6 {
			chessMG[chess.Rook][s] += 20
		}
		chessEG[chess.Rook][s] = 550
		chessMG[chess.Queen][s] = int16(950 + int(centre*3))
		chessEG[chess.Queen][s] = int16(1000 + int(centre*6))
		switch {
		case r == 0 && (f <= 2 || f >= 6):
			chessMG[chess.King][s] = 20
		case r == 0:
			chessMG[chess.King][s] = 0
		default:
			chessMG[chess.King][s] = int16(-20 * min(r, 4))
		}
		chessEG[chess.King][s] = int16(int(centre*14) - 20)
	}
	for f := 0; f < 8; f++ {
		fileMask[f] = 0x0101010101010101 << f
	}
	for f := 0; f < 8; f++ {
		if f > 0 {
			adjacentFiles[f] |= fileMask[f-1]
		}
		if f < 7 {
			adjacentFiles[f] |= fileMask[f+1]
		}
	}
	for s := 0; s < 64; s++ {
		f, r := s&7, s>>3
		span := fileMask[f] | adjacentFiles[f]
		for rr := 0; rr < 8; rr++ {
			row := uint64(0xff) << (8 * rr)
			if rr > r {
				passedMask[0][s] |= span & row
			}
			if rr < r {
				passedMask[1][s] |= span & row
			}
		}
	}
}

// evalChess scores p for the side to move.
func evalChess(p *chess.Position) int {
	occ := p.Occupied(chess.White) | p.Occupied(chess.Black)
	var mg, eg [2]int
	phase := 0
	var bishops [2]int
	var nonPawn [2]int
	var pawnCount [2]int
	for c := engine.Color(0); c < 2; c++ {
		own := p.Occupied(c)
		pawns := p.Pieces(chess.NewPiece(c, chess.Pawn))
		enemyPawns := p.Pieces(chess.NewPiece(c^1, chess.Pawn))
		pawnCount[c] = bits.OnesCount64(pawns)
		for t := chess.Pawn; t <= chess.King; t++ {
			for bb := p.Pieces(chess.NewPiece(c, t)); bb != 0; bb &= bb - 1 {
				s := bits.TrailingZeros64(bb)
				rel := s
				if c == chess.Black {
					rel = s ^ 56
				}
				mg[c] += int(chessMG[t][rel])
				eg[c] += int(chessEG[t][rel])
				f := s & 7
				switch t {
				case chess.Pawn:
					if passedMask[c][s]&enemyPawns == 0 {
						b := passedBonusEG[rel>>3]
						mg[c] += b / 2
						eg[c] += b
					}
					if adjacentFiles[f]&pawns == 0 {
						mg[c] -= 10
						eg[c] -= 15
					}
					if passedMask[c][s]&fileMask[f]&pawns != 0 {
						mg[c] -= 10
						eg[c] -= 20
					}
				case chess.King:
					if rel>>3 <= 1 {
						shield := pawns & (fileMask[f] | adjacentFiles[f]) & passedMask[c][s]
						mg[c] += 10 * min(bits.OnesCount64(shield), 3)
					}
				default:
					mob := bits.OnesCount64(chess.Attacks(t, c, chess.Square(s), occ) &^ own)
					mg[c] += mobMG[t] * mob
					eg[c] += mobEG[t] * mob
					phase += phaseWeight[t]
					nonPawn[c] += chessOrderValue[t]
					if t == chess.Bishop {
						bishops[c]++
					}
					if t == chess.Rook {
						switch {
						case fileMask[f]&(pawns|enemyPawns) == 0:
							mg[c] += 25
							eg[c] += 10
						case fileMask[f]&pawns == 0:
							mg[c] += 12
							eg[c] += 5
						}
					}
				}
			}
		}
		if bishops[c] >= 2 {
			mg[c] += 30
			eg[c] += 50
		}
	}
	phase = min(phase, 24)
	v := ((mg[0]-mg[1])*phase + (eg[0]-eg[1])*(24-phase)) / 24
	// Without pawns, a side less than a rook ahead rarely wins.
	if v > 0 && pawnCount[0] == 0 && nonPawn[0]-nonPawn[1] < 400 || v < 0 && pawnCount[1] == 0 && nonPawn[1]-nonPawn[0] < 400 {
		v /= 4
	}
	if p.SideToMove() == chess.Black {
		v = -v
	}
	return v + 10
}
