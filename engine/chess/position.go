package chess

import (
	"github.com/xqdb/xqdb/engine"
)

// StartFEN is the standard starting position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// historyCap is the initial capacity of a Position's undo stack: most games
// fit, so Make does not allocate; longer games grow it once or twice.
const historyCap = 256

// Position is a chess position with the history of the moves made on it
// since it was set up. It implements engine.Position. The zero value is not
// usable: start from NewStart or ParseFEN.
type Position struct {
	b    board
	hist []histEntry
	// gen is b's check and pin information once genOK: a replay parses
	// a move and ranks it on the same position, and both need it.
	gen   genInfo
	genOK bool
}

// info returns the position's prepared genInfo.
func (p *Position) info() *genInfo {
	if !p.genOK {
		p.b.prepare(&p.gen)
		p.genOK = true
	}
	return &p.gen
}

type histEntry struct {
	u undo
	m engine.Move
}

var _ engine.Position = (*Position)(nil)

// NewStart returns the standard starting position (set up once by init,
// since importers set up a start position for every game).
func NewStart() *Position { return newPosition(startBoard) }

// Reset sets p to the starting position and clears its history, keeping
// its buffers, so one Position can replay game after game.
func (p *Position) Reset() {
	p.b, p.genOK = startBoard, false
	p.hist = p.hist[:0]
}

// SetFEN sets p to the position of a FEN (see ParseFEN) and clears its
// history, keeping its buffers. On error p is unchanged.
func (p *Position) SetFEN(fen string) error {
	b, err := parseBoard(fen)
	if err != nil {
		return err
	}
	p.b, p.genOK = b, false
	p.hist = p.hist[:0]
	return nil
}

// startBoard is the start position, set up by init (init.go).
var startBoard board

func newPosition(b board) *Position {
	return &Position{b: b, hist: make([]histEntry, 0, historyCap)}
}

// Game returns engine.Chess.
func (p *Position) Game() engine.Game { return engine.Chess }

// Key returns the Polyglot Zobrist key.
func (p *Position) Key() uint64 { return p.b.key }

// SideToMove returns White or Black.
func (p *Position) SideToMove() engine.Color { return p.b.side }

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool { return p.b.inCheck() }

// PieceAt returns the piece on s, or NoPiece.
func (p *Position) PieceAt(s Square) Piece { return p.b.sq[s&63] }

// EPSquare returns the e.p. target square, or NoSquare. It is set only when
// a pawn of the side to move stands beside the pawn that just double-stepped
// (see the package doc).
func (p *Position) EPSquare() Square { return p.b.ep }

// HalfmoveClock returns the plies since the last capture or pawn move
// (RULES C5: the fifty-move rule is claimable at 100, automatic at 150).
func (p *Position) HalfmoveClock() int { return int(p.b.half) }

// FullmoveNumber returns the FEN move number: 1 at the start, incremented
// after each Black move.
func (p *Position) FullmoveNumber() int { return int(p.b.full) }

// Ply returns how many moves were made since the position was set up.
func (p *Position) Ply() int { return len(p.hist) }

// Moves appends the moves made since set-up, oldest first, to dst.
func (p *Position) Moves(dst []engine.Move) []engine.Move {
	for _, h := range p.hist {
		dst = append(dst, h.m)
	}
	return dst
}

// LastMove returns the last move made, or NoMove.
func (p *Position) LastMove() engine.Move {
	if len(p.hist) == 0 {
		return engine.NoMove
	}
	return p.hist[len(p.hist)-1].m
}

// Keys appends the keys of the positions since set-up, the set-up position
// first and the current one last, to dst: the history repetition rulings
// need.
func (p *Position) Keys(dst []uint64) []uint64 {
	for _, h := range p.hist {
		dst = append(dst, h.u.key)
	}
	return append(dst, p.b.key)
}

// AppendLegalMoves appends every legal move to dst and returns it.
func (p *Position) AppendLegalMoves(dst []engine.Move) []engine.Move {
	return p.b.genLegal(dst, ^uint64(0))
}

// CountLegalMoves returns the number of legal moves without listing them.
func (p *Position) CountLegalMoves() int { return p.b.countLegal() }

// IsLegal reports whether m is a legal move here.
func (p *Position) IsLegal(m engine.Move) bool {
	return p.b.isLegal(m)
}

func (b *board) isLegal(m engine.Move) bool {
	if m == engine.NoMove || b.sq[moveFrom(m)] == NoPiece || b.sq[moveFrom(m)].Color() != b.side {
		return false
	}
	var buf [maxMoves]engine.Move
	for _, l := range b.genLegal(buf[:0], bit(moveTo(m))) {
		if l == m {
			return true
		}
	}
	return false
}

// Make plays the legal move m. It does not check legality (use IsLegal or
// ParseMove first); an illegal move corrupts the position. It does not
// allocate unless the history outgrows its capacity. engine.NullMove
// passes the turn (the caller checks the side to move is not in check).
func (p *Position) Make(m engine.Move) {
	if m == engine.NullMove {
		p.genOK = false
		p.hist = append(p.hist, histEntry{u: p.b.doNull(), m: m})
		return
	}
	if pc := p.b.sq[moveFrom(m)]; pc == NoPiece || pc.Color() != p.b.side {
		panic("chess: Make " + uciString(m) + ": no piece of the side to move on its from-square")
	}
	p.genOK = false
	u := p.b.doMove(m)
	p.hist = append(p.hist, histEntry{u: u, m: m})
}

// Unmake takes back the last move made. It panics when no move was made.
func (p *Position) Unmake() {
	n := len(p.hist) - 1
	if n < 0 {
		panic("chess: Unmake with no move made")
	}
	h := p.hist[n]
	p.hist = p.hist[:n]
	p.genOK = false
	if h.m == engine.NullMove {
		p.b.undoNull(h.u)
		return
	}
	p.b.undoMove(h.m, h.u)
}

// Clone returns an independent copy, history included.
func (p *Position) Clone() engine.Position { return p.Copy() }

// Copy is Clone with the concrete type.
func (p *Position) Copy() *Position {
	c := &Position{b: p.b, hist: make([]histEntry, len(p.hist), max(cap(p.hist), historyCap))}
	copy(c.hist, p.hist)
	return c
}
