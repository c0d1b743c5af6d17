package xiangqi

import "github.com/xqdb/xqdb/engine"

// Make plays a legal move. The caller guarantees legality (moves come from
// AppendLegalMoves or ParseMove); Make keeps the key incrementally and
// pushes what Unmake needs. It does not allocate while the history stays
// within its preallocated capacity. engine.NullMove passes the turn (the
// caller checks the side to move is not in check).
func (p *Position) Make(m engine.Move) {
	if m == engine.NullMove {
		p.makeNull()
		return
	}
	p.makeMove(m)
}

// makeNull passes the turn: only the side, the key and the counters change.
func (p *Position) makeNull() {
	p.hist = append(p.hist, undo{move: engine.NullMove, halfmove: p.halfmove, key: p.key})
	p.key ^= zobBlack
	p.halfmove++
	if p.side == engine.Second {
		p.fullmove++
	}
	p.side ^= 1
}

// makeMove is Make of a real move: perft calls it directly.
func (p *Position) makeMove(m engine.Move) {
	from, to := MoveFrom(m), MoveTo(m)
	pc, captured := p.board[from], p.board[to]
	p.hist = append(p.hist, undo{move: m, captured: captured, halfmove: p.halfmove, key: p.key})
	k := p.key ^ zobPiece[zobIndex[pc]][from] ^ zobPiece[zobIndex[pc]][to] ^ zobBlack
	if captured != empty {
		k ^= zobPiece[zobIndex[captured]][to]
		p.sq[captured] = 0
		p.halfmove = 0
	} else {
		p.halfmove++
	}
	p.board[to], p.board[from] = pc, empty
	p.sq[pc] = to
	p.key = k
	if p.side == engine.Second {
		p.fullmove++
	}
	p.side ^= 1
}

// Unmake takes back the last move made (a null move too).
func (p *Position) Unmake() {
	if p.hist[len(p.hist)-1].move == engine.NullMove {
		u := p.hist[len(p.hist)-1]
		p.hist = p.hist[:len(p.hist)-1]
		p.side ^= 1
		if p.side == engine.Second {
			p.fullmove--
		}
		p.halfmove, p.key = u.halfmove, u.key
		return
	}
	p.unmakeMove()
}

// unmakeMove is Unmake of a real move: perft calls it directly.
func (p *Position) unmakeMove() {
	u := p.hist[len(p.hist)-1]
	p.hist = p.hist[:len(p.hist)-1]
	from, to := MoveFrom(u.move), MoveTo(u.move)
	pc := p.board[to]
	p.board[from], p.board[to] = pc, u.captured
	p.sq[pc] = from
	if u.captured != empty {
		p.sq[u.captured] = to
	}
	p.side ^= 1
	if p.side == engine.Second {
		p.fullmove--
	}
	p.halfmove = u.halfmove
	p.key = u.key
}

// Captured returns the id of the piece the last move captured (0 if none).
func (p *Position) Captured() uint8 {
	if len(p.hist) == 0 {
		return 0
	}
	return p.hist[len(p.hist)-1].captured
}

// IsCapture reports whether m captures in the current position.
func (p *Position) IsCapture(m engine.Move) bool { return p.board[MoveTo(m)] != empty }
