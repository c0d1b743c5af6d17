package engine

import "fmt"

// Ruling is what a game's referee finds at one ply: a game end in the
// position (mate, stalemate) or a ruling over its history (repetition,
// perpetual check or chase, move limits, dead material; RULES X12–X16, C4–C5).
type Ruling struct {
	Game Game
	// Ply is the number of moves played since the referee started (1 for
	// the first move; 0 is the starting position).
	Ply int
	// Status is Ongoing when nothing ends or is ruled at this ply.
	Status Status
	// Result is the score the ruling gives (NoResult when Ongoing).
	Result Result
	// Side is the loser: the side mated or stalemated (in Xiangqi), or the
	// perpetual checker or chaser. It means nothing for draws.
	Side Color
	// Detail says in words why, for reports.
	Detail string
}

// Decided reports whether the ruling ends or decides the game.
func (r Ruling) Decided() bool { return r.Status != Ongoing }

// Ends reports whether the ruling ends the game in the position itself
// (mate or stalemate): no move may follow it.
func (r Ruling) Ends() bool { return r.Status == Checkmate || r.Status == Stalemate }

// StatusName is the status as reports name it: chess calls the
// claimable repetition "threefold".
func (r Ruling) StatusName() string {
	if r.Game == Chess && r.Status == Repetition {
		return "threefold"
	}
	return r.Status.String()
}

// String writes the ruling for logs: "ply 23: 0-1 perpetual_chase (red): …".
func (r Ruling) String() string {
	if !r.Decided() {
		return fmt.Sprintf("ply %d: ongoing", r.Ply)
	}
	s := fmt.Sprintf("ply %d: %s %s", r.Ply, r.Result, r.StatusName())
	if r.Result == FirstWins || r.Result == SecondWins {
		s += " (" + r.Side.Name(r.Game) + ")"
	}
	if r.Detail != "" {
		s += ": " + r.Detail
	}
	return s
}
