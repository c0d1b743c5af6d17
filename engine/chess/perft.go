package chess

import (
	"slices"

	"github.com/xqdb/xqdb/engine"
)

// Perft counts the leaf nodes of the legal move tree of the given depth
// (1 for depth 0). The last ply is bulk-counted: the moves of each
// second-to-last node are counted, not made. p is left unchanged.
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	b := p.b
	return b.perft(depth)
}

func (b *board) perft(depth int) uint64 {
	if depth == 1 {
		return uint64(b.countLegal())
	}
	var buf [maxMoves]engine.Move
	moves := b.genLegal(buf[:0], ^uint64(0))
	var n uint64
	if depth == 2 {
		for _, m := range moves {
			u := b.doMove(m)
			n += uint64(b.countLegal())
			b.undoMove(m, u)
		}
		return n
	}
	for _, m := range moves {
		u := b.doMove(m)
		n += b.perft(depth - 1)
		b.undoMove(m, u)
	}
	return n
}

// DivideEntry is one root move of PerftDivide with the leaf count below it.
type DivideEntry struct {
	Move  engine.Move
	Nodes uint64
}

// PerftDivide returns, for every legal move, the perft count of depth-1
// after it (the CLI's --divide and Stockfish's "go perft" listing), sorted
// by the moves' UCI text. It returns nil for depth < 1.
func (p *Position) PerftDivide(depth int) []DivideEntry {
	if depth < 1 {
		return nil
	}
	b := p.b
	var buf [maxMoves]engine.Move
	var out []DivideEntry
	for _, m := range b.genLegal(buf[:0], ^uint64(0)) {
		n := uint64(1)
		if depth > 1 {
			u := b.doMove(m)
			n = b.perft(depth - 1)
			b.undoMove(m, u)
		}
		out = append(out, DivideEntry{Move: m, Nodes: n})
	}
	slices.SortFunc(out, func(x, y DivideEntry) int {
		return compareUCI(x.Move, y.Move)
	})
	return out
}

// compareUCI orders moves as their UCI strings sort.
func compareUCI(x, y engine.Move) int {
	key := func(m engine.Move) int {
		f, t := moveFrom(m), moveTo(m)
		// file before rank, as in the text; promotion letters b<n<q<r.
		order := [...]int{0, 2, 1, 4, 3} // none, n, b, r, q → "", b, n, q, r
		p := int(m>>12) & 7
		if p >= len(order) {
			p = 0
		}
		return ((f.File()*8+f.Rank())*64+t.File()*8+t.Rank())*8 + order[p]
	}
	return key(x) - key(y)
}
