package replay

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/chess"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/engine/movetext"
	"github.com/xqdb/xqdb/engine/xiangqi"
	"github.com/xqdb/xqdb/importer"
)

// Game is a record replayed through the rules.
type Game struct {
	Game     engine.Game
	StartFEN string // "" for the standard start
	Notation engine.Notation
	Moves    []engine.Move
	// Keys holds the key of the position before each ply and after the
	// last: len(Keys) == len(Moves)+1.
	Keys []uint64
	// Ranks holds each move's games.MoveRank when the Replayer's Ranks is
	// set: len(Ranks) == len(Moves).
	Ranks []uint8
	// Status is how the final position stands (mate, stalemate, ongoing).
	Status engine.Status
	// Result is the record's Result tag, else its termination marker.
	Result engine.Result
	// Rulings are every decided ruling the referee made, in ply order:
	// mates and stalemates, and the rulings an arbiter applies (perpetual
	// check or chase, repetition, move limits, dead material), which real
	// records may play on past (RULES "Rulings vs ends").
	Rulings []engine.Ruling
	// Termination is how the record ends: the decided ruling at its last
	// ply, or an Ongoing one.
	Termination engine.Ruling
	// Mismatch, when not empty, says how the Result tag contradicts the
	// termination (reported as result_mismatch; the game is kept unless
	// StrictResults).
	Mismatch string
	// Notes are the main line's comments, NAGs and variations, each
	// variation replayed from the position before the move it replaces
	// (nil for a record without any: most records).
	Notes []movetext.Note
	// VariationErrors are the illegal or unreadable moves met in
	// variations: each cut its variation there and nothing else (the game
	// is valid). Their Variation field is set.
	VariationErrors []*GameError
}

// Replayer validates records. It is not safe for concurrent use: give
// each worker its own, copied from a Replayer that has not replayed yet
// (a used one carries the positions it sets up again for each record).
type Replayer struct {
	// Game forces the game of every record (UnknownGame: as detected).
	Game engine.Game
	// Notation forces the move notation (Auto: detected per game).
	Notation engine.Notation
	// Rules are the Xiangqi adjudication rules (profile, move limit).
	Rules xiangqi.Rules
	// StrictResults rejects a game whose Result tag contradicts its end.
	StrictResults bool
	// Ranks records each move's rank among the legal moves (games.MoveRank),
	// the form the database stores moves in, while the position is at hand.
	Ranks bool
	// NoReferee checks only that every move is legal, without the rulings
	// (mate, stalemate, repetition, move limits): the Game's Rulings,
	// Termination, Status and Mismatch stay empty. The same records replay
	// (a move after a mate is illegal either way, only its error reads
	// otherwise) at less cost, for what needs only the legal moves: book
	// building counts every ply of a game whatever was ruled.
	NoReferee bool
	// KeepEmpty replays a record with tags but no moves (a header-only
	// game: a result, players, ratings) to a Game without moves instead of
	// ErrEmpty, so imports keep it for players' histories and crosstables.
	// A PGN record that names no game is chess, PGN's own game.
	KeepEmpty bool

	// positions are set up again for each record of their game; varPos
	// replay the variations.
	positions, varPos [4]engine.Position
}

// Referee is what the games' referees have in common: follow a game ply
// by ply (Play, or Advance then Judge, makes the move on the position given
// to NewReferee) and rule on it.
type Referee interface {
	Play(m engine.Move) engine.Ruling
	Advance(m engine.Move)
	Judge(hasMove bool) engine.Ruling
	Last() engine.Ruling
	Rulings() []engine.Ruling
}

// plainPlayer plays moves without ruling on anything.
type plainPlayer struct{ p engine.Position }

func (pp plainPlayer) Play(m engine.Move) engine.Ruling { pp.p.Make(m); return engine.Ruling{} }
func (pp plainPlayer) Advance(m engine.Move)            { pp.p.Make(m) }
func (pp plainPlayer) Judge(bool) engine.Ruling         { return engine.Ruling{} }
func (pp plainPlayer) Last() engine.Ruling              { return engine.Ruling{} }
func (pp plainPlayer) Rulings() []engine.Ruling         { return nil }

// NewReferee returns the referee of pos's game, which then owns pos.
func NewReferee(pos engine.Position, rules xiangqi.Rules) Referee {
	switch p := pos.(type) {
	case *xiangqi.Position:
		return xiangqi.NewReferee(p, rules)
	case *chess.Position:
		return chess.NewReferee(p)
	}
	return nil
}

// byteParser is implemented by engines that parse a move token from bytes
// without allocating.
type byteParser interface {
	ParseMoveBytes(tok []byte, n engine.Notation) (engine.Move, error)
}

