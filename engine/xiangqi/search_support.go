package xiangqi

import "github.com/xqdb/xqdb/engine"

// What a searching engine (engine/search) needs beyond the Position
// contract: captures alone for its quiescence search, a null move for
// null-move pruning, and the moves of the history for repetition rulings.

// AppendLegalCaptures appends the legal moves that capture to dst.
// Pseudo-legal moves come grouped by piece and filtering keeps that order,
// which keepLegal relies on.
func (p *Position) AppendLegalCaptures(dst []engine.Move) []engine.Move {
	start := len(dst)
	dst = p.appendPseudo(dst)
	n := start
	for i := start; i < len(dst); i++ {
		if p.board[MoveTo(dst[i])] != empty {
			dst[n] = dst[i]
			n++
		}
	}
	return p.keepLegal(dst[:n], start)
}

// MakeNull passes the move to the opponent without moving a piece. It is
// not a legal Xiangqi move: only a search makes it, never while in check.
// The halfmove clock restarts at 0, as after a capture, so that repetition
// scans and the referee's analyses never look back across it.
func (p *Position) MakeNull() {
	p.hist = append(p.hist, undo{move: engine.NoMove, halfmove: p.halfmove, key: p.key})
	p.key ^= zobBlack
	p.halfmove = 0
	if p.side == engine.Second {
		p.fullmove++
	}
	p.side ^= 1
}

// UnmakeNull takes back MakeNull.
func (p *Position) UnmakeNull() {
	u := p.hist[len(p.hist)-1]
	p.hist = p.hist[:len(p.hist)-1]
	p.side ^= 1
	if p.side == engine.Second {
		p.fullmove--
	}
	p.halfmove = u.halfmove
	p.key = u.key
}

// HistoryMove returns the i-th move made (0-based), NoMove for a null move.
func (p *Position) HistoryMove(i int) engine.Move { return p.hist[i].move }

// PieceKind returns the kind of piece identity id (16–47; see IDAt).
func PieceKind(id uint8) Kind { return kindOf[id&63] }
