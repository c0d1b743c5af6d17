package search

import (
	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

// xqBoard is the Xiangqi adapter.
type xqBoard struct {
	s *Searcher
	p *xiangqi.Position
	// verdicts caches the referee's rulings on repetition cycles: a search
	// meets the same cycle at many nodes, and asking the referee copies the
	// position.
	verdicts [verdictSlots]verdictEntry
	// rootChecks are the checks each side gave since the last capture
	// before the search's root, counted when the X15 move limit is within
	// reach of the search (rootChecksKnown).
	rootChecks      [2]int
	rootChecksKnown bool
	replay          []engine.Move // scratch of startSearch
}

const verdictSlots = 1 << 12

// verdictEntry is the ruling on one repetition: who loses (the perpetual
// checker or chaser), or a draw.
type verdictEntry struct {
	hash  uint64
	loser int8 // -1 draw, else the losing engine.Color
}

func (b *xqBoard) key() uint64                              { return b.p.Key() }
func (b *xqBoard) side() engine.Color                       { return b.p.SideToMove() }
func (b *xqBoard) inCheck() bool                            { return b.p.InCheck() }
func (b *xqBoard) moves(dst []engine.Move) []engine.Move    { return b.p.AppendLegalMoves(dst) }
func (b *xqBoard) captures(dst []engine.Move) []engine.Move { return b.p.AppendLegalCaptures(dst) }
func (b *xqBoard) doMove(m engine.Move)                     { b.p.Make(m) }
func (b *xqBoard) undoMove()                                { b.p.Unmake() }
func (b *xqBoard) doNull()                                  { b.p.MakeNull() }
func (b *xqBoard) undoNull()                                { b.p.UnmakeNull() }
func (b *xqBoard) historyLen() int                          { return b.p.Ply() }
func (b *xqBoard) evaluate() int                            { return evalXiangqi(b.p) }

func (b *xqBoard) victim(m engine.Move) int {
	k, _ := b.p.PieceAt(xiangqi.MoveTo(m))
	return xqOrderValue[k]
}

// see is xiangqi.Position.SEE in the values of move ordering.
func (b *xqBoard) see(m engine.Move) int { return b.p.SEE(m, &xqOrderValue) }

func (b *xqBoard) to(m engine.Move) int { return int(xiangqi.MoveTo(m)) }

func (b *xqBoard) attacker(m engine.Move) int {
	k, _ := b.p.PieceAt(xiangqi.MoveFrom(m))
	return xqOrderValue[k]
}

// xqOrderValue ranks victims and attackers for MVV-LVA.
var xqOrderValue = [8]int{xiangqi.General: 2000, xiangqi.Advisor: 200, xiangqi.Elephant: 200,
	xiangqi.Horse: 430, xiangqi.Chariot: 1000, xiangqi.Cannon: 450, xiangqi.Soldier: 100}

// noMoves: RULES X12, a side without a legal move loses, in check or not.
func (b *xqBoard) noMoves(ply int, _ bool) int { return -Mate + ply }

// canNull: RULES gives no zugzwang-free endings, but with no chariot,
// horse or cannon left the side to move has little but tempo moves, and
// passing would hide zugzwang: no null move then.
func (b *xqBoard) canNull() bool {
	base := uint8(16 + 16*int(b.p.SideToMove()))
	for slot := uint8(5); slot <= 10; slot++ {
		if b.p.SquareOf(base+slot) != 0 {
			return true
		}
	}
	return false
}

// rule judges repetitions by the referee (RULES X13, X14) and the move
// limit (X15).
func (b *xqBoard) rule(ply, rootPly int) (int, bool) {
	p := b.p
	n := p.Ply()
	hm := p.HalfmoveClock()
	w := min(hm, n)
	key := p.Key()
	// The same position with the same side to move, at least 4 plies
	// back, and not before the last capture (or null move).
	for i := n - 4; i >= n-w; i -= 2 {
		if p.HistoryKey(i) == key {
			return b.repetition(i, ply), true
		}
	}
	return b.limitRule(ply, rootPly)
}

// limitRule applies the X15 move limit at the node at ply.
func (b *xqBoard) limitRule(ply, rootPly int) (int, bool) {
	limit := b.s.moveLimit()
	if limit <= 0 || b.p.HalfmoveClock() < limit || b.countedPlies(rootPly) < limit {
		return 0, false
	}
	// RULES X15: never a draw when the side to move is mated (or has no
	// move at all, which loses too: X12).
	if len(b.p.AppendLegalMoves(b.s.moveBuf[ply][:0])) == 0 {
		return b.noMoves(ply, b.p.InCheck()), true
	}
	return 0, true
}

// startSearch counts the checks each side gave since the last capture
// before the root, when the search may reach the X15 move limit: the
// moves are taken back and made again on the position itself, which
// allocates nothing (its history keeps its capacity).
func (b *xqBoard) startSearch() {
	b.rootChecks, b.rootChecksKnown = [2]int{}, false
	p := b.p
	limit := b.s.moveLimit()
	hm := p.HalfmoveClock()
	if limit <= 0 || hm+MaxPly < limit {
		return
	}
	n := p.Ply()
	w := min(hm, n) // plies set up by a FEN's clock have no moves: quiet
	b.replay = b.replay[:0]
	for i := n - w; i < n; i++ {
		b.replay = append(b.replay, p.HistoryMove(i))
	}
	for range w {
		p.Unmake()
	}
	for _, m := range b.replay {
		mover := p.SideToMove()
		p.Make(m)
		if p.InCheck() {
			b.rootChecks[mover]++
		}
	}
	b.rootChecksKnown = true
}

// countedPlies is the X15 count at the current node: the plies since the
// last capture, less each side's checks beyond its 10th (RULES X15: "each
// side's checks beyond its 10th do not count"). Checks before the root
// come from startSearch, those in the tree from Searcher.gaveCheck.
func (b *xqBoard) countedPlies(rootPly int) int {
	p := b.p
	n := p.Ply()
	hm := p.HalfmoveClock()
	var checks [2]int
	from := n - min(hm, n-rootPly) // the first tree move in the window
	if from == rootPly {
		if !b.rootChecksKnown {
			return hm
		}
		checks = b.rootChecks
	}
	rootSide := p.SideToMove()
	if (n-rootPly)%2 == 1 {
		rootSide = rootSide.Other()
	}
	for j := from; j < n; j++ {
		if b.s.gaveCheck[j-rootPly+1] {
			checks[rootSide^engine.Color((j-rootPly)&1)]++
		}
	}
	return hm - max(0, checks[0]-10) - max(0, checks[1]-10)
}

// repetition scores the node at ply, whose position occurred before at
// history index i, by what the referee rules when the cycle from i goes on.
func (b *xqBoard) repetition(i, ply int) int {
	p := b.p
	n := p.Ply()
	w := min(p.HalfmoveClock(), n)
	// The ruling depends on the moves since the last capture (a vn
	// allowance counts checks and chases from before the cycle), so they
	// all go into the cache key.
	h := p.Key() ^ uint64(n-i)*0x9e3779b97f4a7c15
	for j := n - w; j < n; j++ {
		h = (h ^ p.HistoryKey(j)) * 0xff51afd7ed558ccd
	}
	h |= 1
	e := &b.verdicts[h&(verdictSlots-1)]
	if e.hash != h {
		*e = verdictEntry{hash: h, loser: b.judgeCycle(i)}
	}
	switch {
	case e.loser < 0:
		return 0
	case engine.Color(e.loser) == p.SideToMove():
		return -Mate + ply
	}
	return Mate - ply
}

// judgeCycle asks the referee: the cycle of moves from history index i to
// now is played again on a copy until it rules (RULES X13 under the
// searcher's profile: at the 3rd occurrence under asian, once the
// violator's allowance is used up under vn). It returns the loser, or -1
// for a draw.
func (b *xqBoard) judgeCycle(i int) int8 {
	p := b.p
	n := p.Ply()
	ref := xiangqi.NewReferee(p.Copy(), b.s.rules)
	r := ref.Last()
	for rep := 0; rep < 24 && !r.Decided(); rep++ {
		for j := i; j < n && !r.Decided(); j++ {
			r = ref.Play(p.HistoryMove(j))
		}
	}
	switch r.Status {
	case engine.PerpetualCheck, engine.PerpetualChase:
		return int8(r.Side)
	}
	return -1
}

// moveLimit is the X15 limit the rules set (0: none).
func (s *Searcher) moveLimit() int {
	switch {
	case s.rules.MoveLimit == 0:
		return xiangqi.DefaultMoveLimit
	case s.rules.MoveLimit < 0:
		return 0
	}
	return s.rules.MoveLimit
}