// Replay validates rec into out (whose slices are reused). The error, if
// any, is a *GameError.
func (r *Replayer) Replay(rec *importer.Record, out *Game) error {
	out.Moves, out.Keys, out.Rulings, out.Ranks = out.Moves[:0], out.Keys[:0], out.Rulings[:0], out.Ranks[:0]
	out.Status, out.Termination, out.Mismatch = engine.Ongoing, engine.Ruling{}, ""
	out.Notes, out.VariationErrors = nil, nil
	src := rec.Source
	g := rec.Game
	if r.Game != engine.UnknownGame {
		g = r.Game
	}
	if rec.IsVariant() {
		return newError(src, fmt.Errorf("%w %q", ErrUnsupported, rec.Variant))
	}
	if g == engine.UnknownGame {
		if len(rec.Moves) == 0 {
			if !r.keepsEmpty(rec) {
				return newError(src, ErrEmpty)
			}
			g = engine.Chess
		}
		// Nothing tells the game (coordinate moves, no tags: notnil's
		// "1. g1f3 e7e5"): keep the game in which every move is legal.
		for _, try := range [...]engine.Game{engine.Chess, engine.Xiangqi} {
			r2 := *r
			r2.Game = try
			if r2.Replay(rec, out) == nil {
				return nil
			}
		}
		return newError(src, fmt.Errorf("%w: cannot tell whether it is xiangqi or chess (the moves are legal in neither)", ErrParse))
	}
	out.Game = g
	out.Result = resultOf(rec)
	out.StartFEN = rec.FEN
	// A record without moves is empty whatever its set-up says: XQF and
	// DhtmlXQ tell the side to move only through the first move.
	if len(rec.Moves) == 0 && !r.keepsEmpty(rec) {
		return newError(src, ErrEmpty)
	}
	pos, err := games.Reuse(r.positions[g%4], g, rec.FEN)
	if err != nil {
		return newError(src, err)
	}
	r.positions[g%4] = pos
	if rec.FEN != "" && isStandardStart(g, pos) {
		out.StartFEN = ""
	}
	if len(rec.Moves) == 0 { // a header-only game (KeepEmpty)
		out.Notation = rec.NotationHint
		out.Keys = append(out.Keys, pos.Key())
		if hasNotes(rec) {
			r.notes(rec, out)
		}
		return nil
	}
	n := r.Notation
	if n == engine.Auto {
		n = rec.NotationHint
	}
	if n == engine.Auto {
		n = detectNotation(g, pos, rec)
	}
	out.Notation = n
	bp, _ := pos.(byteParser)
	var ref Referee
	if r.NoReferee {
		ref = plainPlayer{pos}
	} else {
		ref = NewReferee(pos, r.Rules)
	}
	out.Keys = append(out.Keys, pos.Key())
	parse := func(i int) (engine.Move, *GameError) {
		tok := rec.MoveText(i)
		var m engine.Move
		var err error
		if bp != nil {
			m, err = bp.ParseMoveBytes(tok, n)
		} else {
			m, err = pos.ParseMove(unsafe.String(unsafe.SliceData(tok), len(tok)), n)
		}
		if err == nil {
			return m, nil
		}
		// A null move ("--", SCID and ChessBase): read only when the
		// token is no move, so real moves pay nothing for it.
		if engine.IsNullToken(tok) {
			if !pos.InCheck() {
				return engine.NullMove, nil
			}
			err = fmt.Errorf("%w: a null move while in check", ErrIllegalMove)
		}
		// After a mate or stalemate no move is legal: say so rather than
		// "illegal" (RULES X12, C4).
		if last := ref.Last(); last.Ends() {
			err = fmt.Errorf("%w: %s at ply %d", ErrAfterEnd, last.StatusName(), last.Ply)
		}
		e := newError(src, err)
		e.Ply, e.Move = i+1, string(tok)
		e.Line, e.Offset = int(rec.Moves[i].Line), rec.Moves[i].Offset
		return 0, e
	}
	if ref.Last().Ends() { // the set-up itself is mate or stalemate
		_, e := parse(0)
		if e == nil {
			e = newError(src, ErrAfterEnd)
		}
		out.finish(ref)
		return e
	}
	m, e := parse(0)
	if e != nil {
		out.finish(ref)
		return e
	}
	var stopped Referee // the referee a null move stopped
	for i := range rec.Moves {
		if r.Ranks {
			out.Ranks = append(out.Ranks, uint8(games.RankLegal(pos, m)))
		}
		if m == engine.NullMove && stopped == nil {
			// The rulings need the real sequence of positions (RULES
			// X13–X16, C5): they stop at a null move, those made before
			// it stand, and the moves after it are only checked legal.
			stopped, ref = ref, plainPlayer{pos}
		}
		ref.Advance(m)
		out.Moves = append(out.Moves, m)
		out.Keys = append(out.Keys, pos.Key())
		if i+1 == len(rec.Moves) {
			ref.Judge(false)
			break
		}
		// The record's next move, if legal, shows the side to move is not
		// mated: the referee need not look for one (the costly part of
		// adjudication).
		next, e := parse(i + 1)
		if e == nil {
			ref.Judge(true)
			m = next
			continue
		}
		ref.Judge(false)
		if last := ref.Last(); last.Ends() {
			e = newError(src, fmt.Errorf("%w: %s at ply %d", ErrAfterEnd, last.StatusName(), last.Ply))
			e.Ply, e.Move = i+2, string(rec.MoveText(i+1))
			e.Line, e.Offset = int(rec.Moves[i+1].Line), rec.Moves[i+1].Offset
		}
		out.finishNull(ref, stopped)
		return e
	}
	out.finishNull(ref, stopped)
	if out.Mismatch = mismatch(out.Termination, out.Result); out.Mismatch != "" && r.StrictResults {
		e := newError(src, fmt.Errorf("%w: %s", ErrResultMismatch, out.Mismatch))
		e.Ply = out.Termination.Ply
		return e
	}
	if hasNotes(rec) {
		r.notes(rec, out)
	}
	return nil
}

