package search

import (
	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

// King danger in Xiangqi. The general never leaves its palace (RULES X2),
// so the attack on it is the attack on the palace's nine points: each
// enemy chariot, cannon, horse and soldier across the river that reaches
// palace points adds its weight and the points it reaches, a lone attacker
// counts half, missing advisors and elephants add, and a cannon facing the
// general with nothing between (the "hollow cannon") adds most. The
// penalty grows with the square of the sum: one attacker is rarely a mate,
// three together often are.

// xqPalaceOf[sq] is 1 on Red's palace points, 2 on Black's, 0 elsewhere.
var xqPalaceOf [256]uint8

func init() {
	for f := 3; f <= 5; f++ {
		for r := 0; r <= 2; r++ {
			xqPalaceOf[xiangqi.Square(f, r)] = 1
			xqPalaceOf[xiangqi.Square(f, 9-r)] = 2
		}
	}
}

// xqAttackWeight is what one attacker of each kind adds to the danger.
var xqAttackWeight = [8]int{xiangqi.Chariot: 5, xiangqi.Cannon: 4, xiangqi.Horse: 4, xiangqi.Soldier: 2}

const (
	xqHollowCannon  = 6 // a cannon on the general's line with no screen
	xqMissingGuard  = 2 // each missing advisor or elephant, once attacked
	xqDangerDivisor = 4 // penalty = danger² / divisor
	xqDangerMax     = 900
)

// xqPalaceHits counts the points of the palace numbered palace (1 Red, 2
// Black) that the piece of kind k and colour c on sq attacks: where it
// could capture if an enemy piece stood there (RULES X5–X8; a cannon
// attacks the points beyond its screen up to the next piece).
func xqPalaceHits(p *xiangqi.Position, k xiangqi.Kind, c engine.Color, sq uint8, palace uint8) int {
	n := 0
	switch k {
	case xiangqi.Chariot, xiangqi.Cannon:
		for _, d := range xqSteps {
			screened := false
			for t := int(sq) + d; t >= 0 && t < 256 && xqOnBoard[t]; t += d {
				occupied := p.IDAt(uint8(t)) != 0
				if k == xiangqi.Chariot || screened {
					if xqPalaceOf[t] == palace {
						n++
					}
					if occupied {
						break
					}
				} else if occupied {
					screened = true
				}
			}
		}
	case xiangqi.Horse:
		for _, d := range xqSteps {
			leg := int(sq) + d
			if leg < 0 || leg >= 256 || !xqOnBoard[leg] || p.IDAt(uint8(leg)) != 0 {
				continue
			}
			side := [2]int{16, -16}
			if d == 16 || d == -16 {
				side = [2]int{1, -1}
			}
			for _, e := range side {
				if t := leg + d + e; t >= 0 && t < 256 && xqPalaceOf[t] == palace {
					n++
				}
			}
		}
	case xiangqi.Soldier:
		fwd := 16
		if c == engine.Second {
			fwd = -16
		}
		if t := int(sq) + fwd; t >= 0 && t < 256 && xqPalaceOf[t] == palace {
			n++
		}
		for _, t := range [2]int{int(sq) + 1, int(sq) - 1} {
			if xqPalaceOf[t] == palace {
				n++ // a soldier beside the palace has crossed the river
			}
		}
	}
	return n
}

// xqScreens counts the pieces between a cannon on sq and the general on
// gen, or returns -1 when they share no file or rank. No screen is a hollow
// cannon (RULES X7), one a pin of the general against its screen.
func xqScreens(p *xiangqi.Position, sq, gen uint8) int {
	var d int
	switch {
	case sq&15 == gen&15:
		d = 16
	case sq>>4 == gen>>4:
		d = 1
	default:
		return -1
	}
	if gen < sq {
		d = -d
	}
	screens := 0
	for t := int(sq) + d; t != int(gen); t += d {
		if p.IDAt(uint8(t)) != 0 {
			screens++
		}
	}
	return screens
}

// xqKingDanger is the penalty of the side whose palace is attacked with
// the summed danger units from attackers pieces and guards advisors and
// elephants left.
func xqKingDanger(units, attackers, guards int) int {
	if attackers == 0 {
		return 0
	}
	units += xqMissingGuard * (4 - guards)
	if attackers == 1 {
		units /= 2
	}
	return min(units*units/xqDangerDivisor, xqDangerMax)
}
