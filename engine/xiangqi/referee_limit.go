package xiangqi

import (
	"fmt"

	"github.com/xqdb/xqdb/engine"
)

// limitState follows RULES X15 (seed 002 §6.4, whose number RULES fixes at
// the Chinese 60-move rule): the game is drawn after 120 plies without a
// capture, where each side's checks beyond its 10th since the last capture
// do not count — so a side cannot run the clock out by checking — and never
// when the side to move is mated (the referee judges mate first).
//
// Reading: only the surplus checks themselves are left out. Pikafish also
// leaves out the replies to them; RULES says "checks", so replies count.
//
// Checks are counted only once the plain ply count has reached the limit:
// the count can only lower the total, so below the limit it cannot change
// the ruling, and replay pays nothing for it until then.
type limitState struct {
	tracking bool   // counting checks: the plain count has reached the limit
	checks   [2]int // checks by each side since the last capture, while tracking
}

func (l *limitState) reset() { *l = limitState{} }

// update follows the move just made by mover; check says whether it gave
// check.
func (l *limitState) update(r *Referee, mover engine.Color, capture, check bool) {
	p := r.pos
	if capture || int(p.halfmove) < r.rules.moveLimit() {
		l.reset()
		return
	}
	if !l.tracking {
		l.recount(r)
		return
	}
	if check {
		l.checks[mover]++
	}
}

// recount counts the checks of each side since the last capture, over the
// moves the history holds (plies set up by a FEN's clock have no moves and
// count as quiet ones).
func (l *limitState) recount(r *Referee) {
	n := len(r.pos.hist)
	w := min(int(r.pos.halfmove), n)
	s := r.scratchCopy(w)
	for range w {
		s.Unmake()
	}
	l.checks = [2]int{}
	for i := n - w; i < n; i++ {
		mover := s.side
		s.Make(r.pos.hist[i].move)
		if s.InCheck() {
			l.checks[mover]++
		}
	}
	l.tracking = true
}

// surplus is the number of checks that do not count.
func (l *limitState) surplus() int {
	return max(0, l.checks[0]-10) + max(0, l.checks[1]-10)
}

// counted returns the plies since the last capture that count towards the
// limit.
func (l *limitState) counted(p *Position) int {
	if !l.tracking {
		return int(p.halfmove)
	}
	return int(p.halfmove) - l.surplus()
}

func (l *limitState) detail(p *Position) string {
	if s := l.surplus(); s > 0 {
		return fmt.Sprintf("%d plies without a capture, not counting %d checks beyond a side's 10th", l.counted(p), s)
	}
	return fmt.Sprintf("%d plies without a capture", l.counted(p))
}
