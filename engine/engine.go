// Package engine holds what the two games share: the Position and Move
// contract that replay, index and query program against, game names, sides,
// notations and the sentinel errors of move parsing.
//
// Each game lives in its own package (engine/xiangqi, engine/chess) with a
// concrete, allocation-free position type; the interface here is the thin
// seam the rest of xqdb uses. Hot loops (perft, replay of one game) run on
// the concrete type behind it.
//
//	file         what
//	engine.go    Game, Color, Move, Status, Position, errors
//	notation.go  Notation names and parsing
package engine

import (
	"errors"
	"fmt"
	"strings"
)

// Game names one of the games xqdb knows.
type Game uint8

const (
	// UnknownGame is the zero Game: not yet detected.
	UnknownGame Game = iota
	// Xiangqi is Chinese chess (cờ tướng).
	Xiangqi
	// Chess is Western chess (cờ vua).
	Chess
)

// String returns the lower-case name used on the command line and in JSON.
func (g Game) String() string {
	switch g {
	case Xiangqi:
		return "xiangqi"
	case Chess:
		return "chess"
	}
	return "unknown"
}

// ParseGame reads a game name as users and PGN Game/Variant tags write it.
func ParseGame(s string) (Game, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "xiangqi", "xq", "chinese chess", "chinesechess", "cchess", "co tuong", "cờ tướng", "象棋", "中国象棋":
		return Xiangqi, nil
	case "chess", "standard", "western chess", "cờ vua", "co vua":
		return Chess, nil
	}
	return UnknownGame, fmt.Errorf("engine: unknown game %q (want xiangqi or chess)", s)
}

// Color is a side. The first player (Red in Xiangqi, White in chess) is 0.
type Color uint8

const (
	// First is Red in Xiangqi and White in chess: the side that moves first
	// from the standard start (RULES X1).
	First Color = 0
	// Second is Black in both games.
	Second Color = 1
)

// Other returns the opponent.
func (c Color) Other() Color { return c ^ 1 }

// Name returns "red"/"black" for Xiangqi and "white"/"black" for chess.
func (c Color) Name(g Game) string {
	if c == Second {
		return "black"
	}
	if g == Xiangqi {
		return "red"
	}
	return "white"
}

// Move is a packed move whose bit layout belongs to the game's package.
// The zero Move is never a legal move.
type Move uint16

// NoMove is the zero Move.
const NoMove Move = 0

// NullMove passes the turn without moving a piece: "--" in the PGN that
// ChessBase and SCID write ("Z0" and "0000" in other tools). It is no
// legal move of either game, but records use it to show a threat or to
// give odds; Position.Make plays it when the side to move is not in check
// (a null move in check would leave a king to be taken). No engine move
// has every bit set: chess moves use 15 bits, Xiangqi squares are below
// 0xFF.
const NullMove Move = 0xFFFF

// IsNullToken reports whether a movetext token is a null move as the
// tools that write them spell it: "--" (ChessBase, SCID, pgn-extract),
// "Z0" (ChessBase's older exports) and "0000" (UCI).
func IsNullToken(tok []byte) bool {
	switch len(tok) {
	case 2:
		return tok[0] == '-' && tok[1] == '-' || tok[0] == 'Z' && tok[1] == '0'
	case 4:
		return tok[0] == '0' && tok[1] == '0' && tok[2] == '0' && tok[3] == '0'
	}
	return false
}

// NullText is how xqdb writes a null move, in every notation: PGN's "--".
const NullText = "--"

// Status says how a game stands: ongoing, ended in the position (mate,
// stalemate: RULES X12, C4), or decided by a ruling over the game's history
// (repetition, perpetual check or chase, move limits, dead material:
// RULES X13–X16, C5).
type Status uint8

const (
	// Ongoing means nothing has ended or been ruled.
	Ongoing Status = iota
	// Checkmate means the side to move is in check with no legal move.
	Checkmate
	// Stalemate means the side to move has no legal move and is not in
	// check: a loss in Xiangqi (RULES X12), a draw in chess (RULES C4).
	Stalemate
	// PerpetualCheck: one side checked on every move of a repetition
	// cycle and loses (RULES X13).
	PerpetualCheck
	// PerpetualChase: one side chased one piece on every move of a
	// repetition cycle and loses (RULES X13).
	PerpetualChase
	// MutualPerpetualCheck: both sides checked throughout; a draw (X13).
	MutualPerpetualCheck
	// Repetition: a repeated position with no violator, a draw (X14); in
	// chess the threefold repetition a player may claim (C5).
	Repetition
	// MoveLimit: too many moves without a capture, a draw (X15).
	MoveLimit
	// InsufficientMaterial: neither side can ever mate, a draw (X16, C5).
	InsufficientMaterial
	// FiftyMoves: fifty moves by each side without a capture or pawn
	// move, a draw a player may claim (C5).
	FiftyMoves
	// SeventyFiveMoves: the automatic 75-move draw (C5).
	SeventyFiveMoves
	// Fivefold: the automatic fivefold repetition draw (C5).
	Fivefold
)

