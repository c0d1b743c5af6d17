package xiangqi

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/xqdb/xqdb/engine"
)

// pieceLetters maps FEN letters to kinds; E and H are the aliases some
// sources use for elephant and horse (NOTATIONS §1).
var pieceLetters = map[byte]Kind{
	'k': General, 'a': Advisor, 'b': Elephant, 'e': Elephant, 'n': Horse, 'h': Horse,
	'r': Chariot, 'c': Cannon, 'p': Soldier,
}

var kindLetter = [8]byte{General: 'k', Advisor: 'a', Elephant: 'b', Horse: 'n', Chariot: 'r', Cannon: 'c', Soldier: 'p'}

// Letter returns the FEN letter of a kind (lower case).
func (k Kind) Letter() byte { return kindLetter[k] }

var kindNames = [8]string{NoKind: "none", General: "general", Advisor: "advisor", Elephant: "elephant", Horse: "horse", Chariot: "chariot", Cannon: "cannon", Soldier: "soldier"}

// String returns the English name of the kind.
func (k Kind) String() string { return kindNames[k] }

func fenError(fen, why string, args ...any) error {
	return fmt.Errorf("xiangqi: FEN %q: %s: %w", fen, fmt.Sprintf(why, args...), engine.ErrBadFEN)
}

// ParseFEN reads a position in the xqbase/UCCI FEN dialect: ranks 9 to 0,
// upper case Red, side "w" or "r" for Red and "b" for Black (RULES X1: Red
// when the side is missing). Fields after the side are optional.
//
// It rejects positions that cannot arise: a missing or extra general, more
// pieces of a kind than a side owns, a general or advisor outside its
// palace points, an elephant off its seven points, a soldier behind its
// start rank or off its file before the river, generals facing (X10), and
// the side not to move in check (X11).
func ParseFEN(fen string) (*Position, error) {
	fields := strings.Fields(fen)
	if len(fields) == 0 {
		return nil, fenError(fen, "empty")
	}
	p := &Position{hist: make([]undo, 0, 256), fullmove: 1}
	for i := range p.board {
		p.board[i] = wall
	}
	for f := 0; f < NumFiles; f++ {
		for r := 0; r < NumRanks; r++ {
			p.board[Square(f, r)] = empty
		}
	}
	rows := strings.Split(fields[0], "/")
	if len(rows) != NumRanks {
		return nil, fenError(fen, "%d ranks, want 10", len(rows))
	}
	var used [2][8]uint8
	for i, row := range rows {
		rank := NumRanks - 1 - i
		file := 0
		if row == "" { // partial FENs write an empty rank as "" (px0 PartialFen)
			continue
		}
		for j := 0; j < len(row); j++ {
			ch := row[j]
			if ch >= '1' && ch <= '9' {
				file += int(ch - '0')
				continue
			}
			lower := ch | 0x20
			kind, ok := pieceLetters[lower]
			if !ok {
				return nil, fenError(fen, "unknown piece letter %q on rank %d", ch, rank)
			}
			if file >= NumFiles {
				return nil, fenError(fen, "rank %d has more than 9 files", rank)
			}
			c := engine.First
			if ch == lower {
				c = engine.Second
			}
			if used[c][kind] >= slotCount[kind] {
				return nil, fenError(fen, "more than %d %s %ss", slotCount[kind], c.Name(engine.Xiangqi), kind)
			}
			id := idBase(c) + slotFirst[kind] + used[c][kind]
			used[c][kind]++
			sq := Square(file, rank)
			if why := placementError(kind, c, file, rank); why != "" {
				return nil, fenError(fen, "%s %s on %c%d %s", c.Name(engine.Xiangqi), kind, 'a'+file, rank, why)
			}
			p.board[sq] = id
			p.sq[id] = sq
			file++
		}
		if file != NumFiles {
			return nil, fenError(fen, "rank %d has %d files, want 9", rank, file)
		}
	}
	for c := engine.First; c <= engine.Second; c++ {
		if used[c][General] == 0 {
			return nil, fenError(fen, "no %s general", c.Name(engine.Xiangqi))
		}
	}
	if len(fields) > 1 {
		switch fields[1] {
		case "w", "r", "W", "R":
			p.side = engine.First
		case "b", "B":
			p.side = engine.Second
		default:
			return nil, fenError(fen, "side to move %q, want w, r or b", fields[1])
		}
	}
	// Fields 3 and 4 are "- -" in Xiangqi; tolerate anything there.
	if len(fields) > 4 {
		n, err := strconv.ParseUint(fields[4], 10, 16)
		if err != nil {
			return nil, fenError(fen, "half-move clock %q", fields[4])
		}
		p.halfmove = uint16(n)
	}
	if len(fields) > 5 {
		n, err := strconv.ParseUint(fields[5], 10, 16)
		if err != nil || n == 0 {
			return nil, fenError(fen, "move number %q", fields[5])
		}
		p.fullmove = uint16(n)
	}
	if p.generalsFacing() {
		return nil, fenError(fen, "generals face each other on an open file (RULES X10)")
	}
	if p.kingAttacked(p.sq[generalID(p.side.Other())], p.side) {
		return nil, fenError(fen, "%s, not to move, is in check (RULES X11)", p.side.Other().Name(engine.Xiangqi))
	}
	p.key = p.computeKey()
	return p, nil
}

// placementError says why a piece cannot stand on a point, or "".
// RULES X2–X4, X8: generals and advisors stay in the palace on their points,
// elephants on their seven points on their own side, soldiers never move
// backwards and only forwards before the river.
func placementError(k Kind, c engine.Color, file, rank int) string {
	r := rank // rank from the piece's own side
	if c == engine.Second {
		r = NumRanks - 1 - rank
	}
	switch k {
	case General:
		if file < 3 || file > 5 || r > 2 {
			return "is outside its palace"
		}
	case Advisor:
		if !((file == 3 || file == 5) && (r == 0 || r == 2) || file == 4 && r == 1) {
			return "is off the advisor points"
		}
	case Elephant:
		ok := (r == 0 || r == 4) && (file == 2 || file == 6) || r == 2 && (file == 0 || file == 4 || file == 8)
		if !ok {
			return "is off the elephant points"
		}
	case Soldier:
		if r < 3 {
			return "is behind its start rank"
		}
		if r <= 4 && file%2 == 1 {
			return "has moved sideways before the river"
		}
	}
	return ""
}

// FEN returns the position in the xqbase/UCCI dialect with letters KABNRCP.
func (p *Position) FEN() string {
	var b strings.Builder
	b.Grow(80)
	for rank := NumRanks - 1; rank >= 0; rank-- {
		gap := 0
		for file := 0; file < NumFiles; file++ {
			id := p.board[Square(file, rank)]
			if id == empty {
				gap++
				continue
			}
			if gap > 0 {
				b.WriteByte(byte('0' + gap))
				gap = 0
			}
			ch := kindLetter[kindOf[id]]
			if colorOf(id) == engine.First {
				ch -= 'a' - 'A'
			}
			b.WriteByte(ch)
		}
		if gap > 0 {
			b.WriteByte(byte('0' + gap))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	if p.side == engine.First {
		b.WriteString(" w - - ")
	} else {
		b.WriteString(" b - - ")
	}
	b.WriteString(strconv.Itoa(int(p.halfmove)))
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(int(p.fullmove)))
	return b.String()
}

// BoardFEN returns only the piece-placement field of the FEN.
func (p *Position) BoardFEN() string {
	f := p.FEN()
	return f[:strings.IndexByte(f, ' ')]
}
