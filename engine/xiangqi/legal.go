package xiangqi

import "github.com/xqdb/xqdb/engine"

// kingAttacked reports whether a general standing on ksq could be captured
// by side `by`: by a chariot or cannon along the rank or file, by the other
// general along an open file (RULES X10, flying general), by a horse whose
// leg is free, or by a soldier. It reads only the board, so callers may try
// a move on the board alone and ask.
func (p *Position) kingAttacked(ksq uint8, by engine.Color) bool {
	enemy := colorBit(by)
	b := &p.board
	for _, d := range orthSteps {
		t := step(ksq, d)
		for b[t] == empty {
			t = step(t, d)
		}
		id := b[t]
		if id == wall {
			continue
		}
		if id&enemy != 0 {
			if k := kindOf[id]; k == Chariot || k == General && (d == north || d == south) {
				return true
			}
		}
		t = step(t, d) // id is a screen: look for a cannon behind it
		for b[t] == empty {
			t = step(t, d)
		}
		if id := b[t]; id&enemy != 0 && kindOf[id] == Cannon {
			return true
		}
	}
	// A horse attacks through the point diagonally next to its target.
	for i, d := range diagSteps {
		if b[step(ksq, d)] != empty {
			continue
		}
		for _, h := range horseFrom[i] {
			if id := b[step(ksq, h)]; id&enemy != 0 && kindOf[id] == Horse {
				return true
			}
		}
	}
	// Soldiers attack forward, and sideways once across the river.
	fwd := int8(north)
	if by == engine.Second {
		fwd = south
	}
	if id := b[ksq-uint8(fwd)]; id&enemy != 0 && kindOf[id] == Soldier {
		return true
	}
	for _, s := range [2]uint8{ksq + 1, ksq - 1} {
		if id := b[s]; id&enemy != 0 && kindOf[id] == Soldier && half[s] != uint8(by) {
			return true
		}
	}
	return false
}

// horseFrom[i] are the squares, relative to a target, of the horses that
// reach it through the leg point target+diagSteps[i].
var horseFrom = [4][2]int8{
	{2*north + east, north + 2*east},
	{2*north + west, north + 2*west},
	{2*south + east, south + 2*east},
	{2*south + west, south + 2*west},
}

// InCheck reports whether the side to move's general is attacked.
func (p *Position) InCheck() bool {
	return p.kingAttacked(p.sq[generalID(p.side)], p.side.Other())
}

// generalsFacing reports two generals on one file with nothing between
// (RULES X10).
func (p *Position) generalsFacing() bool {
	r, b := p.sq[generalID(engine.First)], p.sq[generalID(engine.Second)]
	if r&15 != b&15 {
		return false
	}
	for t := r + north; t != b; t += north {
		if p.board[t] != empty {
			return false
		}
	}
	return true
}

// AppendLegalMoves appends the legal moves of the side to move to dst.
//
// Pseudo-legal moves are filtered by what they could change for the mover's
// general (RULES X10, X11). In check, or when the general itself moves, the
// move is tried on the board and the general's square tested in full.
// Otherwise only three things can expose the general: the piece leaves the
// general's rank or file (uncovering a chariot, cannon or the other general,
// or turning a cannon's second screen into its only one), it lands on that
// rank or file (becoming a cannon's screen), or it leaves a point diagonally
// next to the general (a horse's leg). Only those lines are re-examined.
func (p *Position) AppendLegalMoves(dst []engine.Move) []engine.Move {
	start := len(dst)
	return p.keepLegal(p.appendPseudo(dst), start)
}

