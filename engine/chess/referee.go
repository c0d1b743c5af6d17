package chess

import (
	"fmt"

	"github.com/xqdb/xqdb/engine"
)

// Referee follows a chess game ply by ply and rules on it (RULES C4, C5):
// checkmate and stalemate end the game; the 75-move rule, fivefold
// repetition and a dead position draw it automatically; threefold
// repetition and the fifty-move rule are draws a player may claim. Every
// decided ruling is kept with its ply; the caller decides that one is the
// game's termination when the record ends there.
type Referee struct {
	pos     *Position
	start   int
	last    engine.Ruling
	rulings []engine.Ruling
}

// NewReferee starts refereeing from p, which the referee then owns and
// plays moves on; the starting position is judged at once (ply 0).
func NewReferee(p *Position) *Referee {
	r := &Referee{pos: p, start: p.Ply()}
	r.judge()
	return r
}

// Position returns the position the referee plays on (read it, do not
// make moves on it).
func (r *Referee) Position() *Position { return r.pos }

// Last returns the ruling at the current ply.
func (r *Referee) Last() engine.Ruling { return r.last }

// Rulings returns every decided ruling so far, in ply order (the
// referee's own slice: do not modify it).
func (r *Referee) Rulings() []engine.Ruling { return r.rulings }

// Play makes the legal move m and returns the ruling at the new ply.
func (r *Referee) Play(m engine.Move) engine.Ruling {
	r.Advance(m)
	return r.Judge(false)
}

// Advance makes the legal move m without ruling yet; Judge rules on the
// new ply (see the Xiangqi referee: replay skips the end test when the
// record's next move is legal).
func (r *Referee) Advance(m engine.Move) { r.pos.Make(m) }

// Judge rules on the current ply; hasMove says the side to move is known
// to have a legal move, which spares counting them.
func (r *Referee) Judge(hasMove bool) engine.Ruling {
	r.judgeWith(hasMove)
	return r.last
}

func (r *Referee) judge() { r.judgeWith(false) }

// judgeWith fills r.last for the current position, the strongest verdict
// first: an end in the position, then the automatic draws, then the
// claimable ones.
func (r *Referee) judgeWith(hasMove bool) {
	p := r.pos
	r.last = engine.Ruling{Game: engine.Chess, Ply: p.Ply() - r.start}
	reps, noMove := p.RepetitionCount(), !hasMove && p.CountLegalMoves() == 0
	switch {
	case noMove && p.InCheck(): // C4
		r.rule(engine.Checkmate, engine.WinFor(p.SideToMove().Other()), p.SideToMove(), "")
	case noMove: // C4: stalemate draws
		r.rule(engine.Stalemate, engine.Draw, 0, "")
	case p.HalfmoveClock() >= 150: // C5: automatic, checkmate aside
		r.rule(engine.SeventyFiveMoves, engine.Draw, 0, fmt.Sprintf("%d moves without a capture or pawn move", p.HalfmoveClock()/2))
	case reps >= 5:
		r.rule(engine.Fivefold, engine.Draw, 0, "the position occurred 5 times")
	case p.InsufficientMaterial():
		r.rule(engine.InsufficientMaterial, engine.Draw, 0, "dead position: neither side can mate")
	case reps >= 3:
		r.rule(engine.Repetition, engine.Draw, 0, fmt.Sprintf("the position occurred %d times", reps))
	case p.HalfmoveClock() >= 100:
		r.rule(engine.FiftyMoves, engine.Draw, 0, fmt.Sprintf("%d moves without a capture or pawn move", p.HalfmoveClock()/2))
	}
}

func (r *Referee) rule(st engine.Status, res engine.Result, side engine.Color, detail string) {
	r.last.Status, r.last.Result, r.last.Side, r.last.Detail = st, res, side, detail
	r.rulings = append(r.rulings, r.last)
}
