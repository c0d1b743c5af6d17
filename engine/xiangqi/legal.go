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
	return p.pointAttacked(ksq, by)
}

// pointAttacked is kingAttacked by horses and soldiers: the attacks that
// do not come along a line.
func (p *Position) pointAttacked(ksq uint8, by engine.Color) bool {
	enemy := colorBit(by)
	b := &p.board
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

// AppendLegalMoves appends the legal moves of the side to move to dst:
// the pseudo-legal moves, filtered by what they could change for the
// mover's general (keepPiece).
func (p *Position) AppendLegalMoves(dst []engine.Move) []engine.Move {
	start := len(dst)
	return p.keepLegal(p.appendPseudo(dst), start)
}

// keepLegal keeps the legal moves among the pseudo-legal moves dst[start:],
// which come grouped by piece (see AppendLegalMoves).
func (p *Position) keepLegal(dst []engine.Move, start int) []engine.Move {
	g := p.newGuard()
	n := start
	for i := start; i < len(dst); {
		// Moves arrive grouped by piece, so what the from-square means
		// for the general is worked out once per piece.
		from := MoveFrom(dst[i])
		j := i + 1
		for j < len(dst) && MoveFrom(dst[j]) == from {
			j++
		}
		n += copy(dst[n:], p.keepPiece(&g, dst[i:j], from))
		i = j
	}
	return dst[:n]
}

// guard is what deciding the legality of the side to move's moves needs
// to know of the position, worked out once for all of them: in the
// middle of a game most moves' legality is then read off it without
// trying the move on the board.
type guard struct {
	ksq     uint8 // the mover's general
	them    engine.Color
	inCheck bool
	// screenEnd[i] is, when the first piece from ksq in direction
	// orthSteps[i] is an enemy cannon, that cannon's square; else ksq.
	// A piece landing on an empty point between the two becomes the
	// cannon's screen (RULES X7) and exposes the general.
	screenEnd [4]uint8
	// anyScreen says that some screenEnd is set.
	anyScreen bool
	// exposers are the points whose piece, leaving them for a point off
	// their line, exposes the general (0 where unused): the first piece
	// of a line with an enemy chariot (or, on the file, the other
	// general: RULES X10) behind it or an enemy cannon second behind it,
	// and the second piece of a line with an enemy cannon behind it (the
	// first would be the cannon's only screen).
	exposers [8]uint8
	// legs[i] is the point ksq+diagSteps[i] when a piece of the side to
	// move stands there with an enemy horse behind it (RULES X6: the
	// piece blocks the horse's leg), else 0. Leaving it exposes the
	// general unless the move takes that horse and no other stands behind.
	legs [4]uint8
}

func (p *Position) newGuard() guard {
	ksq := p.sq[generalID(p.side)]
	g := guard{ksq: ksq, them: p.side.Other()}
	if p.pointAttacked(ksq, g.them) {
		g.inCheck = true
		return g // every move is tried on the board
	}
	enemy := colorBit(g.them)
	b := &p.board
	n := 0
	// Each line's first three pieces tell whether it gives check
	// (kingAttacked's rays) and which points shield or screen.
	for i, d := range orthSteps {
		g.screenEnd[i] = ksq
		// The first three pieces on the line (wall when fewer).
		var sq [3]uint8
		t := ksq
		for j := range sq {
			if b[t] == wall {
				sq[j] = t
				continue
			}
			t = step(t, d)
			for b[t] == empty {
				t = step(t, d)
			}
			sq[j] = t
		}
		id1, id2, id3 := b[sq[0]], b[sq[1]], b[sq[2]]
		if id1&enemy != 0 && (kindOf[id1] == Chariot || kindOf[id1] == General && (d == north || d == south)) ||
			id1 != wall && id2&enemy != 0 && kindOf[id2] == Cannon {
			g = guard{ksq: ksq, them: g.them, inCheck: true}
			return g
		}
		cannon3 := id3&enemy != 0 && kindOf[id3] == Cannon
		switch {
		case id1 == wall:
			continue
		case id1&enemy != 0:
			if kindOf[id1] == Cannon {
				g.screenEnd[i], g.anyScreen = sq[0], true
			}
		case id2&enemy != 0 && (kindOf[id2] == Chariot || kindOf[id2] == General && (d == north || d == south)) || cannon3:
			g.exposers[n] = sq[0]
			n++
		}
		// The second piece shields from a cannon third whatever the
		// first piece's side.
		if cannon3 && id2&enemy == 0 {
			g.exposers[n] = sq[1]
			n++
		}
	}
	for i, d := range diagSteps {
		if leg := step(ksq, d); b[leg] != empty && b[leg] != wall && p.horseThrough(ksq, i, enemy) {
			g.legs[i] = leg
		}
	}
	return g
}

// legOf returns i when from is legs[i], else -1.
func (g *guard) legOf(from uint8) int {
	for i, s := range g.legs {
		if s == from {
			return i
		}
	}
	return -1
}

// exposes reports whether the piece on from exposes the general when it
// leaves from for a point off from's line to the general.
func (g *guard) exposes(from uint8) bool {
	for _, s := range g.exposers {
		if s == from {
			return true
		}
	}
	return false
}

// screens reports whether to lies between the general and a cannon that
// would capture it over a piece landing on to (see screenEnd).
func (g *guard) screens(to uint8) bool {
	k, e := g.ksq, &g.screenEnd
	switch {
	case !g.anyScreen:
		return false
	case to&15 == k&15: // the file: north, then south
		return to > k && to < e[0] || to < k && to > e[1]
	case to>>4 == k>>4: // the rank: east, then west
		return to > k && to < e[2] || to < k && to > e[3]
	}
	return false
}

// keepPiece keeps the legal moves among moves, the pseudo-legal moves of
// the side to move's piece on from.
//
// In check, or when the general itself moves, each move is tried on the
// board and the general's square tested in full. Otherwise only three
// things can expose the general (RULES X10, X11): the piece leaves the
// general's rank or file (uncovering a chariot, cannon or the other
// general, or turning a cannon's second screen into its only one), it
// lands on that rank or file (becoming a cannon's screen), or it leaves a
// point diagonally next to the general (a horse's leg). The guard knows
// the points whose leaving exposes it and the points where landing does
// (a capture keeps a line's pieces as they were, and the side to move is
// not in check); only a move along the general's line, which changes
// the order of that line's pieces, is tried on the board.
func (p *Position) keepPiece(g *guard, moves []engine.Move, from uint8) []engine.Move {
	ksq := g.ksq
	n := 0
	if g.inCheck || from == ksq {
		for _, m := range moves {
			if p.safeAfter(from, MoveTo(m), ksq, g.them) {
				moves[n] = m
				n++
			}
		}
		return moves[:n]
	}
	dFrom := lineStep(ksq, from)
	exposes := g.exposes(from)
	leg := g.legOf(from)
	if dFrom == 0 && !exposes && leg < 0 && !g.anyScreen {
		return moves // the common case: nothing this piece does matters
	}
	enemy := colorBit(g.them)
	for _, m := range moves {
		to := MoveTo(m)
		switch {
		case dFrom != 0 && lineStep(ksq, to) == dFrom:
			if p.exposedAfter(from, to, func() bool { return p.rayAttacked(ksq, dFrom, enemy) }) {
				continue
			}
		case exposes || g.screens(to):
			continue
		case leg >= 0:
			if p.exposedAfter(from, to, func() bool { return p.horseThrough(ksq, leg, enemy) }) {
				continue
			}
		}
		moves[n] = m
		n++
	}
	return moves[:n]
}

// exposedAfter tries from→to on the board and asks attacked.
func (p *Position) exposedAfter(from, to uint8, attacked func() bool) bool {
	b := &p.board
	pc, captured := b[from], b[to]
	b[to], b[from] = pc, empty
	a := attacked()
	b[from], b[to] = pc, captured
	return a
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
