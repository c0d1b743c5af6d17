package obk

import (
	"cmp"
	"slices"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

type pair struct {
	key  uint64
	move uint16
}

type counts struct {
	win, draw, lost, games int
	index                  int // the lowest ply the move was played at
	lastGame               int // the game that last counted it (one count a game)
}

// Builder counts games into .obk rows. A position and its mirror image are
// one entry, stored under the smaller of the two keys as ElephantEye's
// builder does (readers query both keys); a symmetric position stores the
// move and its mirror. Each game counts once per (position, move), its
// result from the mover's view.
type Builder struct {
	// MaxPly counts only the first MaxPly plies of each game (0: all).
	MaxPly int
	// MinGames drops moves played in fewer games (0 or 1: keep all).
	MinGames int
	// SkipFirst and SkipSecond leave out Red's or Black's moves.
	SkipFirst, SkipSecond bool
	m                     map[pair]*counts
	order                 []pair
	games                 int
	pos                   *xiangqi.Position
}

// NewBuilder returns an empty builder.
func NewBuilder(maxPly, minGames int) *Builder {
	return &Builder{MaxPly: maxPly, MinGames: minGames, m: map[pair]*counts{}, pos: xiangqi.NewStart()}
}

// AddGame counts one legal game: its start (fen "" for the standard one),
// moves and result. It returns an error only for a bad FEN.
func (b *Builder) AddGame(fen string, moves []engine.Move, result engine.Result) error {
	p := b.pos
	if fen == "" {
		p.Reset()
	} else if err := p.SetFEN(fen); err != nil {
		return err
	}
	b.games++
	for ply, m := range moves {
		if b.MaxPly > 0 && ply >= b.MaxPly {
			break
		}
		side := p.SideToMove()
		if (side == engine.First && b.SkipFirst) || (side == engine.Second && b.SkipSecond) {
			p.Make(m)
			continue
		}
		k, mk := Key(p, false), Key(p, true)
		code := Code(m)
		if k <= mk {
			b.count(pair{k, code}, side, result, ply+1)
		}
		if mk <= k && (mk != k || MirrorCode(code) != code) {
			b.count(pair{mk, MirrorCode(code)}, side, result, ply+1)
		}
		p.Make(m)
	}
	return nil
}

func (b *Builder) count(k pair, side engine.Color, r engine.Result, ply int) {
	c := b.m[k]
	if c == nil {
		c = &counts{index: ply}
		b.m[k] = c
		b.order = append(b.order, k)
	} else if c.lastGame == b.games {
		return // one count a game, however often the game repeats it
	}
	c.lastGame = b.games
	c.games++
	c.index = min(c.index, ply)
	switch r {
	case engine.WinFor(side):
		c.win++
	case engine.WinFor(side.Other()):
		c.lost++
	case engine.Draw:
		c.draw++
	}
}

// Score ranks a move: 2 a win and 1 a draw from the mover's view, the
// expectancy Polyglot weights by.
func Score(win, draw, lost int) int { return 2*win + draw }

// Rows returns the book's rows, sorted by key and descending score.
func (b *Builder) Rows() []Row {
	out := make([]Row, 0, len(b.order))
	for _, k := range b.order {
		c := b.m[k]
		if c.games < b.MinGames {
			continue
		}
		out = append(out, Row{Key: k.key, Move: k.move, Score: Score(c.win, c.draw, c.lost), Win: c.win, Draw: c.draw,
			Lost: c.lost, Valid: 1, Index: c.index})
	}
	SortRows(out)
	return out
}

// SortRows orders rows by key, descending score, then move.
func SortRows(rs []Row) {
	slices.SortFunc(rs, func(a, b Row) int {
		if c := cmp.Compare(a.Key, b.Key); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Move, b.Move)
	})
}
