package replay

import (
	"errors"
	"fmt"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/importer"
)

// Sentinel reasons of a GameError. Test them with errors.Is; Kind names
// them in reports.
var (
	// ErrParse is returned when a record could not be read as a game:
	// broken movetext, an unknown or unsupported game, an unreadable move
	// token.
	ErrParse = errors.New("unreadable record")
	// ErrEmpty is returned when a record has no moves.
	ErrEmpty = errors.New("no moves")
	// ErrUnsupported is returned for records of a game variant xqdb does
	// not play (crazyhouse, chess960, …); reported as kind "parse".
	ErrUnsupported = errors.New("unsupported variant")
	// ErrAfterEnd is returned when a record has moves after checkmate or
	// stalemate (RULES X12, C4): nothing may follow the end of a game.
	ErrAfterEnd = errors.New("move after the end of the game")
	// ErrResultMismatch is returned, with Replayer.StrictResults, when the
	// Result tag contradicts how the record ends (RULES X17): a mate, a
	// stalemate, an automatic draw, or a decisive ruling at its last ply.
	ErrResultMismatch = errors.New("result contradicts the end of the game")
	// ErrIllegalMove, ErrAmbiguousMove and ErrBadFEN are the engine's.
	ErrIllegalMove   = engine.ErrIllegalMove
	ErrAmbiguousMove = engine.ErrAmbiguousMove
	ErrBadFEN        = engine.ErrBadFEN
)

// GameError says what is wrong with one record and where. Ply is 1-based
// (0 when the error is not about a move).
type GameError struct {
	File   string
	Game   int
	Offset int64
	Line   int
	Ply    int
	Move   string
	Err    error
	// Variation says the move stands in a variation, not on the main
	// line: it cut that variation, and the game is kept.
	Variation bool
}

func (e *GameError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", loc, e.Line)
	}
	if e.Variation {
		return fmt.Sprintf("%s: game %d: in a variation: ply %d %q: %v", loc, e.Game, e.Ply, e.Move, e.Err)
	}
	if e.Ply > 0 {
		return fmt.Sprintf("%s: game %d: ply %d %q: %v", loc, e.Game, e.Ply, e.Move, e.Err)
	}
	return fmt.Sprintf("%s: game %d: %v", loc, e.Game, e.Err)
}

func (e *GameError) Unwrap() error { return e.Err }

// Reason returns why the record was rejected, without the place.
func (e *GameError) Reason() string {
	if e.Err == nil {
		return ""
	}
	return e.Err.Error()
}

// Kind returns the report kind of an error: parse, illegal, ambiguous,
// bad_fen, empty, after_end or result_mismatch.
func Kind(err error) string {
	switch {
	case errors.Is(err, ErrAfterEnd):
		return "after_end"
	case errors.Is(err, ErrResultMismatch):
		return "result_mismatch"
	case errors.Is(err, ErrEmpty):
		return "empty"
	case errors.Is(err, ErrBadFEN):
		return "bad_fen"
	case errors.Is(err, ErrAmbiguousMove):
		return "ambiguous"
	case errors.Is(err, ErrIllegalMove):
		return "illegal"
	}
	return "parse"
}

func newError(src importer.Source, err error) *GameError {
	return &GameError{File: src.File, Game: src.Game, Offset: src.Offset, Line: src.Line, Err: err}
}
