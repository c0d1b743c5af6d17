// Package games sets up positions of any game by name: the one place that
// knows every engine package, so replay, index and the CLI do not each
// carry a switch over games.
package games

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"slices"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/chess"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

// New returns the position fen of game g, or the standard start when fen
// is empty.
func New(g engine.Game, fen string) (engine.Position, error) {
	switch g {
	case engine.Xiangqi:
		if fen == "" {
			return xiangqi.NewStart(), nil
		}
		return xiangqi.ParseFEN(fen)
	case engine.Chess:
		if fen == "" {
			return chess.NewStart(), nil
		}
		return chess.ParseFEN(fen)
	}
	return nil, fmt.Errorf("games: no engine for game %v", g)
}

// resetter is implemented by positions that can be set up again in place.
type resetter interface {
	Reset()
	SetFEN(fen string) error
}

// Reuse returns the position New(g, fen) would, set up in p when p is a
// position of g (keeping its buffers, so replaying game after game does
// not allocate a position each time), else a new one.
func Reuse(p engine.Position, g engine.Game, fen string) (engine.Position, error) {
	r, ok := p.(resetter)
	if !ok || p.Game() != g {
		return New(g, fen)
	}
	if fen == "" {
		r.Reset()
		return p, nil
	}
	if err := r.SetFEN(fen); err != nil {
		return nil, err
	}
	return p, nil
}

// StartFEN returns the standard start position of g.
func StartFEN(g engine.Game) string {
	switch g {
	case engine.Xiangqi:
		return xiangqi.StartFEN
	case engine.Chess:
		return chess.StartFEN
	}
	return ""
}

// NullCode is the wire code of engine.NullMove in both games: no real
// move has it (Xiangqi codes are below 90*128, chess codes use 15 bits).
const NullCode = 0xFFFF

// NullRank is the rank (MoveRank) a null move is stored as: no position
// has 255 legal moves (chess has at most 218, Xiangqi fewer).
const NullRank = 255

// WireCode returns a move as a stable 16-bit code for storage: Xiangqi
// from*128+to over the 0–89 point numbering, chess the Polyglot layout the
// chess engine uses for its moves. Unlike engine.Move it never changes with
// an engine's internal board layout. engine.NullMove is NullCode.
func WireCode(g engine.Game, m engine.Move) uint16 {
	if m == engine.NullMove {
		return NullCode
	}
	if g == engine.Xiangqi {
		return uint16(xiangqi.Index90(xiangqi.MoveFrom(m))<<7 | xiangqi.Index90(xiangqi.MoveTo(m)))
	}
	return uint16(m)
}

// FromWireCode is the inverse of WireCode.
func FromWireCode(g engine.Game, c uint16) engine.Move {
	if c == NullCode {
		return engine.NullMove
	}
	if g == engine.Xiangqi {
		return xiangqi.NewMove(xiangqi.SquareFrom90(int(c>>7)), xiangqi.SquareFrom90(int(c&127)))
	}
	return engine.Move(c)
}

// GameHash identifies a game for de-duplication as pgn-extract does: its
// start position and its whole move sequence (ANCHORS §4). Equal hashes
// mean the same game, up to a 64-bit collision.
func GameHash(g engine.Game, startKey uint64, moves []engine.Move) [16]byte {
	var h [16]byte
	binary.BigEndian.PutUint64(h[:8], startKey^uint64(g)<<56)
	f := fnv.New64a()
	var b [2]byte
	for _, m := range moves {
		binary.BigEndian.PutUint16(b[:], WireCode(g, m))
		f.Write(b[:])
	}
	binary.BigEndian.PutUint64(h[8:], f.Sum64())
	return h
}

// moveRanker is implemented by engines that rank a move among the legal
// moves by wire code without sorting them.
type moveRanker interface {
	MoveRank(m engine.Move) (int, bool)
}

// legalRanker is implemented by engines that rank a move faster when told
// it is legal.
type legalRanker interface {
	RankLegal(m engine.Move) int
}

// RankLegal is MoveRank of a move known to be legal in p (NullRank for
// engine.NullMove).
func RankLegal(p engine.Position, m engine.Move) int {
	if m == engine.NullMove {
		return NullRank
	}
	if r, ok := p.(legalRanker); ok {
		return r.RankLegal(m)
	}
	n, _ := MoveRank(p, m)
	return n
}

// moveAtRanker is implemented by engines that find the move of a rank
// without sorting the legal moves.
type moveAtRanker interface {
	MoveAtRank(r int) (engine.Move, bool)
}

// MoveAtRank is the inverse of MoveRank: the legal move of p whose rank is
// r, and false when p has no more than r legal moves. NullRank is
// engine.NullMove, which is allowed when the side to move is not in check.
func MoveAtRank(p engine.Position, r int) (engine.Move, bool) {
	if r == NullRank {
		return engine.NullMove, !p.InCheck()
	}
	if x, ok := p.(moveAtRanker); ok {
		return x.MoveAtRank(r)
	}
	var buf [256]engine.Move
	legal := p.AppendLegalMoves(buf[:0])
	if r < 0 || r >= len(legal) {
		return 0, false
	}
	g := p.Game()
	slices.SortFunc(legal, func(a, b engine.Move) int { return int(WireCode(g, a)) - int(WireCode(g, b)) })
	return legal[r], true
}

// MoveRank returns how many legal moves of p have a smaller wire code than
// m, and whether m is legal: m's index among the legal moves sorted by wire
// code, which does not depend on the order an engine generates them in.
// engine.NullMove ranks NullRank, allowed when p is not in check.
func MoveRank(p engine.Position, m engine.Move) (int, bool) {
	if m == engine.NullMove {
		return NullRank, !p.InCheck()
	}
	if r, ok := p.(moveRanker); ok {
		return r.MoveRank(m)
	}
	g := p.Game()
	code := WireCode(g, m)
	n, found := 0, false
	var buf [256]engine.Move
	for _, l := range p.AppendLegalMoves(buf[:0]) {
		if c := WireCode(g, l); c < code {
			n++
		} else if c == code {
			found = true
		}
	}
	return n, found
}
