package search

import "github.com/xqdb/xqdb/engine"

// Move-ordering keys: the hash move first, then captures that do not lose
// material (by their static exchange) in MVV-LVA order, the killers, quiet
// moves by their history, and last the captures that lose material.
const (
	orderHash       = 1 << 30
	orderCapture    = 1 << 24
	orderKiller1    = 1 << 23
	orderKiller2    = orderKiller1 - 1
	historyMax      = 1 << 20
	orderBadCapture = -(1 << 22)
)

// Exchange pruning: to depth seePruneDepth, captures whose static exchange
// loses more than seeCaptureMargin a ply and quiet moves that lose more than
// seeQuietMargin times the depth squared are not searched.
const (
	seePruneDepth    = 4
	seeCaptureMargin = 150
	seeQuietMargin   = 30
)

// search is the principal variation search of the node at ply with the
// window (alpha, beta) and depth plies left.
func (s *Searcher) search(alpha, beta, depth, ply int, nullOK, inCheck bool) int {
	pvNode := beta-alpha > 1
	s.pvLen[ply] = ply
	if ply > s.seldepth {
		s.seldepth = ply
	}
	if ply > 0 {
		s.gaveCheck[ply] = inCheck
		if s.checkLimits() {
			return 0
		}
		if v, ok := s.b.rule(ply, s.rootPly); ok {
			return v
		}
		// Mate-distance pruning: no line from here beats a shorter mate.
		alpha = max(alpha, -Mate+ply)
		beta = min(beta, Mate-ply-1)
		if alpha >= beta {
			return alpha
		}
	}
	if depth <= 0 {
		return s.qsearch(alpha, beta, ply, inCheck)
	}
	if ply >= MaxPly {
		return s.b.evaluate()
	}
	key := s.b.key()
	hashMove := engine.NoMove
	if e, ok := s.tt.probe(key); ok {
		hashMove = e.move
		if !pvNode && int(e.depth) >= depth && ply > 0 {
			v := scoreFromTT(int(e.score), ply)
			if e.bound == boundExact || e.bound == boundLower && v >= beta || e.bound == boundUpper && v <= alpha {
				return v
			}
		}
	}
	if ply == 0 && s.prevBest != engine.NoMove {
		hashMove = s.prevBest
	}
	eval := -Infinity
	if !inCheck {
		eval = s.b.evaluate()
	}
	// improving: the static score is better than two plies ago (or that
	// node was in check), so fewer late moves need a look.
	s.staticEval[ply] = eval
	improving := 0
	if ply < 2 || inCheck || s.staticEval[ply-2] == -Infinity || eval > s.staticEval[ply-2] {
		improving = 1
	}
	if !pvNode && !inCheck && abs(beta) < mateBound {
		// Reverse futility: far above beta near the leaves, a quiet move
		// will not bring the score back down.
		if depth <= 4 && eval-120*depth >= beta {
			return eval
		}
		// Null-move pruning: if passing still fails high, a real move
		// would too (not in check, and not where zugzwang is likely).
		// Razoring: far below alpha near the leaves, only captures can
		// save the node.
		if depth <= 2 && eval+250*depth <= alpha {
			if v := s.qsearch(alpha, beta, ply, false); v <= alpha {
				return v
			}
		}
		if nullOK && depth >= 2 && eval >= beta && s.b.canNull() {
			r := 3 + depth/4
			s.b.doNull()
			v := -s.search(-beta, -beta+1, depth-1-r, ply+1, false, false)
			s.b.undoNull()
			if s.stopped {
				return 0
			}
			if v >= beta {
				if v >= mateBound {
					v = beta
				}
				return v
			}
		}
	}

	// Internal iterative reduction: a node no earlier search ordered is
	// searched a ply shallower.
	if hashMove == engine.NoMove && depth >= 4 && !inCheck {
		depth--
	}
	moves := s.b.moves(s.moveBuf[ply][:0])
	if len(moves) == 0 {
		return s.b.noMoves(ply, inCheck)
	}
	s.order(ply, moves, hashMove)
	side := s.b.side()
	best, bestMove := -Infinity, engine.NoMove
	origAlpha := alpha
	for i := range moves {
		m := s.pick(ply, moves, i)
		capture := s.b.victim(m) > 0
		killer := m == s.killers[ply][0] || m == s.killers[ply][1]
		// Late-move pruning: once the first moves failed, the late quiet
		// moves are not looked at unless they check; how many count as
		// late grows with the depth left.
		latePrune := !capture && !pvNode && !inCheck && best > -mateBound && i >= (5+depth*depth)*(1+improving)/2
		// Futility pruning: near the leaves, a quiet move cannot lift a
		// static score far below alpha back up to it.
		if !pvNode && !inCheck && !capture && !killer && depth <= 2 && best > -mateBound && eval+100+120*depth <= alpha {
			continue
		}
		// Exchange pruning: near the leaves, a move that loses material on
		// its point (a quiet move onto a defended point, a capture of a
		// cheaper defended piece) is not searched unless it checks.
		seePrune := false
		if !pvNode && !inCheck && best > -mateBound && depth <= seePruneDepth && m != hashMove && !killer {
			if capture {
				seePrune = s.b.see(m) < -seeCaptureMargin*depth
			} else {
				seePrune = s.b.see(m) < -seeQuietMargin*depth*depth
			}
		}
		s.b.doMove(m)
		givesCheck := s.b.inCheck()
		if (seePrune || latePrune) && !givesCheck {
			s.b.undoMove() // looked at, not searched: no node
			continue
		}
		s.nodes++
		// The check extension, for checks that do not give up material
		// on their point: a sacrificial check is searched like any move,
		// so long strings of them do not eat the budget.
		newDepth := depth - 1
		if givesCheck && ply < 2*s.rootDepth+8 && s.safeCheck(m) {
			newDepth++
		}
		var v int
		if i == 0 {
			v = -s.search(-beta, -alpha, newDepth, ply+1, true, givesCheck)
		} else {
			r := 0
			if depth >= 2 && i >= 2 && !capture && !inCheck && !givesCheck {
				r = int(lmr[min(depth, 63)][min(i, 63)])
				if pvNode {
					r--
				}
				if killer {
					r--
				}
				if h := s.history[side][uint16(m)]; h > historyMax/4 {
					r--
				}
				r = max(0, min(r, depth-1))
			}
			v = -s.search(-alpha-1, -alpha, newDepth-r, ply+1, true, givesCheck)
			if v > alpha && r > 0 {
				v = -s.search(-alpha-1, -alpha, newDepth, ply+1, true, givesCheck)
			}
			if v > alpha && v < beta {
				v = -s.search(-beta, -alpha, newDepth, ply+1, true, givesCheck)
			}
		}
		s.b.undoMove()
		if s.stopped {
			return 0
		}
		if v > best {
			best, bestMove = v, m
			if v > alpha {
				alpha = v
				s.raisePV(ply, m)
				if ply == 0 {
					s.rootBest, s.rootBestScore = m, v
				}
				if v >= beta {
					if !capture {
						s.rewardQuiet(ply, side, m, depth, moves[:i])
					}
					break
				}
			}
		}
	}
	s.tt.store(key, bestMove, scoreToTT(best, ply), depth, boundOf(best, origAlpha, beta))
	return best
}

