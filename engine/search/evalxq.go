package search

import (
	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

// The Xiangqi evaluation, in centipawns of a soldier before the river
// (100). Material and piece-square values come from xqSquareValue, written
// for this project from the pieces' moves (RULES X2–X9):
//
//   - a soldier is worth about double once across the river, where it may
//     also move sideways (X9), more still near the enemy palace, and little
//     on the last rank, where it can only move sideways;
//   - a horse is worth more in the centre and advanced, less on an edge
//     file, and more as the board empties (fewer pieces block its leg);
//   - a cannon is worth more on the central file and while the board is
//     full, since it captures only over a screen (X8); one with a single
//     screen between it and the enemy general pins or threatens;
//   - advisors and elephants defend: a general missing them loses points
//     in proportion to the attackers the enemy has left.
//
// Dynamic terms: chariot and horse mobility, the cannon's screens, and
// king safety. With no attacking piece left on either side (RULES X16)
// the game cannot be won and the evaluation is 0.

// xqPST[kind][sq] is material plus placement for Red; Black reads the
// square mirrored top to bottom.
var xqPST [8][256]int16

func xqSquareValue(k xiangqi.Kind, f, r int) int {
	cf := f - 4
	if cf < 0 {
		cf = -cf
	}
	switch k {
	case xiangqi.Soldier:
		switch {
		case r <= 2:
			return 90
		case r <= 4:
			v := 100
			if r == 4 && f%2 == 0 {
				v += 10 // advanced to the river bank, ready to cross
			}
			return v
		case r == 9:
			return 130 // can only move sideways
		}
		v := 190 + 12*(r-5)
		if r >= 6 && cf <= 1 {
			v += 40 // next to or in the enemy palace
		} else if r >= 6 && cf == 2 {
			v += 15
		}
		return v
	case xiangqi.Horse:
		adv := [10]int{-10, 0, 5, 15, 25, 30, 35, 35, 15, -5}
		v := 430 + 6*(4-cf) + adv[r]
		if f == 0 || f == 8 {
			v -= 25
		}
		if (r == 7 || r == 6) && (cf == 2 || cf == 1) {
			v += 20 // points that attack the palace
		}
		return v
	case xiangqi.Cannon:
		v := 450
		if f == 4 && r <= 3 {
			v += 25 // the central cannon
		}
		if r == 9 || r == 8 {
			v += 5
		}
		return v - 3*cf
	case xiangqi.Chariot:
		v := 1000
		if r >= 5 {
			v += 15
		}
		if f == 3 || f == 5 {
			v += 10 // the rib files beside the palace
		}
		return v
	case xiangqi.Advisor:
		if f == 4 {
			return 210
		}
		return 200
	case xiangqi.Elephant:
		v := 200
		if f == 4 {
			v += 10
		}
		if f == 0 || f == 8 {
			v -= 10
		}
		return v
	case xiangqi.General:
		return -15*r - 5*cf
	}
	return 0
}

func init() {
	for k := xiangqi.General; k <= xiangqi.Soldier; k++ {
		for f := 0; f < xiangqi.NumFiles; f++ {
			for r := 0; r < xiangqi.NumRanks; r++ {
				xqPST[k][xiangqi.Square(f, r)] = int16(xqSquareValue(k, f, r))
			}
		}
	}
	for sq := 0; sq < 256; sq++ {
		f, r := xiangqi.FileOf(uint8(sq)), xiangqi.RankOf(uint8(sq))
		xqOnBoard[sq] = f >= 0 && f < xiangqi.NumFiles && r >= 0 && r < xiangqi.NumRanks
		if xqOnBoard[sq] {
			xqFlip[sq] = xiangqi.Square(f, xiangqi.NumRanks-1-r)
		}
	}
}

var (
	xqOnBoard [256]bool
	xqFlip    [256]uint8 // the square mirrored top to bottom
	xqSteps   = [4]int{16, -16, 1, -1}
)

// evalXiangqi scores p for the side to move.
func evalXiangqi(p *xiangqi.Position) int {
	var score [2]int
	var attackers, defenders [2]int // attacking pieces (soldiers across the river count half), advisors+elephants
	var chariots, horsesCannons [2]int
	total := 0
	var cannons [2][2]uint8
	nc := [2]int{}
	// danger[c] sums the attack on side c's palace, dangerN[c] counts the
	// pieces that make it (evalxq_king.go).
	var danger, dangerN [2]int
	for c := 0; c < 2; c++ {
		base := uint8(16 + 16*c)
		enemyPalace := uint8(2 - c)
		for slot := uint8(1); slot < 16; slot++ {
			sq := p.SquareOf(base + slot)
			if sq == 0 {
				continue
			}
			total++
			k := xiangqi.PieceKind(base + slot)
			rel := sq
			if c == 1 {
				rel = xqFlip[sq]
			}
			score[c] += int(xqPST[k][rel])
			if w := xqAttackWeight[k]; w > 0 {
				if hits := xqPalaceHits(p, k, engine.Color(c), sq, enemyPalace); hits > 0 {
					danger[c^1] += w + hits
					dangerN[c^1]++
				}
			}
			switch k {
			case xiangqi.Advisor, xiangqi.Elephant:
				defenders[c]++
			case xiangqi.Chariot:
				chariots[c]++
				attackers[c] += 4
				score[c] += 5 * xqSlideMobility(p, sq)
			case xiangqi.Horse:
				horsesCannons[c]++
				attackers[c] += 2
				mob := xqHorseMobility(p, sq, engine.Color(c))
				score[c] += 8 * mob
				if mob == 0 {
					score[c] -= 30
				}
			case xiangqi.Cannon:
				horsesCannons[c]++
				attackers[c] += 2
				cannons[c][nc[c]] = sq
				nc[c]++
			case xiangqi.Soldier:
				if xiangqi.RankOf(rel) >= 5 && xiangqi.RankOf(rel) < 9 {
					attackers[c]++
				}
			}
		}
	}
	if attackers[0]+attackers[1] == 0 && !soldiersLeft(p) {
		return 0 // RULES X16: neither side can mate
	}
	// The board's fullness: cannons gain, horses lose as it fills.
	for c := 0; c < 2; c++ {
		for i := 0; i < nc[c]; i++ {
			score[c] += 3 * (total - 16)
			screens := xqScreens(p, cannons[c][i], p.GeneralSquare(engine.Color(c^1)))
			score[c] += xqCannonScreens(screens)
			if screens == 0 {
				danger[c^1] += xqHollowCannon
			}
		}
		score[c] -= 3 * (total - 16) * (horsesCannons[c] - nc[c])
	}
	// King safety: each missing advisor or elephant costs in proportion to
	// the enemy's attackers.
	for c := 0; c < 2; c++ {
		missing := 4 - defenders[c]
		score[c] -= missing * attackers[c^1] * 4
		if chariots[c^1] > 0 && defenders[c] <= 1 {
			score[c] -= 20
		}
		score[c] -= xqKingDanger(danger[c], dangerN[c], defenders[c])
	}
	v := score[0] - score[1]
	if p.SideToMove() == engine.Second {
		v = -v
	}
	return v + 10 // the move is worth something
}

func soldiersLeft(p *xiangqi.Position) bool {
	for c := 0; c < 2; c++ {
		base := uint8(16 + 16*c)
		for slot := uint8(11); slot < 16; slot++ {
			if p.SquareOf(base+slot) != 0 {
				return true
			}
		}
	}
	return false
}

// xqSlideMobility counts the empty points a chariot on sq reaches.
func xqSlideMobility(p *xiangqi.Position, sq uint8) int {
	n := 0
	for _, d := range xqSteps {
		for t := int(sq) + d; t >= 0 && t < 256 && xqOnBoard[t] && p.IDAt(uint8(t)) == 0; t += d {
			n++
		}
	}
	return n
}

// xqHorseMobility counts a horse's moves (RULES X6: blocked by a piece on
// its leg) that do not land on its own pieces.
func xqHorseMobility(p *xiangqi.Position, sq uint8, c engine.Color) int {
	n := 0
	for _, d := range xqSteps {
		leg := int(sq) + d
		if leg < 0 || leg >= 256 || !xqOnBoard[leg] || p.IDAt(uint8(leg)) != 0 {
			continue
		}
		var side [2]int
		if d == 16 || d == -16 {
			side = [2]int{1, -1}
		} else {
			side = [2]int{16, -16}
		}
		for _, e := range side {
			t := leg + d + e
			if t < 0 || t >= 256 || !xqOnBoard[t] {
				continue
			}
			if _, col := p.PieceAt(uint8(t)); p.IDAt(uint8(t)) == 0 || col != c {
				n++
			}
		}
	}
	return n
}

// xqCannonScreens rewards a cannon on the enemy general's file or rank by
// the screens between (RULES X8: a cannon captures over exactly one).
func xqCannonScreens(screens int) int {
	switch screens {
	case 0:
		return 15 // an open line: one screen away from a threat
	case 1:
		return 40 // the general is pinned against its screen
	case 2:
		return 10
	}
	return 0
}
