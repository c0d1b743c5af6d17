package xiangqi

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
)

// The proof behind X16's tables (material.go).
//
// Dead: no placement of a signature's pieces, with either side to move,
// leaves the side to move without a legal move, and the same holds for
// every signature reachable by captures. Then no sequence of moves can mate
// or stalemate (the only wins, RULES X12), whatever the players do.
//
// Mate-in-one: every capture leads to dead material, and a retrograde
// analysis of all placements finds no forced win longer than one move
// (nor any position lost for the side to move other than one already
// mated or stalemated).

// pieceSpec is one piece to place: its side, kind and possible points.
type pieceSpec struct {
	c      engine.Color
	k      Kind
	points []uint8
}

// specsOf lists the pieces of a signature with the points each may stand
// on: generals and advisors on their palace points, elephants on their
// seven points (RULES X2–X4), an old soldier on the enemy's back rank, a
// cannon anywhere.
func specsOf(s matSig) []pieceSpec {
	var out []pieceSpec
	kinds := [sigKinds]Kind{sigAdvisor: Advisor, sigElephant: Elephant, sigCannon: Cannon, sigOldSoldier: Soldier}
	for c := engine.First; c <= engine.Second; c++ {
		out = append(out, pieceSpec{c, General, placements(c, General)})
		for i, k := range kinds {
			for range s.n[c][i] {
				out = append(out, pieceSpec{c, k, placements(c, k)})
			}
		}
	}
	return out
}

func placements(c engine.Color, k Kind) []uint8 {
	var out []uint8
	for r := 0; r < NumRanks; r++ {
		for f := 0; f < NumFiles; f++ {
			ok := placementError(k, c, f, r) == ""
			if k == Soldier {
				ok = r == 9*(1-int(c))
			}
			if ok {
				out = append(out, Square(f, r))
			}
		}
	}
	return out
}

// forEachPlacement calls fn on every legal placement of s with each side to
// move (the side not to move not in check, generals not facing), until fn
// returns false.
func forEachPlacement(s matSig, fn func(p *Position) bool) {
	p := &Position{hist: make([]undo, 0, 8)}
	for i := range p.board {
		p.board[i] = wall
	}
	for f := 0; f < NumFiles; f++ {
		for r := 0; r < NumRanks; r++ {
			p.board[Square(f, r)] = empty
		}
	}
	specs := specsOf(s)
	var used [2][8]uint8
	stop := false
	var place func(i int, min uint8)
	place = func(i int, min uint8) {
		if stop {
			return
		}
		if i == len(specs) {
			for side := engine.First; side <= engine.Second && !stop; side++ {
				p.side = side
				if !p.kingAttacked(p.sq[generalID(side.Other())], side) {
					p.key = p.computeKey()
					stop = !fn(p)
				}
			}
			return
		}
		sp := specs[i]
		id := idBase(sp.c) + slotFirst[sp.k] + used[sp.c][sp.k]
		used[sp.c][sp.k]++
		// Identical pieces go in increasing point order: each set of
		// points is tried once.
		same := i > 0 && specs[i-1].c == sp.c && specs[i-1].k == sp.k
		for _, sq := range sp.points {
			if same && sq <= min || p.board[sq] != empty {
				continue
			}
			p.board[sq], p.sq[id] = id, sq
			place(i+1, sq)
			p.board[sq], p.sq[id] = empty, 0
		}
		used[sp.c][sp.k]--
	}
	place(0, 0)
}

// terminalExample returns the FEN of a placement of s whose side to move has
// no legal move, or "".
func terminalExample(s matSig) string {
	found := ""
	forEachPlacement(s, func(p *Position) bool {
		if !p.hasLegalMove() {
			found = p.FEN()
		}
		return found == ""
	})
	return found
}

// deadClosed reports whether s and every signature reachable from it by
// captures are dead, with a counter-example when not; memo caches.
func deadClosed(s matSig, memo map[matSig]string) (bool, string) {
	if ex, ok := memo[s]; ok {
		return ex == "", ex
	}
	ex := terminalExample(s)
	if ex == "" {
		for _, sub := range s.captures() {
			if ok, subEx := deadClosed(sub, memo); !ok {
				ex = sub.String() + ": " + subEx
				break
			}
		}
	}
	memo[s] = ex
	return ex == "", ex
}

// captures returns the signatures one capture away.
func (s matSig) captures() []matSig {
	var out []matSig
	for c := 0; c < 2; c++ {
		for k := range s.n[c] {
			if s.n[c][k] > 0 {
				t := s
				t.n[c][k]--
				out = append(out, t)
			}
		}
	}
	return out
}