// keepLegal keeps the legal moves among the pseudo-legal moves dst[start:],
// which come grouped by piece (see AppendLegalMoves).
func (p *Position) keepLegal(dst []engine.Move, start int) []engine.Move {
	them := p.side.Other()
	enemy := colorBit(them)
	ksq := p.sq[generalID(p.side)]
	n := start
	if p.kingAttacked(ksq, them) {
		for i := start; i < len(dst); i++ {
			if m := dst[i]; p.safeAfter(MoveFrom(m), MoveTo(m), ksq, them) {
				dst[n] = m
				n++
			}
		}
		return dst[:n]
	}
	b := &p.board
	kf, kr := ksq&15, ksq>>4
	// Moves arrive grouped by piece, so what the from-square means for
	// the general is worked out once per piece.
	var lastFrom uint8
	var dFrom int8
	leg := -1
	fromRisky := false
	for i := start; i < len(dst); i++ {
		m := dst[i]
		from, to := MoveFrom(m), MoveTo(m)
		if from != lastFrom {
			lastFrom = from
			dFrom, leg = lineStep(ksq, from), legIndex(ksq, from)
			fromRisky = dFrom != 0 || leg >= 0
		}
		if !fromRisky && to&15 != kf && to>>4 != kr {
			dst[n] = m
			n++
			continue
		}
		if from == ksq {
			if !p.safeAfter(from, to, ksq, them) {
				continue
			}
		} else {
			dTo := lineStep(ksq, to)
			pc, captured := b[from], b[to]
			b[to], b[from] = pc, empty
			exposed := dFrom != 0 && p.rayAttacked(ksq, dFrom, enemy) ||
				dTo != 0 && dTo != dFrom && p.rayAttacked(ksq, dTo, enemy) ||
				leg >= 0 && p.horseThrough(ksq, leg, enemy)
			b[from], b[to] = pc, captured
			if exposed {
				continue
			}
		}
		dst[n] = m
		n++
	}
	return dst[:n]
}

// lineStep returns the step from ksq towards sq when they share a rank or
// file, else 0.
func lineStep(ksq, sq uint8) int8 {
	switch {
	case sq&15 == ksq&15:
		if sq > ksq {
			return north
		}
		return south
	case sq>>4 == ksq>>4:
		if sq > ksq {
			return east
		}
		return west
	}
	return 0
}

// legIndex returns i when sq is ksq+diagSteps[i] (a horse leg of ksq),
// else -1.
func legIndex(ksq, sq uint8) int {
	switch sq - ksq {
	case north + east:
		return 0
	case north + west:
		return 1
	case uint8(0x100 + south + east):
		return 2
	case uint8(0x100 + south + west):
		return 3
	}
	return -1
}

// rayAttacked reports an attack on ksq along one line: a chariot (or the
// other general on the file, RULES X10) as the first piece, or a cannon as
// the second.
func (p *Position) rayAttacked(ksq uint8, d int8, enemy uint8) bool {
	b := &p.board
	t := step(ksq, d)
	for b[t] == empty {
		t = step(t, d)
	}
	id := b[t]
	if id == wall {
		return false
	}
	if id&enemy != 0 {
		if k := kindOf[id]; k == Chariot || k == General && (d == north || d == south) {
			return true
		}
	}
	t = step(t, d)
	for b[t] == empty {
		t = step(t, d)
	}
	id = b[t]
	return id&enemy != 0 && kindOf[id] == Cannon
}

// horseThrough reports an enemy horse attacking ksq through the now empty
// leg point ksq+diagSteps[i].
func (p *Position) horseThrough(ksq uint8, i int, enemy uint8) bool {
	for _, h := range horseFrom[i] {
		if id := p.board[step(ksq, h)]; id&enemy != 0 && kindOf[id] == Horse {
			return true
		}
	}
	return false
}

// IsLegal reports whether m is a legal move in the position: the moving
// piece's own moves are generated and the general's safety tested, without
// generating the whole position's moves (notation parsers call this for
// every move they read).
func (p *Position) IsLegal(m engine.Move) bool {
	from, to := MoveFrom(m), MoveTo(m)
	id := p.board[from]
	if id == empty || id == wall || colorOf(id) != p.side {
		return false
	}
	var buf [17]engine.Move // a chariot or cannon has at most 17 moves
	for _, pm := range p.appendPieceMoves(buf[:0], kindOf[id], from) {
		if pm == m {
			return p.safeAfter(from, to, p.sq[generalID(p.side)], p.side.Other())
		}
	}
	return false
}

// Status reports checkmate or stalemate when the side to move has no legal
// move; both lose in Xiangqi (RULES X12).
func (p *Position) Status() engine.Status {
	var buf [MaxMoves]engine.Move
	if len(p.AppendLegalMoves(buf[:0])) > 0 {
		return engine.Ongoing
	}
	if p.InCheck() {
		return engine.Checkmate
	}
	return engine.Stalemate
}

// safeAfter tries from→to on the board and reports whether the mover's
// general (on ksq before the move) is then safe.
func (p *Position) safeAfter(from, to, ksq uint8, them engine.Color) bool {
	b := &p.board
	pc, captured := b[from], b[to]
	b[to], b[from] = pc, empty
	if from == ksq {
		ksq = to
	}
	safe := !p.kingAttacked(ksq, them)
	b[from], b[to] = pc, captured
	return safe
}
