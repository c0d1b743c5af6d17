package xiangqi

import (
	"fmt"
	"strings"

	"github.com/xqdb/xqdb/engine"
)

// The referee: game-end adjudication over a game's history (RULES X12–X16).
//
//	file                 what
//	referee.go           Rules, Ruling, Referee: follow a game ply by ply
//	referee_status.go    X12 mate and stalemate without generating every move
//	referee_repeat.go    X13 perpetual check and chase, X14 repetition draw
//	referee_limit.go     X15 move limit (120 plies, checks beyond the 10th)
//	chase.go             X13 what a chase is (seed 000 "đuổi quân")
//	material.go          X16 insufficient material
//
// Checkmate and stalemate end a game. The other verdicts are rulings an
// arbiter applies (RULES "Rulings vs ends", seed 002 §6.3): real records go
// on past them, so the referee records each with its ply and side and keeps
// following the game; a ruling is the game's termination only when the
// record ends at its ply (Referee.Last after the final move).

// Profile selects how the perpetual rules of RULES X13 are applied.
type Profile uint8

const (
	// VN is the user's rules (seed 000, "luật cao cấp"), the default: a
	// perpetual checker or chaser is ruled against only once it has checked
	// or chased continuously for 6 moves with one piece, 12 with two, 18
	// with three or more.
	VN Profile = iota
	// Asian gives the verdict at the 3rd occurrence of the position, with no
	// allowance: what Pikafish and Fairy-Stockfish do, and what the
	// rules-cases table is written for.
	Asian
)

// String returns the profile's name as written on the command line.
func (pr Profile) String() string {
	if pr == Asian {
		return "asian"
	}
	return "vn"
}

// ParseProfile reads "vn" or "asian".
func ParseProfile(s string) (Profile, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "vn", "":
		return VN, nil
	case "asian":
		return Asian, nil
	}
	return VN, fmt.Errorf("xiangqi: unknown rules profile %q (want vn or asian)", s)
}

// DefaultMoveLimit is the X15 limit: 120 plies without a capture (the
// Chinese 60-move rule).
const DefaultMoveLimit = 120

// Rules configures a Referee. The zero value is the vn profile with the
// default move limit and the default readings.
type Rules struct {
	Profile Profile
	// MoveLimit is the number of plies without a capture after which the
	// game is drawn (RULES X15); 0 means DefaultMoveLimit, a negative value
	// turns the rule off.
	MoveLimit int
	// MinorChasesMajor makes an advisor or elephant that threatens a
	// chariot, horse or cannon chase it even when the target is protected,
	// as Pikafish and Fairy-Stockfish do. Off by default: seed 000 names
	// one such exception only, the chariot threatened by a horse or cannon.
	MinorChasesMajor bool
	// ProtectionLoss says whether a move that takes an already threatened
	// piece's protection away by its path newly chases it (the "chariot
	// pinned by a horse" dispute); the zero value is the default reading.
	ProtectionLoss ProtectionLoss
}

// ProtectionLoss is a reading of RULES X13 on which public engines differ.
// A move may leave a piece it already threatened unprotected by its path:
// by standing in the protector's line, leg or eye, by adding a second
// screen to a protecting cannon, or by taking such a cannon's only screen
// away. Is that a new chase of the piece? (Protection lost because the move
// pins the protector is always one; see newlyChased.)
type ProtectionLoss uint8

const (
	// LossUnlessDefending, the default, counts it as a chase unless the
	// move defended one of the mover's own pieces — answered a check, or
	// blocked, unscreened or escaped an enemy threat: a defence that opens
	// or closes a line in passing threatens nothing new. Of the three, it
	// is the only reading that agrees with every disputed row of the
	// rules-cases table that RULES does not settle otherwise: the "chariot
	// pinned by a horse" diagrams (fsf_L1193, fsf_L1195,
	// orange_L434–L438), where the pinned chariot's side blocks the attack
	// on it and so unprotects the horse, are no chase, while orange_L643,
	// where a soldier steps on and off a protecting cannon's file for
	// nothing else, is.
	LossUnlessDefending ProtectionLoss = iota
	// LossNever never counts it, as Fairy-Stockfish (which misses
	// orange_L643).
	LossNever
	// LossAlways always counts it, as Pikafish (which draws the D39
	// diagrams as mutual chases).
	LossAlways
)

func (r Rules) readings() chaseReadings {
	return chaseReadings{minorChasesMajor: r.MinorChasesMajor, protectionLoss: r.ProtectionLoss}
}

func (r Rules) moveLimit() int {
	switch {
	case r.MoveLimit == 0:
		return DefaultMoveLimit
	case r.MoveLimit < 0:
		return int(^uint(0) >> 1)
	}
	return r.MoveLimit
}

// Ruling is what the referee finds at one ply (shared with chess).
type Ruling = engine.Ruling

// Referee follows one game ply by ply and rules on it (RULES X12–X16).
// It is not safe for concurrent use.
type Referee struct {
	pos     *Position
	rules   Rules
	rd      chaseReadings
	start   int // pos.Ply() when the referee started
	last    Ruling
	rulings []Ruling

	limit    limitState    // X15
	material materialClass // X16, recomputed after captures
	inCheck  bool          // the side to move is in check (set by Advance)

	// Scratch for the rare analyses (repetition cycles, X15 recounts), kept
	// so that they allocate once per referee, not per ruling.
	scratch *Position
	// analysed[i] classifies move i of the history (referee_repeat.go),
	// filled as repetitions need it.
	analysed []plyInfo
	// seen has bit key%1024 set for every position since the last capture:
	// a cheap first test before the key history is scanned. Positions
	// before a capture cannot recur (they have more pieces), so it is
	// cleared at each capture.
	seen [16]uint64
}