// mateInOneOnly checks the mate-in-one claim for s by retrograde analysis:
// captures lead to dead material, and every won position is won by a move
// that leaves the opponent without a legal move. It returns why not, or "".
func mateInOneOnly(s matSig, memo map[matSig]string) string {
	for _, sub := range s.captures() {
		if ok, ex := deadClosed(sub, memo); !ok {
			return fmt.Sprintf("capture to %s, which is not dead (%s)", sub, ex)
		}
	}
	// value: -1 the side to move has no legal move (lost); n > 0 the side
	// to move wins in n plies; -n lost in n plies; 0 unresolved (a draw
	// once nothing changes).
	value := map[uint64]int{}
	type node struct {
		p   *Position
		key uint64
	}
	var open []node
	forEachPlacement(s, func(p *Position) bool {
		if !p.hasLegalMove() {
			value[p.key] = -1
			return true
		}
		q := *p
		q.hist = make([]undo, 0, 2)
		open = append(open, node{&q, p.key})
		return true
	})
	var buf [MaxMoves]engine.Move
	for changed := true; changed; {
		changed = false
		upd := map[uint64]int{}
		next := open[:0]
		for _, n := range open {
			win, allLose, longest := 0, true, 0
			for _, m := range n.p.AppendLegalMoves(buf[:0]) {
				if n.p.IsCapture(m) {
					allLose = false // into dead material: a draw
					continue
				}
				n.p.Make(m)
				v := value[n.p.key]
				n.p.Unmake()
				switch {
				case v == -1:
					win = 1
				case v < 0 && (win == 0 || -v+1 < win):
					win = -v + 1
				case v > 0:
					longest = max(longest, v+1)
				default:
					allLose = false
				}
			}
			switch {
			case win > 0:
				upd[n.key] = win
			case allLose:
				upd[n.key] = -longest
			default:
				next = append(next, n)
			}
		}
		for k, v := range upd {
			value[k] = v
			changed = true
		}
		open = next
	}
	for _, v := range value {
		if v != -1 && v != 1 && v != 0 {
			return fmt.Sprintf("a forced result in %d plies", v)
		}
	}
	return ""
}

// TestInsufficientMaterialProof proves the tables of material.go (RULES
// X16). The normal run proves the signatures the rules-cases table uses and
// the advisors-and-elephants rule; XQDB_LONG=1 proves every entry and that
// the tables are complete within their stated bounds.
func TestInsufficientMaterialProof(t *testing.T) {
	memo := map[matSig]string{}
	dead := strings.Fields(deadSignatures)
	mate1 := strings.Fields(mateInOneSignatures)
	if !enginetest.Long() {
		dead = []string{"KC-K", "KC-KA", "KC-KC", "KP-K", "KAABB-KAABB"}
		mate1 = []string{"KCB-KA", "KC-KAA"}
	} else {
		dead = append(dead, "KAABB-KAABB")
	}
	for _, str := range dead {
		if ok, ex := deadClosed(parseSignature(str), memo); !ok {
			t.Errorf("%s is listed dead, but %s", str, ex)
		}
	}
	for _, str := range mate1 {
		if why := mateInOneOnly(parseSignature(str), memo); why != "" {
			t.Errorf("%s is listed mate-in-one, but has %s", str, why)
		}
	}
	if enginetest.Long() {
		checkMaterialTablesComplete(t, memo)
	}
}

// checkMaterialTablesComplete enumerates every signature within the tables'
// bounds — at most four pieces besides the generals, at most two of each
// kind per side, at most two cannons, at least one cannon or old soldier —
// and checks that the tables hold exactly those proven dead or
// mate-in-one (up to colours).
func checkMaterialTablesComplete(t *testing.T, memo map[matSig]string) {
	var wantDead, wantMate1 []string
	canon := func(s matSig) string { return min(s.String(), s.swapped().String()) }
	seen := map[string]bool{}
	var n [8]uint8
	var rec func(i, total int)
	rec = func(i, total int) {
		if i == len(n) {
			var s matSig
			for j, v := range n {
				s.n[j/sigKinds][j%sigKinds] = v
			}
			c, p := s.n[0][sigCannon]+s.n[1][sigCannon], s.n[0][sigOldSoldier]+s.n[1][sigOldSoldier]
			if c+p == 0 || c > 2 || seen[canon(s)] {
				return
			}
			seen[canon(s)] = true
			if ok, _ := deadClosed(s, memo); ok {
				wantDead = append(wantDead, canon(s))
			} else if mateInOneOnly(s, memo) == "" {
				wantMate1 = append(wantMate1, canon(s))
			}
			return
		}
		for v := 0; v <= 2 && total+v <= 4; v++ {
			n[i] = uint8(v)
			rec(i+1, total+v)
		}
	}
	rec(0, 0)
	for _, tc := range []struct {
		name       string
		list, want []string
	}{{"dead", strings.Fields(deadSignatures), wantDead}, {"mate-in-one", strings.Fields(mateInOneSignatures), wantMate1}} {
		var got []string
		for _, str := range tc.list {
			got = append(got, canon(parseSignature(str)))
		}
		slices.Sort(got)
		slices.Sort(tc.want)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s signatures:\n got %v\nwant %v", tc.name, got, tc.want)
		}
	}
}
