package eleeye

import (
	"slices"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

// The values MAKEBOOK is run with (BOOK/MAKEBOOK.FRM): per game and from
// the mover's view 3 a win, 1 a draw, −1 a loss, 0 an unknown result; a
// record's value is the sum divided by Ratio, and sums below Ratio are
// not written.
const (
	WinValue  = 3
	DrawValue = 1
	LossValue = -1
	Ratio     = 4
)

// temp is MAKEBOOK's TempStruct: one (position, move) occurrence.
type temp struct {
	lock1, lock0 uint32
	move         uint16
	value        int32
}

func (a temp) less(b temp) bool {
	if a.lock1 != b.lock1 {
		return a.lock1 < b.lock1
	}
	if a.lock0 != b.lock0 {
		return a.lock0 < b.lock0
	}
	return a.move < b.move
}

// Builder makes a book as ElephantEye's MAKEBOOK does: every ply of every
// game is stored under the smaller (lock1, lock0) of the position and its
// mirror, with the move mapped likewise; a symmetric position stores the
// move and its mirror (a move on the middle file twice). The records are
// then sorted by (lock1, lock0, move), equal ones summed.
type Builder struct {
	// MaxPly counts only the first MaxPly plies of each game (0: all, as
	// MAKEBOOK does).
	MaxPly int
	temps  []temp
	pos    *xiangqi.Position
}

// NewBuilder returns an empty builder.
func NewBuilder(maxPly int) *Builder { return &Builder{MaxPly: maxPly, pos: xiangqi.NewStart()} }

// AddGame adds one legal game: its start (fen "" for the standard one),
// moves and result. It returns an error only for a bad FEN.
func (b *Builder) AddGame(fen string, moves []engine.Move, result engine.Result) error {
	p := b.pos
	if fen == "" {
		p.Reset()
	} else if err := p.SetFEN(fen); err != nil {
		return err
	}
	for ply, m := range moves {
		if b.MaxPly > 0 && ply >= b.MaxPly {
			break
		}
		v := moveValue(p.SideToMove(), result)
		l0, l1 := Locks(p, false)
		m0, m1 := Locks(p, true)
		cmp := 0
		switch {
		case l1 < m1 || (l1 == m1 && l0 < m0):
			cmp = -1
		case l1 > m1 || (l1 == m1 && l0 > m0):
			cmp = 1
		}
		code := Code(m)
		if cmp <= 0 {
			b.temps = append(b.temps, temp{l1, l0, code, v})
		}
		if cmp >= 0 {
			b.temps = append(b.temps, temp{m1, m0, MirrorCode(code), v})
		}
		p.Make(m)
	}
	return nil
}

// moveValue is MAKEBOOK's MoveValue.
func moveValue(side engine.Color, r engine.Result) int32 {
	switch r {
	case engine.Draw:
		return DrawValue
	case engine.WinFor(side):
		return WinValue
	case engine.WinFor(side.Other()):
		return LossValue
	}
	return 0
}

// Occurrences returns how many (position, move) occurrences were added.
func (b *Builder) Occurrences() int { return len(b.temps) }

// Records sorts and merges the occurrences into the book's records,
// exactly as MAKEBOOK's MakeBook loop: it starts from an all-zero record,
// writes the previous record whenever the next one sorts after it and its
// sum reaches Ratio, and the value written is the sum / Ratio in 16 bits.
func (b *Builder) Records() []Record {
	ts := b.temps
	slices.SortFunc(ts, func(x, y temp) int {
		switch {
		case x.less(y):
			return -1
		case y.less(x):
			return 1
		}
		return 0
	})
	var out []Record
	var last temp
	for _, t := range ts {
		if last.less(t) {
			if last.value >= Ratio {
				out = append(out, Record{last.lock1, last.move, uint16(last.value / Ratio)})
			}
			last = t
		} else {
			last.value += t.value
		}
	}
	if last.value >= Ratio {
		out = append(out, Record{last.lock1, last.move, uint16(last.value / Ratio)})
	}
	return out
}