// NewReferee starts refereeing from p, which the referee then owns and plays
// moves on. Moves already made on p count as history for repetitions. The
// starting position is judged at once (Last: mate, stalemate or dead
// material at ply 0).
func NewReferee(p *Position, rules Rules) *Referee {
	r := &Referee{pos: p, rules: rules, rd: rules.readings(), start: p.Ply(), last: Ruling{Game: engine.Xiangqi}}
	for i := len(p.hist) - min(int(p.halfmove), len(p.hist)); i < len(p.hist); i++ {
		r.markSeen(p.hist[i].key)
	}
	r.material = p.materialClass()
	r.limit.update(r, p.side.Other(), false, p.InCheck())
	r.judge(p.InCheck())
	return r
}

// Position returns the position the referee plays on. Callers may read it
// and ask it for legal moves but must not make moves on it.
func (r *Referee) Position() *Position { return r.pos }

// Rules returns the rules the referee applies.
func (r *Referee) Rules() Rules { return r.rules }

// Ply returns the number of moves played since the referee started.
func (r *Referee) Ply() int { return r.pos.Ply() - r.start }

// Last returns the ruling at the current ply (Status engine.Ongoing when
// there is none). After a record's final move it is the game's termination
// if it is decided.
func (r *Referee) Last() Ruling { return r.last }

// Rulings returns every decided ruling so far, in ply order. The slice is
// the referee's own: do not modify it.
func (r *Referee) Rulings() []Ruling { return r.rulings }

// Play makes the legal move m (the caller guarantees legality, as for
// Position.Make) and returns the ruling at the new ply.
func (r *Referee) Play(m engine.Move) Ruling {
	r.Advance(m)
	return r.Judge(false)
}

// Advance makes the legal move m and keeps the history the rulings need,
// without ruling yet: Judge rules on the new ply. Replay uses the pair to
// skip the end-of-game test when the record's next move shows that the
// side to move has one.
func (r *Referee) Advance(m engine.Move) {
	p := r.pos
	mover := p.side
	capture := p.board[MoveTo(m)] != empty
	r.markSeen(p.key)
	p.Make(m)
	if capture {
		r.material = p.materialClass()
		r.seen = [16]uint64{}
	}
	r.inCheck = p.checkedBy(m)
	r.limit.update(r, mover, capture, r.inCheck)
	r.last = Ruling{Game: engine.Xiangqi, Ply: p.Ply() - r.start}
}

// Judge rules on the current ply after Advance. hasMove says that the side
// to move is known to have a legal move (the record plays one), which
// spares the mate and stalemate test.
func (r *Referee) Judge(hasMove bool) Ruling {
	r.judgeWith(r.inCheck, hasMove)
	return r.last
}

// judge fills r.last for the current position; inCheck says whether the
// side to move is in check.
func (r *Referee) judge(inCheck bool) { r.judgeWith(inCheck, false) }

// judgeWith is judge, told whether the side to move is known to have a
// legal move.
func (r *Referee) judgeWith(inCheck, hasMove bool) {
	p := r.pos
	// RULES X12: no legal move ends the game, and the side to move loses
	// whether it is in check or not. This comes first: a mated side is
	// never saved by a draw rule (X15 says so explicitly).
	if !hasMove && !p.hasLegalMoveInCheck(inCheck) {
		st := engine.Stalemate
		if inCheck {
			st = engine.Checkmate
		}
		r.rule(st, engine.WinFor(p.side.Other()), p.side, "")
		return
	}
	if r.judgeRepetition() {
		return
	}
	if r.limit.counted(p) >= r.rules.moveLimit() {
		r.rule(engine.MoveLimit, engine.Draw, 0, r.limit.detail(p))
		return
	}
	switch r.material {
	case deadMaterial:
		sig, _ := p.signature()
		r.rule(engine.InsufficientMaterial, engine.Draw, 0, "neither side can ever mate or stalemate ("+sig.String()+")")
	case mateInOneMaterial:
		if !p.canEndAtOnce() {
			sig, _ := p.signature()
			r.rule(engine.InsufficientMaterial, engine.Draw, 0, "neither side can force a win ("+sig.String()+") and "+
				p.side.Name(engine.Xiangqi)+" cannot mate at once")
		}
	}
}

// rule records a decided ruling at the current ply.
func (r *Referee) rule(st engine.Status, res engine.Result, side engine.Color, detail string) {
	r.last.Status, r.last.Result, r.last.Side, r.last.Detail = st, res, side, detail
	r.rulings = append(r.rulings, r.last)
}

// markSeen records a position key in r.seen.
func (r *Referee) markSeen(key uint64) { r.seen[key>>6&15] |= 1 << (key & 63) }

// mayHaveSeen reports whether the key may have occurred since the last
// capture (false: certainly not).
func (r *Referee) mayHaveSeen(key uint64) bool { return r.seen[key>>6&15]&(1<<(key&63)) != 0 }

// scratchCopy returns a copy of the current position for analyses that walk
// the history back, reusing the referee's scratch storage. Only the last
// `back` moves of the history are copied: the copy can take back no more.
func (r *Referee) scratchCopy(back int) *Position {
	if r.scratch == nil {
		r.scratch = &Position{}
	}
	h := r.scratch.hist[:0]
	*r.scratch = *r.pos
	r.scratch.hist = append(h, r.pos.hist[len(r.pos.hist)-back:]...)
	return r.scratch
}