var statusNames = [...]string{
	Ongoing: "ongoing", Checkmate: "checkmate", Stalemate: "stalemate",
	PerpetualCheck: "perpetual_check", PerpetualChase: "perpetual_chase",
	MutualPerpetualCheck: "mutual_perpetual_check", Repetition: "repetition",
	MoveLimit: "move_limit", InsufficientMaterial: "insufficient_material",
	FiftyMoves: "fifty_moves", SeventyFiveMoves: "seventyfive_moves", Fivefold: "fivefold",
}

// String returns the JSON name of the status ("threefold" is how chess
// repetition is named by ChessString).
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "unknown"
}

// ParseStatus is the inverse of String (also accepting "threefold").
func ParseStatus(s string) (Status, bool) {
	if s == "threefold" {
		return Repetition, true
	}
	for i, n := range statusNames {
		if n == s {
			return Status(i), true
		}
	}
	return Ongoing, false
}

// Result is a game's score as PGN writes it.
type Result uint8

const (
	// NoResult is "*": unknown or unfinished.
	NoResult Result = iota
	// FirstWins is "1-0" (Red or White wins).
	FirstWins
	// SecondWins is "0-1" (Black wins).
	SecondWins
	// Draw is "1/2-1/2".
	Draw
)

// String returns the PGN form of the result.
func (r Result) String() string {
	switch r {
	case FirstWins:
		return "1-0"
	case SecondWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	}
	return "*"
}

// ParseResult reads a PGN result ("1-0", "0-1", "1/2-1/2", "½-½", "*").
func ParseResult(s string) (Result, bool) {
	switch strings.TrimSpace(s) {
	case "1-0":
		return FirstWins, true
	case "0-1":
		return SecondWins, true
	case "1/2-1/2", "½-½", "1/2":
		return Draw, true
	case "*", "":
		return NoResult, true
	}
	return NoResult, false
}

// WinFor returns the result in which side c wins.
func WinFor(c Color) Result {
	if c == First {
		return FirstWins
	}
	return SecondWins
}

// Sentinel errors of FEN and move parsing. Callers test them with errors.Is;
// the wrapping error says which token and why.
var (
	// ErrBadFEN is returned when a FEN cannot be read or describes a
	// position that cannot arise.
	ErrBadFEN = errors.New("bad FEN")
	// ErrBadMove is returned when a move token is not a move in the
	// notation at all.
	ErrBadMove = errors.New("unreadable move")
	// ErrIllegalMove is returned when a move token reads well but names no
	// legal move in the position.
	ErrIllegalMove = errors.New("illegal move")
	// ErrAmbiguousMove is returned when a move token fits more than one
	// legal move.
	ErrAmbiguousMove = errors.New("ambiguous move")
)

// Position is one game's board with its history of made moves.
// Implementations are not safe for concurrent use; Clone for another
// goroutine.
type Position interface {
	Game() Game
	// FEN returns the position in the game's FEN dialect.
	FEN() string
	// Key is the 64-bit Zobrist key (Polyglot's for chess).
	Key() uint64
	SideToMove() Color
	InCheck() bool
	// AppendLegalMoves appends every legal move to dst and returns it.
	AppendLegalMoves(dst []Move) []Move
	// IsLegal reports whether m is a legal move here.
	IsLegal(m Move) bool
	// Make plays a legal move, or NullMove when the side to move is not
	// in check (the caller checks); Unmake takes back the last one made.
	Make(m Move)
	Unmake()
	// Status says whether the side to move is mated or stalemated.
	Status() Status
	// ParseMove reads one move token written in notation n (Auto detects).
	ParseMove(token string, n Notation) (Move, error)
	// FormatMove writes a legal move in notation n.
	FormatMove(m Move, n Notation) string
	// Perft counts the leaf nodes of the legal move tree of the given depth.
	Perft(depth int) uint64
	// Clone returns an independent copy, history included.
	Clone() Position
}
