package xiangqi

import "github.com/xqdb/xqdb/engine"

// Chase detection for RULES X13 (seed 000 "luật cao cấp", "đuổi quân").
//
// threats lists, for one position, the threats of a side that are chases;
// the referee takes them after each move of a repetition cycle and keeps
// those that are new (newlyChased, in the position before the move). It runs
// only when a position repeats, so it favours plain, obviously correct code
// over speed: every capture and recapture is tried on the board and judged
// by the real legality test (safeAfter), which takes care of pins, the
// flying general (X10) and captures that would leave a general in check (X11).

// chaseSet is a set of one side's pieces: bit i stands for the piece whose
// identity has slot i (id & 15). Identities stay with the pieces as they
// move, so sets taken in different positions of a cycle can be intersected;
// that is how "the same enemy piece, tracked as it moves" is followed.
type chaseSet uint16

func slotBit(id uint8) chaseSet { return 1 << (id & 15) }

// chaseReadings are the points of the chase definition that public engines
// read differently; Rules sets them (see Rules for the defaults and why).
type chaseReadings struct {
	// minorChasesMajor: an advisor or elephant threatening a chariot, horse
	// or cannon counts as a chase even when the target is protected.
	minorChasesMajor bool
	// protectionLoss: when a move that takes an already threatened piece's
	// protection away by its path newly chases it.
	protectionLoss ProtectionLoss
}

// threat is one chasing threat (attacker aid on a, target tid on t) found in
// the position after a move, with what newlyChased needs to know about it.
type threat struct {
	aid, tid uint8
	// reach: the target's side's pieces whose movement would bring them to
	// t once the attacker has taken there, legal or not.
	reach chaseSet
	// back: the target's movement would bring it onto the attacker.
	back bool
}

// chasedBy returns the enemy pieces that side x chases in the position, as
// if x were to move (see chases). The referee works with threats and
// newlyChased; this is the plain set, for tests and reports.
func (p *Position) chasedBy(x engine.Color, rd chaseReadings) chaseSet {
	var buf [32]threat
	var set chaseSet
	for _, th := range p.threats(x, rd, buf[:0]) {
		set |= slotBit(th.tid)
	}
	return set
}

// threats appends every threat of side x in the position that is a chase
// (RULES X13, seed 000 "đuổi quân", "quân được bảo vệ"): x could legally
// capture the target, which is not the general, nor a soldier that has not
// crossed the river, and which no enemy piece could legally recapture —
// less the exceptions of the rule (see chases).
func (p *Position) threats(x engine.Color, rd chaseReadings, dst []threat) []threat {
	y := x.Other()
	kx, ky := p.sq[generalID(x)], p.sq[generalID(y)]
	var buf [8]uint8
	base := idBase(x)
	// Seed 000 "đuổi quân": threats made by the general or by a soldier are
	// never chases, so only slots 1–10 (advisors to cannons) attack.
	for aid := base + 1; aid <= base+10; aid++ {
		a := p.sq[aid]
		if a == 0 {
			continue
		}
		for _, t := range p.captureTargets(buf[:0], a, aid) {
			tid := p.board[t]
			// A threat on the general is a check, not a chase; a soldier
			// that has not crossed the river may not be chased (seed 000).
			if k := kindOf[tid]; k == General || k == Soldier && half[t] == uint8(y) {
				continue
			}
			// "Threatens to capture" means a legal capture: not one that
			// would expose x's own general (X10, X11).
			if !p.safeAfter(a, t, kx, y) || !p.chases(aid, a, tid, t, ky, rd) {
				continue
			}
			dst = append(dst, threat{aid: aid, tid: tid, reach: p.recapturers(a, t, ky, false), back: p.reaches(tid, t, a)})
		}
	}
	return dst
}

// chases judges one legal threat of piece aid on a to the enemy piece tid
// on t (enemy general on ky).
func (p *Position) chases(aid, a, tid, t, ky uint8, rd chaseReadings) bool {
	ak, tk := kindOf[aid], kindOf[tid]
	// Seed 000 "quân được bảo vệ": a chariot is never protected against a
	// horse or a cannon, the weaker pieces that threaten it.
	if tk == Chariot && (ak == Horse || ak == Cannon) {
		return true
	}
	// Reading "minor pieces chasing majors": Pikafish and Fairy-Stockfish
	// extend that exception, so that an advisor or elephant threatening a
	// chariot, horse or cannon chases it even when it is protected. Seed
	// 000 names only the chariot against horse and cannon, and no row of
	// the rules-cases table turns on it, so it is off unless
	// Rules.MinorChasesMajor asks for it.
	if rd.minorChasesMajor && (ak == Advisor || ak == Elephant) && (tk == Chariot || tk == Horse || tk == Cannon) {
		return true
	}
	if p.recapturers(a, t, ky, true) != 0 {
		return false
	}
	// Seed 000 "thí quân": threatening a piece of the same kind that may
	// take back is offering an exchange, not chasing. Whether it may take
	// back is asked of the real position: a horse whose leg is blocked, or a
	// pinned piece, cannot (the "impaired horse" and pin cases).
	if ak == tk && p.reaches(tid, t, a) && p.safeAfter(t, a, ky, colorOf(aid)) {
		return false
	}
	return true
}