// rewardQuiet keeps a quiet move that caused a cutoff as a killer and in
// the history, and lowers the history of the quiet moves tried before it.
func (s *Searcher) rewardQuiet(ply int, side engine.Color, m engine.Move, depth int, tried []engine.Move) {
	if s.killers[ply][0] != m {
		s.killers[ply][1] = s.killers[ply][0]
		s.killers[ply][0] = m
	}
	bonus := int32(min(depth*depth, 400))
	h := &s.history[side]
	// Gravity: the closer an entry is to historyMax, the less it grows,
	// so entries stay within ±historyMax.
	h[uint16(m)] += bonus - h[uint16(m)]*bonus/historyMax
	for _, q := range tried {
		if s.b.victim(q) == 0 && q != m {
			h[uint16(q)] -= bonus + h[uint16(q)]*bonus/historyMax
		}
	}
}

// qsearch searches captures only (all moves when in check) until the
// position is quiet, standing pat on the evaluation.
func (s *Searcher) qsearch(alpha, beta, ply int, inCheck bool) int {
	s.pvLen[ply] = ply
	if ply > s.seldepth {
		s.seldepth = ply
	}
	if s.checkLimits() {
		return 0
	}
	if ply >= MaxPly {
		return s.b.evaluate()
	}
	best := -Infinity
	stand := -Infinity
	var moves []engine.Move
	// The table answers here too: a search is judged by its nodes, and a
	// probe costs none.
	key := s.b.key()
	hashMove := engine.NoMove
	if e, ok := s.tt.probe(key); ok {
		hashMove = e.move
		v := scoreFromTT(int(e.score), ply)
		if e.bound == boundExact || e.bound == boundLower && v >= beta || e.bound == boundUpper && v <= alpha {
			return v
		}
	}
	origAlpha := alpha
	bestMove := engine.NoMove
	if inCheck {
		moves = s.b.moves(s.moveBuf[ply][:0])
		if len(moves) == 0 {
			return s.b.noMoves(ply, true)
		}
	} else {
		stand = s.b.evaluate()
		if stand >= beta {
			return stand
		}
		if stand > alpha {
			alpha = stand
		}
		best = stand
		moves = s.b.captures(s.moveBuf[ply][:0])
	}
	s.order(ply, moves, hashMove)
	for i := range moves {
		m := s.pick(ply, moves, i)
		// Delta pruning: a capture that cannot lift the score to alpha
		// even with a margin is not tried.
		victim := s.b.victim(m)
		if !inCheck && stand+victim+200 <= alpha {
			continue
		}
		losing := !inCheck && s.b.see(m) < 0
		if s.game == engine.Chess && !inCheck {
			// No exchange evaluator in chess: a capture by a piece worth
			// more than its victim counts as losing.
			losing = s.b.attacker(m) > victim+50
		}
		s.b.doMove(m)
		givesCheck := s.b.inCheck()
		s.nodes++
		// A capture that loses material by its static exchange is not
		// tried, when the opponent can legally take back at once (the
		// exchange does not look at pins; the legal moves do).
		if losing && s.recapturable(ply+1, m) {
			s.b.undoMove()
			s.nodes-- // looked at, not searched
			continue
		}
		v := -s.qsearch(-beta, -alpha, ply+1, givesCheck)
		s.b.undoMove()
		if s.stopped {
			return 0
		}
		if v > best {
			best, bestMove = v, m
			if v > alpha {
				alpha = v
				s.raisePV(ply, m)
				if v >= beta {
					break
				}
			}
		}
	}
	s.tt.store(key, bestMove, scoreToTT(best, ply), 0, boundOf(best, origAlpha, beta))
	return best
}

