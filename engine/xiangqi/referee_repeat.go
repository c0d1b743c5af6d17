package xiangqi

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/xqdb/xqdb/engine"
)

// RULES X13 (perpetual check and chase) and X14 (repetition draw).
//
// Every ply pays only for a scan of the position keys since the last capture
// with the same side to move (a capture makes every earlier position
// unreachable). When the current key is found there, the cycle is replayed
// backwards on a scratch copy and each move classified. A move's class never
// changes once it is made, so each is classified once and kept (Referee.
// analysed): a long repetition costs one classification per ply, not one
// per ply and cycle.

// plyInfo is what the analysis learns about one move of the history.
type plyInfo struct {
	done     bool // classified
	mover    engine.Color
	check    bool     // the move gave check
	checkers chaseSet // the mover's pieces that then attack the enemy general
	newly    chaseSet // enemy pieces the move newly chases (chase.go)
	// chasers[i]: the mover's pieces whose threats on the enemy piece of
	// slot i are new.
	chasers [16]chaseSet
}

// class ranks a side's conduct over a cycle (RULES X13): check outranks
// chase outranks idle, and the side with the strictly higher class loses.
type class uint8

const (
	idle class = iota
	chasing
	checking
)

// sideCycle is one side's conduct over the cycle.
type sideCycle struct {
	class   class
	targets chaseSet // for chasing: the pieces chased by every move that did not check
	checks  bool     // for chasing: some of its moves checked instead
}

// judgeRepetition rules when the current position repeats (RULES X13,
// X14). Under asian, the 3rd occurrence (and every later one) is judged: the
// violator loses, or it is a draw. Under vn a violator loses only once its
// run reaches the allowance (seed 000), at any repetition from the 2nd
// occurrence on; before that nothing is ruled, not even a draw, since there
// is a violator. It reports whether it recorded a ruling.
func (r *Referee) judgeRepetition() bool {
	p := r.pos
	if !r.mayHaveSeen(p.key) {
		return false
	}
	n := len(p.hist)
	w := min(int(p.halfmove), n)
	// Earlier occurrences, newest first: same key, same side to move (the
	// key includes the side), at least 4 plies back, not before the last
	// capture.
	var occ [2]int
	seen := 0
	for j := n - 4; j >= n-w; j -= 2 {
		if p.hist[j].key == p.key {
			if seen < len(occ) {
				occ[seen] = j
			}
			seen++
		}
	}
	if seen == 0 || r.rules.Profile == Asian && seen < 2 {
		return false
	}
	// The cycle judged: from the earliest of the last two earlier
	// occurrences (the 3rd occurrence looks back over two cycles, as
	// Pikafish and Fairy-Stockfish judge it; under vn a 2nd occurrence looks
	// back over the one cycle there is).
	from := occ[min(seen, 2)-1]
	if r.rules.Profile == VN && seen < 2 && w < 2*allowance(1)-1 {
		// A 2nd occurrence rules only against a violator that has used up
		// the smallest allowance, and too few plies were played for that.
		return false
	}
	r.analyse(from, n-w)
	cyc := r.classify(from, n)
	red, black := cyc[engine.First], cyc[engine.Second]
	occurrences := seen + 1
	where := fmt.Sprintf("position occurred %d times since ply %d", occurrences, from-r.start)

	st, v, draw := verdict(red.class, black.class)
	if draw {
		// Equal classes draw (X13); without a violator the repetition is
		// a draw at the 3rd occurrence (X14).
		if occurrences < 3 {
			return false
		}
		detail := where
		if st == engine.MutualPerpetualCheck {
			detail = "both sides checked on every move; " + where
		}
		r.rule(st, engine.Draw, 0, detail)
		return true
	}
	vc := cyc[v]
	var detail string
	if r.rules.Profile == VN {
		run, pieces := r.run(v, vc, from, n-w)
		need := allowance(pieces)
		if run < need {
			return false
		}
		where = fmt.Sprintf("%d moves in a row with %d piece(s), allowance %d; %s", run, pieces, need, where)
	}
	name := v.Name(engine.Xiangqi)
	if st == engine.PerpetualCheck {
		detail = name + " checked on every move; " + where
	} else if vc.checks {
		detail = name + " checked or chased " + r.describe(v.Other(), vc.targets) + " on every move; " + where
	} else {
		detail = name + " chased " + r.describe(v.Other(), vc.targets) + " on every move; " + where
	}
	r.rule(st, engine.WinFor(v.Other()), v, detail)
	return true
}

// verdict applies RULES X13 to the two sides' classes: check outranks chase
// outranks idle, the side with the strictly higher class loses (it is the
// violator), and equal classes draw — MutualPerpetualCheck when both
// checked, Repetition otherwise.
func verdict(red, black class) (st engine.Status, violator engine.Color, draw bool) {
	switch {
	case red == black && red == checking:
		return engine.MutualPerpetualCheck, 0, true
	case red == black:
		return engine.Repetition, 0, true
	case red > black:
		violator = engine.First
	default:
		violator = engine.Second
	}
	if max(red, black) == checking {
		return engine.PerpetualCheck, violator, false
	}
	return engine.PerpetualChase, violator, false
}

// allowance is seed 000's grace: the rule applies once the violator has
// checked or chased continuously for 6 moves with one piece, 12 with two,
// 18 with three or more.
func allowance(pieces int) int { return 6 * min(max(pieces, 1), 3) }