// keepsEmpty reports whether a record without moves is kept as a
// header-only game: KeepEmpty is set and the record has tags (a record
// with neither tags nor moves holds nothing to keep).
func (r *Replayer) keepsEmpty(rec *importer.Record) bool {
	return r.KeepEmpty && len(rec.Tags) > 0
}

// finishNull is finish for a game whose referee a null move may have
// stopped: its rulings stand, and only a mate or stalemate on the board
// ends the game after it.
func (g *Game) finishNull(ref, stopped Referee) {
	if stopped == nil {
		g.finish(ref)
		return
	}
	g.Rulings = append(g.Rulings, stopped.Rulings()...)
	if st := ref.(plainPlayer).p.Status(); st != engine.Ongoing {
		g.Status = st
	}
}

// finish takes the referee's findings.
func (g *Game) finish(ref Referee) {
	g.Rulings = append(g.Rulings, ref.Rulings()...)
	if last := ref.Last(); last.Decided() {
		g.Termination = last
	}
	if last := ref.Last(); last.Ends() {
		g.Status = last.Status
	}
}

// mismatch says how a recorded result contradicts a game's termination,
// or "". Mates, stalemates and the automatic draws (fivefold, 75 moves,
// dead material) admit one result; a decisive ruling (perpetual check or
// chase) contradicts a draw or the other side's win. A claimable draw
// (threefold, fifty moves, Xiangqi repetition or move limit) does not
// contradict a decisive result: the players may not have claimed it. An
// unknown result ("*") contradicts nothing.
func mismatch(term engine.Ruling, res engine.Result) string {
	if !term.Decided() || res == engine.NoResult || term.Result == res {
		return ""
	}
	switch term.Status {
	case engine.Repetition, engine.MoveLimit, engine.FiftyMoves:
		return ""
	}
	return fmt.Sprintf("the record says %s but ends in %s (%s) at ply %d", res, term.StatusName(), term.Result, term.Ply)
}

// resultOf reads the Result tag, falling back on the movetext marker.
func resultOf(rec *importer.Record) engine.Result {
	if res, ok := engine.ParseResult(rec.Tag("Result")); ok && res != engine.NoResult {
		return res
	}
	res, _ := engine.ParseResult(rec.Result)
	return res
}

func isStandardStart(g engine.Game, p engine.Position) bool {
	start, err := games.New(g, "")
	return err == nil && start.Key() == p.Key() && positionPart(start.FEN()) == positionPart(p.FEN())
}

// positionPart drops a FEN's move counters.
func positionPart(fen string) string {
	f := strings.Fields(fen)
	if len(f) > 4 {
		f = f[:4]
	}
	return strings.Join(f, " ")
}

// detectNotation picks the notation of a game's moves. Chess tokens are
// recognised per move (SAN or UCI) by the engine; for Xiangqi the first
// tokens decide, trying each notation they could be in and keeping the
// one whose moves replay legally (NOTATIONS §5: WXF and Vietnamese share
// letters).
func detectNotation(g engine.Game, pos engine.Position, rec *importer.Record) engine.Notation {
	if g != engine.Xiangqi {
		return engine.Auto
	}
	return detectXiangqi(pos, rec)
}

// Hash identifies a game for de-duplication (games.GameHash).
func Hash(g *Game) [16]byte { return games.GameHash(g.Game, g.Keys[0], g.Moves) }
