package xiangqi

import (
	"sync"

	"github.com/xqdb/xqdb/engine"
)

// Board geometry. A square is (row<<4 | col) in a 16×16 mailbox; the playing
// area is files a–i (col 3–11) and ranks 0–9 (row 3–12), rank 0 being Red's
// back rank as in ICCS.
const (
	colOffset = 3
	rowOffset = 3
	// NumFiles and NumRanks are the board's size.
	NumFiles = 9
	NumRanks = 10
)

// Square returns the mailbox square of file 0–8 (a–i) and rank 0–9.
func Square(file, rank int) uint8 { return uint8((rank+rowOffset)<<4 | (file + colOffset)) }

// FileOf returns the file 0–8 of a board square.
func FileOf(sq uint8) int { return int(sq&15) - colOffset }

// RankOf returns the rank 0–9 of a board square.
func RankOf(sq uint8) int { return int(sq>>4) - rowOffset }

// Index90 returns 9*rank + file, the compact 0–89 numbering used on disk.
func Index90(sq uint8) int { return RankOf(sq)*NumFiles + FileOf(sq) }

// SquareFrom90 is the inverse of Index90.
func SquareFrom90(i int) uint8 { return Square(i%NumFiles, i/NumFiles) }

// Direction steps in the mailbox.
const (
	north = 16 // towards Black (rank+1)
	south = -16
	east  = 1 // towards file i
	west  = -1
)

// Kind is a piece type without colour.
type Kind uint8

// Piece kinds, in the slot order of the piece table.
const (
	NoKind Kind = iota
	General
	Advisor
	Elephant
	Horse
	Chariot
	Cannon
	Soldier
)

// Piece identities. Red pieces are 16–31, Black 32–47; within a side the
// slot gives the kind: 0 general, 1–2 advisors, 3–4 elephants, 5–6 horses,
// 7–8 chariots, 9–10 cannons, 11–15 soldiers. Board cells hold an id, empty
// (0) or wall.
const (
	empty    = 0
	wall     = 0x40 // neither colour bit (0x10 red, 0x20 black) is set
	redBit   = 0x10
	blackBit = 0x20
	numIDs   = 48
)

// slot ranges per kind: first slot and count.
var (
	slotFirst = [8]uint8{General: 0, Advisor: 1, Elephant: 3, Horse: 5, Chariot: 7, Cannon: 9, Soldier: 11}
	slotCount = [8]uint8{General: 1, Advisor: 2, Elephant: 2, Horse: 2, Chariot: 2, Cannon: 2, Soldier: 5}
)

// kindOf maps a piece id to its kind; colorOf to its side.
var kindOf [numIDs]Kind

func init() {
	for c := 0; c < 2; c++ {
		for k := General; k <= Soldier; k++ {
			for i := uint8(0); i < slotCount[k]; i++ {
				kindOf[16+16*c+int(slotFirst[k]+i)] = k
			}
		}
	}
}

func colorOf(id uint8) engine.Color { return engine.Color(id >> 5) }
func colorBit(c engine.Color) uint8 { return redBit << c }
func idBase(c engine.Color) uint8   { return 16 + 16*uint8(c) }
func generalID(c engine.Color) uint8 {
	return idBase(c)
}

// Square property tables.
var (
	onBoard  [256]bool
	inPalace [256]bool
	// half[sq] is the side whose half of the board sq lies in (Red: ranks
	// 0–4); 2 off the board.
	half [256]uint8
)

func init() {
	for i := range half {
		half[i] = 2
	}
	for f := 0; f < NumFiles; f++ {
		for r := 0; r < NumRanks; r++ {
			sq := Square(f, r)
			onBoard[sq] = true
			if r <= 4 {
				half[sq] = 0
			} else {
				half[sq] = 1
			}
			if f >= 3 && f <= 5 && (r <= 2 || r >= 7) {
				inPalace[sq] = true
			}
		}
	}
}

// undo is what Make saves so Unmake can restore the position exactly.
type undo struct {
	move     engine.Move
	captured uint8
	halfmove uint16
	key      uint64
}