// analyse makes sure every move from ply `from` to the current ply is
// classified in r.analysed, replaying the missing ones backwards on a
// scratch copy that can go back to ply floor; it leaves r.scratch at ply
// `from`.
func (r *Referee) analyse(from, floor int) {
	n := len(r.pos.hist)
	s := r.scratchCopy(n - floor)
	if len(r.analysed) < n {
		r.analysed = append(r.analysed, make([]plyInfo, n-len(r.analysed))...)
	}
	for i := n - 1; i >= from; i-- {
		r.stepBack(s, i)
	}
}

// stepBack takes back move i, the last move made on s, classifying it
// unless that was done before.
func (r *Referee) stepBack(s *Position, i int) plyInfo {
	if inf := r.analysed[i]; inf.done {
		s.Unmake()
		return inf
	}
	inf := s.stepBack(r.rd)
	inf.done = true
	r.analysed[i] = inf
	return inf
}

// stepBack classifies the last move made on p and takes it back.
func (p *Position) stepBack(rd chaseReadings) plyInfo {
	x := p.side.Other()
	inf := plyInfo{mover: x, check: p.InCheck()}
	if inf.check {
		inf.checkers = p.checkers(x)
	}
	var buf [32]threat
	after := p.threats(x, rd, buf[:0])
	m := p.hist[len(p.hist)-1].move
	p.Unmake()
	inf.newly = p.newlyChased(x, after, rd, func() bool { return p.defends(x, m) }, &inf.chasers)
	return inf
}

// checkers returns the pieces of side x that attack the enemy general.
func (p *Position) checkers(x engine.Color) chaseSet {
	return p.attackersOf(p.sq[generalID(x.Other())], x)
}

// classify ranks both sides over the cycle from ply `from` to ply `to`
// (RULES X13). A side is checking if every one of its moves gave check;
// else chasing if every one of its moves gave check or newly chased one
// enemy piece (the same piece, tracked as it moves) and at least one move
// chased — "one check, one chase" (一将一捉) is a chase violation, since
// seed 000 counts "chiếu hoặc đuổi" together; otherwise idle.
func (r *Referee) classify(from, to int) [2]sideCycle {
	var out [2]sideCycle
	for c := engine.First; c <= engine.Second; c++ {
		all, checks := true, false
		targets := ^chaseSet(0)
		for _, inf := range r.analysed[from:to] {
			if inf.mover != c {
				continue
			}
			if inf.check {
				checks = true
				continue
			}
			all = false
			targets &= inf.newly
		}
		switch {
		case all:
			out[c].class = checking
		case targets != 0:
			// Some move did not check, so targets met at least one chase.
			out[c] = sideCycle{class: chasing, targets: targets, checks: checks}
		}
	}
	return out
}

// run measures, for the vn allowance, how long violator v has been checking
// or chasing without a break (seed 000 counts checks and chases together):
// the moves of the judged cycle, from ply `from` to the current one, plus
// any such moves of v just before it, back to ply floor — checks, and for a
// chaser also new chases of one of the same pieces. It returns the number of
// the latest of those moves and of the distinct pieces of v that gave the
// checks or made the chases (seed 000: "với 1 quân", "2 quân"): the shortest
// such run that uses up its allowance, or the whole run when none does (so
// six chases by one piece are not excused by checks another piece gave
// before them). It looks back at most 18 moves, the largest allowance.
func (r *Referee) run(v engine.Color, vc sideCycle, from, floor int) (moves, pieces int) {
	var (
		runInfo [18]plyInfo
		targets [18]chaseSet // the chased pieces common to runInfo[:k+1]
	)
	n := 0
	for i := len(r.pos.hist) - 1; i >= from && n < len(runInfo); i-- {
		if inf := r.analysed[i]; inf.mover == v {
			runInfo[n], targets[n] = inf, vc.targets
			n++
		}
	}
	s := r.scratch // positioned at ply `from` by analyse
	for i := from - 1; i >= floor && n < len(runInfo); i-- {
		inf := r.stepBack(s, i)
		if inf.mover != v {
			continue
		}
		tg := targets[max(n-1, 0)]
		if !inf.check {
			if vc.class == checking || tg&inf.newly == 0 {
				break
			}
			tg &= inf.newly
		}
		runInfo[n], targets[n] = inf, tg
		n++
	}
	for k := range n {
		var used chaseSet
		for _, inf := range runInfo[:k+1] {
			if inf.check {
				used |= inf.checkers
				continue
			}
			for b := uint16(targets[k]); b != 0; b &= b - 1 {
				used |= inf.chasers[bits.TrailingZeros16(b)]
			}
		}
		moves, pieces = k+1, bits.OnesCount16(uint16(used))
		if moves >= allowance(pieces) {
			break
		}
	}
	return moves, pieces
}

// describe names the pieces of side c in set, where they stand now.
func (r *Referee) describe(c engine.Color, set chaseSet) string {
	var names []string
	for b := uint16(set); b != 0; b &= b - 1 {
		id := idBase(c) + uint8(bits.TrailingZeros16(b))
		sq := r.pos.sq[id]
		names = append(names, fmt.Sprintf("the %s %s on %c%d", c.Name(engine.Xiangqi), kindOf[id], 'a'+FileOf(sq), RankOf(sq)))
	}
	return strings.Join(names, " and ")
}
