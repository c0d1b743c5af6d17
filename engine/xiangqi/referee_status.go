package xiangqi

import "github.com/xqdb/xqdb/engine"

// hasLegalMove reports whether the side to move has a legal move (RULES
// X12: without one it is mated or stalemated, and loses either way).
//
// The referee asks this after every ply, so it must cost far less than
// generating every legal move: it first tries a few moves that are almost
// always there — a chariot or cannon stepping to an empty neighbour, a horse
// jump, a general step — each checked by the full legality test, and falls
// back to the complete generator only when none of them is legal (in
// practice: when mated, stalemated or nearly so).
func (p *Position) hasLegalMove() bool {
	us, them := p.side, p.side.Other()
	base := idBase(us)
	ksq := p.sq[base]
	b := &p.board
	enemy := colorBit(them)
	for id := base + 7; id <= base+10; id++ { // chariots and cannons
		from := p.sq[id]
		if from == 0 {
			continue
		}
		for _, d := range orthSteps {
			if to := step(from, d); b[to] == empty && p.safeAfter(from, to, ksq, them) {
				return true
			}
		}
	}
	for id := base + 5; id <= base+6; id++ { // horses
		from := p.sq[id]
		if from == 0 {
			continue
		}
		for i, d := range horseLeg {
			if b[step(from, d)] != empty {
				continue
			}
			for _, h := range horseTargets[i] {
				to := step(from, h)
				if c := b[to]; (c == empty || c&enemy != 0) && p.safeAfter(from, to, ksq, them) {
					return true
				}
			}
		}
	}
	for _, d := range orthSteps { // the general
		to := step(ksq, d)
		if c := b[to]; inPalace[to] && (c == empty || c&enemy != 0) && p.safeAfter(ksq, to, ksq, them) {
			return true
		}
	}
	var buf [MaxMoves]engine.Move
	return len(p.AppendLegalMoves(buf[:0])) > 0
}