// safeCheck reports whether m, just made and giving check, does not lose
// material by its static exchange: it is taken back and made again to ask.
func (s *Searcher) safeCheck(m engine.Move) bool {
	s.b.undoMove()
	ok := s.b.see(m) >= 0
	s.b.doMove(m)
	return ok
}

// recapturable reports whether the side to move can capture on the square
// the last move m landed on.
func (s *Searcher) recapturable(ply int, m engine.Move) bool {
	to := s.b.to(m)
	for _, c := range s.b.captures(s.moveBuf[ply][:0]) {
		if s.b.to(c) == to {
			return true
		}
	}
	return false
}

// raisePV makes m, then the principal variation of the node after it, the
// principal variation of the node at ply: m raised alpha there. The main
// and the quiescence search share it, and boundOf.
func (s *Searcher) raisePV(ply int, m engine.Move) {
	s.pv[ply][ply] = m
	copy(s.pv[ply][ply+1:], s.pv[ply+1][ply+1:s.pvLen[ply+1]])
	s.pvLen[ply] = max(s.pvLen[ply+1], ply+1)
}

// boundOf is the kind of bound a node's best score is, searched with the
// window (alpha, beta).
func boundOf(best, alpha, beta int) uint8 {
	switch {
	case best >= beta:
		return boundLower
	case best > alpha:
		return boundExact
	}
	return boundUpper
}

// order gives each move its ordering key in s.scoreBuf[ply].
func (s *Searcher) order(ply int, moves []engine.Move, hashMove engine.Move) {
	keys := &s.scoreBuf[ply]
	side := s.b.side()
	k1, k2 := s.killers[ply][0], s.killers[ply][1]
	for i, m := range moves {
		var k int32
		switch {
		case m == hashMove:
			k = orderHash
		case s.b.victim(m) > 0:
			k = int32(s.b.victim(m))*16 - int32(s.b.attacker(m))/16
			if s.b.see(m) >= 0 {
				k += orderCapture
			} else {
				k += orderBadCapture
			}
		case m == k1:
			k = orderKiller1
		case m == k2:
			k = orderKiller2
		default:
			k = s.history[side][uint16(m)]
		}
		keys[i] = k
	}
}

// pick moves the best-keyed move of moves[i:] to i and returns it: a
// selection sort that costs nothing for moves never reached after a cutoff.
func (s *Searcher) pick(ply int, moves []engine.Move, i int) engine.Move {
	keys := &s.scoreBuf[ply]
	b := i
	for j := i + 1; j < len(moves); j++ {
		if keys[j] > keys[b] {
			b = j
		}
	}
	moves[i], moves[b] = moves[b], moves[i]
	keys[i], keys[b] = keys[b], keys[i]
	return moves[i]
}
