package xiangqi

import "github.com/xqdb/xqdb/engine"

// SEE is the static exchange evaluation of move m for the side to move:
// the material it wins (negative: loses) when both sides then keep
// capturing on m's destination with their least valuable piece, each free
// to stop when going on would lose more. value gives each kind's worth;
// the exchange takes attackers in the order soldier, advisor, elephant,
// horse, cannon, chariot, general, which is the order of value in every
// evaluation this project uses. A quiet move scores 0 or what the moved
// piece loses where it lands.
//
// The attacks follow the pieces' moves (RULES X2–X8): each capture may
// open a chariot's line, give a cannon its screen or take it away, or free
// a horse's leg or an elephant's eye, and the exchange sees that. Pins are
// not looked at, except that a general takes only where nothing takes it
// back (X11). The board is used as scratch and left as it was; nothing is
// allocated.
func (p *Position) SEE(m engine.Move, value *[8]int) int {
	from, to := MoveFrom(m), MoveTo(m)
	b := &p.board
	mover := b[from]
	var gain [34]int
	gain[0] = value[kindOf[b[to]]]
	onTo := value[kindOf[mover]]
	var removed, removedID [34]uint8
	nRemoved := 0
	savedTo := b[to]
	b[from] = empty
	b[to] = mover // scans start beside the target: its content only has to be a piece
	side := colorOf(mover).Other()
	d := 1
	for ; d < len(gain); d++ {
		sq, k := p.leastAttacker(to, side)
		if k == NoKind {
			break
		}
		if k == General {
			// X11: the general may not take onto a defended point.
			id := b[sq]
			b[sq] = empty
			_, other := p.leastAttacker(to, side.Other())
			b[sq] = id
			if other != NoKind {
				break
			}
		}
		gain[d] = onTo - gain[d-1]
		onTo = value[k]
		removed[nRemoved], removedID[nRemoved] = sq, b[sq]
		nRemoved++
		b[sq] = empty
		side = side.Other()
	}
	for i := range nRemoved {
		b[removed[i]] = removedID[i]
	}
	b[from] = mover
	b[to] = savedTo
	for d--; d > 0; d-- {
		gain[d-1] = -max(-gain[d-1], gain[d])
	}
	return gain[0]
}

// leastAttacker finds side c's least valuable piece that could capture
// on t (RULES X2–X8), on the board as it stands: its square and kind, or
// NoKind.
func (p *Position) leastAttacker(t uint8, c engine.Color) (uint8, Kind) {
	b := &p.board
	own := colorBit(c)
	// X8: a soldier takes forward, and sideways once across the river.
	fwd := int8(north)
	if c == engine.Second {
		fwd = south
	}
	if s := step(t, -fwd); b[s]&own != 0 && kindOf[b[s]] == Soldier {
		return s, Soldier
	}
	for _, s := range [2]uint8{t + 1, t - 1} {
		if b[s]&own != 0 && kindOf[b[s]] == Soldier && half[s] != uint8(c) {
			return s, Soldier
		}
	}
	// X3: an advisor one point diagonally, inside the palace.
	if inPalace[t] {
		for _, d := range diagSteps {
			if s := step(t, d); b[s]&own != 0 && kindOf[b[s]] == Advisor {
				return s, Advisor
			}
		}
	}
	// X4: an elephant two points diagonally, its eye empty, on its own half.
	if half[t] == uint8(c) {
		for _, d := range diagSteps {
			eye := step(t, d)
			if b[eye] != empty {
				continue
			}
			if s := step(eye, d); b[s]&own != 0 && kindOf[b[s]] == Elephant {
				return s, Elephant
			}
		}
	}
	// X6: a horse through the point diagonally next to its target.
	for i, d := range diagSteps {
		if b[step(t, d)] != empty {
			continue
		}
		for _, h := range horseFrom[i] {
			if s := step(t, h); b[s]&own != 0 && kindOf[b[s]] == Horse {
				return s, Horse
			}
		}
	}
	// X5, X7: along each line the first piece may be a chariot, the one
	// after it (its screen) a cannon.
	var chariot, general uint8
	for _, d := range orthSteps {
		s := step(t, d)
		for b[s] == empty {
			s = step(s, d)
		}
		if b[s] == wall {
			continue
		}
		if b[s]&own != 0 {
			switch kindOf[b[s]] {
			case Chariot:
				chariot = s
			case General:
				if s == step(t, d) && inPalace[t] {
					general = s // X2: one step inside the palace
				}
			}
		}
		s = step(s, d)
		for b[s] == empty {
			s = step(s, d)
		}
		if b[s]&own != 0 && kindOf[b[s]] == Cannon {
			return s, Cannon
		}
	}
	if chariot != 0 {
		return chariot, Chariot
	}
	if general != 0 {
		return general, General
	}
	return 0, NoKind
}