// Position is a Xiangqi position with the history of moves made on it.
// The zero value is not usable; get one from ParseFEN or NewStart.
type Position struct {
	board    [256]uint8
	sq       [numIDs]uint8 // square of each piece id, 0 when absent
	side     engine.Color
	key      uint64
	halfmove uint16 // plies since the last capture (FEN field 5)
	fullmove uint16 // FEN field 6
	hist     []undo
}

// StartFEN is the standard start position (RULES X1: Red moves first).
const StartFEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

// NewStart returns the standard start position: a copy of one parsed once,
// since importers set up a start position for every game.
func NewStart() *Position { return startPosition().Copy() }

// Reset sets p to the start position and clears its history, keeping its
// buffers, so one Position can replay game after game.
func (p *Position) Reset() {
	h := p.hist[:0]
	*p = *startPosition()
	p.hist = h
}

// SetFEN sets p to the position of a FEN (see ParseFEN) and clears its
// history, keeping its buffers. On error p is unchanged.
func (p *Position) SetFEN(fen string) error {
	q, err := ParseFEN(fen)
	if err != nil {
		return err
	}
	h := p.hist[:0]
	*p = *q
	p.hist = h
	return nil
}

// startPosition is lazy: the tables ParseFEN needs are filled by init.
var startPosition = sync.OnceValue(func() *Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic("xiangqi: start FEN rejected: " + err.Error())
	}
	return p
})

// Game reports engine.Xiangqi.
func (p *Position) Game() engine.Game { return engine.Xiangqi }

// Key returns the position's Zobrist key (board and side to move).
func (p *Position) Key() uint64 { return p.key }

// SideToMove returns the side to move: engine.First is Red.
func (p *Position) SideToMove() engine.Color { return p.side }

// Ply returns the number of moves made since the position was set up.
func (p *Position) Ply() int { return len(p.hist) }

// HalfmoveClock returns the plies since the last capture.
func (p *Position) HalfmoveClock() int { return int(p.halfmove) }

// PieceAt returns the kind and colour of the piece on sq (NoKind if none).
func (p *Position) PieceAt(sq uint8) (Kind, engine.Color) {
	id := p.board[sq]
	if id == empty || id == wall {
		return NoKind, 0
	}
	return kindOf[id], colorOf(id)
}

// IDAt returns the identity of the piece on sq (0 if none). Identities stay
// with a piece as it moves, which lets callers follow one piece.
func (p *Position) IDAt(sq uint8) uint8 {
	id := p.board[sq]
	if id == wall {
		return 0
	}
	return id
}

// SquareOf returns the square of piece id (0 if captured or absent).
func (p *Position) SquareOf(id uint8) uint8 { return p.sq[id] }

// GeneralSquare returns the square of side c's general.
func (p *Position) GeneralSquare(c engine.Color) uint8 { return p.sq[generalID(c)] }

// LastMove returns the last move made, or engine.NoMove.
func (p *Position) LastMove() engine.Move {
	if len(p.hist) == 0 {
		return engine.NoMove
	}
	return p.hist[len(p.hist)-1].move
}

// HistoryKey returns the key of the position before the i-th move made
// (0-based), for repetition detection.
func (p *Position) HistoryKey(i int) uint64 { return p.hist[i].key }

// Clone returns an independent copy, history included.
func (p *Position) Clone() engine.Position { return p.Copy() }

// Copy is Clone with the concrete type.
func (p *Position) Copy() *Position {
	q := *p
	q.hist = make([]undo, len(p.hist), max(cap(p.hist), 256))
	copy(q.hist, p.hist)
	return &q
}

// MoveFrom and MoveTo unpack an engine.Move: from in the low byte, to in the
// high byte (both mailbox squares; a zero from is never a square).
func MoveFrom(m engine.Move) uint8 { return uint8(m) }

// MoveTo returns the destination square of m.
func MoveTo(m engine.Move) uint8 { return uint8(m >> 8) }

// NewMove packs a move from one mailbox square to another.
func NewMove(from, to uint8) engine.Move { return engine.Move(from) | engine.Move(to)<<8 }