// newlyChased returns the pieces that x's last move newly chases, given the
// threats found after the move; p is the position before it (x to move).
// defending tells, when asked, whether that move defended one of x's pieces
// (defends); chasers receives, per chased piece, the attackers whose threats
// are new.
//
// RULES X13: a chase is a threat the mover "did not threaten before". A
// threat is new when its attacker could not legally capture the target
// before the move: the attacker moved there, or the move opened its line,
// leg, eye or screen (discovered threats count), or lifted a pin on it. The
// target is followed by identity, so a piece attacked by one piece before
// and by another after (a horse stepping off a cannon's line and uncovering
// it, rules-cases orange_L376) is chased anew.
//
// A threat that was already there but did not count, because the target was
// protected or could take back, becomes a chase when the move takes that
// away by legality alone: the protector (or the target) still reaches the
// square but may no longer go there, because the move pinned it or exposed
// its general (Fairy-Stockfish's "fake roots", rules-cases fsf_L1197–L1203).
//
// When the move instead takes the protection away by its path — standing in
// the protector's line, leg or eye, adding a second screen to a protecting
// cannon or taking its only screen away — public engines differ; this is the
// dispute of the "chariot pinned by a horse" diagrams (Fairy-Stockfish
// test.py D39, rules-cases fsf_L1193, fsf_L1195, orange_L434–L438) and of
// orange_L643. See ProtectionLoss for the three readings and the default.
func (p *Position) newlyChased(x engine.Color, after []threat, rd chaseReadings, defending func() bool, chasers *[16]chaseSet) chaseSet {
	y := x.Other()
	kx, ky := p.sq[generalID(x)], p.sq[generalID(y)]
	// Answering a check makes every capture legal again that the check
	// forbade; that alone threatens nothing new (else each escape from a
	// check would chase every piece the escaper attacks). So before the
	// move, a capture counts as a threat if it exposes x's general to no
	// piece beyond those already checking it.
	var checking chaseSet
	inCheck := p.kingAttacked(kx, y)
	if inCheck {
		checking = p.attackersOf(kx, y)
	}
	var set chaseSet
	for _, th := range after {
		a, t := p.sq[th.aid], p.sq[th.tid]
		isNew := false
		switch {
		case !p.reaches(th.aid, a, t),
			!p.safeAfter(a, t, kx, y) && (!inCheck || p.attackersAfter(a, t, kx, y)&^checking != 0):
			isNew = true // a new threat
		case p.chases(th.aid, a, th.tid, t, ky, rd):
			// chased already: not new
		case p.recapturers(a, t, ky, true)&th.reach != 0,
			th.back && p.reaches(th.tid, t, a) && p.safeAfter(t, a, ky, x):
			isNew = true // protection or retaking lost to a pin
		case rd.protectionLoss == LossAlways,
			rd.protectionLoss == LossUnlessDefending && !defending():
			isNew = true // protection lost to the move's path
		}
		if isNew {
			set |= slotBit(th.tid)
			chasers[th.tid&15] |= slotBit(th.aid)
		}
	}
	return set
}

// defends reports whether x's move m, about to be made on p, defends one of
// x's pieces: x is in check, or some enemy piece could legally capture one of
// x's pieces before the move and cannot after it — the move blocked the
// threat, took away an attacking cannon's screen, or took the piece away.
func (p *Position) defends(x engine.Color, m engine.Move) bool {
	if p.InCheck() {
		return true
	}
	before := p.capturePairs(x.Other())
	p.Make(m)
	after := p.capturePairs(x.Other())
	p.Unmake()
	for i := range before {
		if before[i]&^after[i] != 0 {
			return true
		}
	}
	return false
}

// attackersOf returns the pieces of side by that attack the general on k,
// the other general along an open file included (RULES X10).
func (p *Position) attackersOf(k uint8, by engine.Color) chaseSet {
	var set chaseSet
	for id := idBase(by); id < idBase(by)+16; id++ {
		s := p.sq[id]
		if s == 0 || p.board[s] != id {
			continue
		}
		if p.reaches(id, s, k) || kindOf[id] == General && s&15 == k&15 && p.clearBetween(s, k) {
			set |= slotBit(id)
		}
	}
	return set
}

// clearBetween reports that nothing stands between two points of a line.
func (p *Position) clearBetween(a, b uint8) bool {
	d := lineStep(a, b)
	for s := step(a, d); s != b; s = step(s, d) {
		if p.board[s] != empty {
			return false
		}
	}
	return true
}

// attackersAfter returns the attackers of the general on k (of the side of
// the piece on a) once the piece on a has taken on t.
func (p *Position) attackersAfter(a, t, k uint8, by engine.Color) chaseSet {
	b := &p.board
	pc, victim := b[a], b[t]
	b[t], b[a] = pc, empty
	set := p.attackersOf(k, by)
	b[a], b[t] = pc, victim
	return set
}

