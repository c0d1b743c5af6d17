package xiangqi

import "github.com/xqdb/xqdb/engine"

const maxPerftDepth = 32

// Perft counts the leaf nodes of the legal move tree to depth plies, with
// bulk counting at the last ply (the count of legal moves is the number of
// leaves; mated and stalemated nodes contribute nothing).
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if depth > maxPerftDepth {
		depth = maxPerftDepth
	}
	var bufs [maxPerftDepth][MaxMoves]engine.Move
	return p.perft(depth, bufs[:depth])
}

func (p *Position) perft(depth int, bufs [][MaxMoves]engine.Move) uint64 {
	moves := p.AppendLegalMoves(bufs[0][:0])
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		p.makeMove(m)
		n += p.perft(depth-1, bufs[1:])
		p.unmakeMove()
	}
	return n
}

// DivideEntry is one root move and the perft of the position after it.
type DivideEntry struct {
	Move  engine.Move
	Nodes uint64
}

// Divide returns perft(depth-1) after each legal root move, in generation
// order.
func (p *Position) Divide(depth int) []DivideEntry {
	var buf [MaxMoves]engine.Move
	moves := p.AppendLegalMoves(buf[:0])
	out := make([]DivideEntry, 0, len(moves))
	for _, m := range moves {
		p.Make(m)
		out = append(out, DivideEntry{m, p.Perft(depth - 1)})
		p.Unmake()
	}
	return out
}
