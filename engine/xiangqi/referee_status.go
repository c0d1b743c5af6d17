package xiangqi

import "github.com/xqdb/xqdb/engine"

// hasLegalMove reports whether the side to move has a legal move (RULES
// X12: without one it is mated or stalemated, and loses either way).
//
// The referee asks this after every ply, so it must cost far less than
// generating every legal move. Out of check, a move whose from-point is
// neither on the general's rank or file nor one of its horse-leg points,
// and whose to-point is not on its rank or file, cannot expose the general
// (the reasoning of AppendLegalMoves): the first pass looks only for such a
// move among a few that are almost always there — a chariot or cannon
// stepping to an empty neighbour, a horse jump — and needs no board test at
// all. The second pass tries those moves and the general's steps with the
// full legality test, and only when both fail (in practice: mated,
// stalemated or nearly so) is every move generated. In check, the general's
// steps are tried, then every move generated.
func (p *Position) hasLegalMove() bool { return p.hasLegalMoveInCheck(p.InCheck()) }

// hasLegalMoveInCheck is hasLegalMove when whether the side to move is in
// check is known.
func (p *Position) hasLegalMoveInCheck(inCheck bool) bool {
	us, them := p.side, p.side.Other()
	base := idBase(us)
	ksq := p.sq[base]
	b := &p.board
	enemy := colorBit(them)
	if inCheck {
		// Most checks are answered by a general's step; else the full
		// generator decides.
		for _, d := range orthSteps {
			to := step(ksq, d)
			if c := b[to]; inPalace[to] && (c == empty || c&enemy != 0) && p.safeAfter(ksq, to, ksq, them) {
				return true
			}
		}
		var buf [MaxMoves]engine.Move
		return len(p.AppendLegalMoves(buf[:0])) > 0
	}
	if p.hasUnalignedMove(base, ksq) {
		return true
	}
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

// hasUnalignedMove looks, for a side not in check whose general is on ksq,
// for a chariot, cannon or horse move that is legal because it cannot
// touch the general's lines (see hasLegalMove).
func (p *Position) hasUnalignedMove(base, ksq uint8) bool {
	b := &p.board
	enemy := colorBit(p.side.Other())
	kf, kr := ksq&15, ksq>>4
	apart := func(sq uint8) bool { return sq&15 != kf && sq>>4 != kr }
	for id := base + 5; id <= base+10; id++ { // horses, chariots, cannons
		from := p.sq[id]
		if from == 0 || !apart(from) || legIndex(ksq, from) >= 0 {
			continue
		}
		if kindOf[id] == Horse {
			for i, d := range horseLeg {
				if b[step(from, d)] != empty {
					continue
				}
				for _, h := range horseTargets[i] {
					if to := step(from, h); (b[to] == empty || b[to]&enemy != 0) && apart(to) {
						return true
					}
				}
			}
			continue
		}
		for _, d := range orthSteps {
			if to := step(from, d); b[to] == empty && apart(to) {
				return true
			}
		}
	}
	return false
}

// checkedBy reports whether m, the move just made on p, gives check, for the
// price of a few comparisons in most positions. A move can check only with
// the moved piece itself, or through a line or horse leg that it opens or
// closes: the general's rank or file through its from- or to-point (a
// chariot uncovered or arriving, a cannon given or left its one screen) or
// the leg point it left. Only those are examined (rayAttacked and
// horseThrough are the tests AppendLegalMoves uses for the same reason).
func (p *Position) checkedBy(m engine.Move) bool {
	ksq := p.sq[generalID(p.side)]
	enemy := colorBit(p.side.Other())
	from, to := MoveFrom(m), MoveTo(m)
	if d := lineStep(ksq, from); d != 0 && p.rayAttacked(ksq, d, enemy) {
		return true
	}
	if d := lineStep(ksq, to); d != 0 && p.rayAttacked(ksq, d, enemy) {
		return true
	}
	if i := legIndex(ksq, from); i >= 0 && p.horseThrough(ksq, i, enemy) {
		return true
	}
	switch id := p.board[to]; kindOf[id] {
	case Horse, Soldier:
		return p.reaches(id, to, ksq)
	}
	return false
}