// recapturers returns the pieces of the side of the piece on t (general on
// ky) that could take back on t once the piece on a has taken there: the
// pieces protecting it (seed 000 "quân được bảo vệ"). With legal false,
// pieces whose movement reaches t count even if taking back would expose
// their general.
func (p *Position) recapturers(a, t, ky uint8, legal bool) chaseSet {
	b := &p.board
	attacker, victim := b[a], b[t]
	y := colorOf(victim)
	b[t], b[a] = attacker, empty
	var set chaseSet
	base := idBase(y)
	for id := base; id < base+16; id++ {
		s := p.sq[id]
		if s == 0 || id == victim || !p.reaches(id, s, t) {
			continue
		}
		if !legal || p.safeAfter(s, t, ky, y.Other()) {
			set |= slotBit(id)
		}
	}
	b[a], b[t] = attacker, victim
	return set
}

// captureTargets appends the squares of the enemy pieces that the piece id
// on a could take by its movement rule (RULES X3–X7), ignoring its own
// general's safety. Generals and soldiers are not asked: they never chase.
func (p *Position) captureTargets(dst []uint8, a, id uint8) []uint8 {
	b := &p.board
	c := colorOf(id)
	enemy := colorBit(c.Other())
	switch kindOf[id] {
	case Advisor:
		for _, d := range diagSteps {
			if t := step(a, d); inPalace[t] && b[t]&enemy != 0 {
				dst = append(dst, t)
			}
		}
	case Elephant:
		for _, d := range diagSteps {
			eye := step(a, d)
			if b[eye] != empty {
				continue
			}
			if t := step(eye, d); half[t] == uint8(c) && b[t]&enemy != 0 {
				dst = append(dst, t)
			}
		}
	case Horse:
		for i, d := range horseLeg {
			if b[step(a, d)] != empty {
				continue
			}
			for _, h := range horseTargets[i] {
				if t := step(a, h); b[t]&enemy != 0 {
					dst = append(dst, t)
				}
			}
		}
	case Chariot:
		for _, d := range orthSteps {
			t := step(a, d)
			for b[t] == empty {
				t = step(t, d)
			}
			if b[t]&enemy != 0 {
				dst = append(dst, t)
			}
		}
	case Cannon:
		for _, d := range orthSteps {
			t := step(a, d)
			for b[t] == empty {
				t = step(t, d)
			}
			if b[t] == wall {
				continue
			}
			t = step(t, d)
			for b[t] == empty {
				t = step(t, d)
			}
			if b[t]&enemy != 0 {
				dst = append(dst, t)
			}
		}
	}
	return dst
}

// reaches reports whether the piece id on from could move to to by its
// movement rule (RULES X2–X8) on the current board, to being taken as an
// enemy-occupied point; its own general's safety is not considered.
func (p *Position) reaches(id, from, to uint8) bool {
	b := &p.board
	c := colorOf(id)
	switch kindOf[id] {
	case General:
		return inPalace[to] && (to == from+1 || to == from-1 || to == from+north || to == from-north)
	case Advisor:
		if !inPalace[to] {
			return false
		}
		for _, d := range diagSteps {
			if step(from, d) == to {
				return true
			}
		}
	case Elephant:
		for _, d := range diagSteps {
			if eye := step(from, d); step(eye, d) == to {
				return b[eye] == empty && half[to] == uint8(c)
			}
		}
	case Horse:
		for i, d := range horseLeg {
			for _, h := range horseTargets[i] {
				if step(from, h) == to {
					return b[step(from, d)] == empty
				}
			}
		}
	case Chariot, Cannon:
		d := lineStep(from, to)
		if d == 0 {
			return false
		}
		n := 0
		for s := step(from, d); s != to; s = step(s, d) {
			if b[s] != empty {
				n++
			}
		}
		if kindOf[id] == Cannon {
			return n == 1
		}
		return n == 0
	case Soldier:
		fwd := int8(north)
		if c == engine.Second {
			fwd = south
		}
		if to == step(from, fwd) {
			return true
		}
		return half[from] != uint8(c) && (to == from+1 || to == from-1)
	}
	return false
}

// capturePairs returns, for each piece of side c (by slot), the enemy pieces
// other than the general it could legally capture (generals and soldiers
// included as attackers: a defence against any threat is a defence).
func (p *Position) capturePairs(c engine.Color) (out [16]chaseSet) {
	kc := p.sq[generalID(c)]
	for id := idBase(c); id < idBase(c)+16; id++ {
		s := p.sq[id]
		if s == 0 {
			continue
		}
		for tid := idBase(c.Other()) + 1; tid < idBase(c.Other())+16; tid++ {
			t := p.sq[tid]
			if t != 0 && p.reaches(id, s, t) && p.safeAfter(s, t, kc, c.Other()) {
				out[id&15] |= slotBit(tid)
			}
		}
	}
	return out
}
