package search

import (
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/chess"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

// Score bounds. A mate in n plies scores Mate-n for the winner; a
// perpetual check or chase lost by the rules (RULES X13) scores as a mate at
// the ply where the cycle closes.
const (
	Infinity  = 32000
	Mate      = 31000
	MaxPly    = 100
	mateBound = Mate - 2*MaxPly
	maxMoves  = 256
)

// IsMate reports whether a score is a forced mate (or a rules win) and in
// how many moves: positive when the side to move mates.
func IsMate(score int) (moves int, ok bool) {
	switch {
	case score >= mateBound:
		return (Mate - score + 1) / 2, true
	case score <= -mateBound:
		return -(Mate + score) / 2, true
	}
	return 0, false
}

// Limits bound one search. Zero fields are no limit; with none set the
// search runs until Stop (or MaxPly).
type Limits struct {
	Nodes int64
	Depth int
	// Time is the hard limit: the search stops when it is spent.
	Time time.Duration
	// Soft, when set, is the time after which no new iteration starts.
	Soft time.Duration
}

// Info is what the search reports after each completed iteration.
type Info struct {
	Depth, SelDepth int
	Score           int
	Nodes           int64
	Time            time.Duration
	PV              []engine.Move
}

// NPS returns nodes per second.
func (i Info) NPS() int64 {
	if i.Time <= 0 {
		return 0
	}
	return int64(float64(i.Nodes) / i.Time.Seconds())
}

// Result is a finished search: the move to play (NoMove when the side to
// move has none), its score for the side to move, the depth of the last
// completed iteration and the principal variation.
type Result struct {
	Move  engine.Move
	Score int
	Depth int
	Nodes int64
	PV    []engine.Move
}

// Searcher searches positions of one game. It is not safe for concurrent
// use, except Stop.
type Searcher struct {
	game  engine.Game
	b     board
	xq    xqBoard
	ch    chessBoard
	tt    table
	rules xiangqi.Rules

	nodes     int64
	limits    Limits
	start     time.Time
	stopFlag  atomic.Bool
	stopped   bool
	rootPly   int
	rootDepth int
	seldepth  int

	killers  [MaxPly + 1][2]engine.Move
	history  [2][1 << 16]int32
	moveBuf  [MaxPly + 1][maxMoves]engine.Move
	scoreBuf [MaxPly + 1][maxMoves]int32
	pv       [MaxPly + 1][MaxPly + 1]engine.Move
	pvLen    [MaxPly + 1]int
	// staticEval[ply] is the evaluation at the node at ply, -Infinity in
	// check.
	staticEval [MaxPly + 1]int
	// gaveCheck[ply] says whether the move into the node at ply gave
	// check (the X15 move limit leaves out checks beyond a side's 10th).
	gaveCheck [MaxPly + 2]bool

	rootBest      engine.Move
	rootBestScore int
	prevBest      engine.Move
	pvOut         [MaxPly]engine.Move
}

// lmr[d][i] is the late-move reduction at depth d for the i-th move.
var lmr [64][64]int8

func init() {
	for d := 1; d < 64; d++ {
		for i := 1; i < 64; i++ {
			lmr[d][i] = int8(0.75 + math.Log(float64(d))*math.Log(float64(i))/1.8)
		}
	}
}

// New returns a searcher for game g with a transposition table of hashMB
// megabytes.
func New(g engine.Game, hashMB int) *Searcher {
	s := &Searcher{game: g, tt: newTable(hashMB)}
	s.xq.s = s
	return s
}

// Game returns the game the searcher plays.
func (s *Searcher) Game() engine.Game { return s.game }

// SetRules sets the Xiangqi rules the search obeys (RULES X13 profile and
// move limit); the zero value is the vn profile.
func (s *Searcher) SetRules(r xiangqi.Rules) {
	s.rules = r
	s.xq.verdicts = [verdictSlots]verdictEntry{}
}

// SetHash replaces the transposition table by one of mb megabytes.
func (s *Searcher) SetHash(mb int) { s.tt = newTable(mb) }

// Clear forgets everything learnt from earlier searches (a new game).
func (s *Searcher) Clear() {
	s.tt.clear()
	s.history = [2][1 << 16]int32{}
	s.killers = [MaxPly + 1][2]engine.Move{}
	// The referee's verdicts stay: they depend on the moves hashed into
	// their key and on the rules alone.
}

// Stop asks the running search, or the next one if none runs, to return as
// soon as it can; a search clears the request when it returns. It may be
// called from another goroutine.
func (s *Searcher) Stop() { s.stopFlag.Store(true) }

// ClearStop withdraws a Stop request no search has taken: one made after
// the last search had returned would otherwise end the next one early.
func (s *Searcher) ClearStop() { s.stopFlag.Store(false) }

// bind points the adapter at pos.
func (s *Searcher) bind(pos engine.Position) error {
	switch p := pos.(type) {
	case *xiangqi.Position:
		if s.game != engine.Xiangqi {
			return fmt.Errorf("search: a %s searcher given a xiangqi position", s.game)
		}
		s.xq.p = p
		s.b = &s.xq
	case *chess.Position:
		if s.game != engine.Chess {
			return fmt.Errorf("search: a %s searcher given a chess position", s.game)
		}
		s.ch.p = p
		s.b = &s.ch
	default:
		return fmt.Errorf("search: unsupported position type %T", pos)
	}
	return nil
}

// Search searches pos within lim and returns the best move found. pos
// keeps the moves of the game so far as its history (repetitions are judged
// over it); it is used as scratch and left as it was. info, when not nil,
// is called after each completed iteration.
func (s *Searcher) Search(pos engine.Position, lim Limits, info func(Info)) (Result, error) {
	if err := s.bind(pos); err != nil {
		return Result{}, err
	}
	defer s.stopFlag.Store(false)
	s.stopped = false
	s.nodes = 0
	s.limits = lim
	s.start = time.Now()
	s.rootPly = s.b.historyLen()
	s.b.startSearch()
	s.tt.gen++
	for i := range s.history {
		for j := range s.history[i] {
			s.history[i][j] /= 8
		}
	}
	s.killers = [MaxPly + 1][2]engine.Move{}
	s.prevBest = engine.NoMove

	maxDepth := MaxPly - 10
	if lim.Depth > 0 {
		maxDepth = min(lim.Depth, maxDepth)
	}
	var res Result
	moves := s.b.moves(s.moveBuf[0][:0])
	if len(moves) == 0 {
		return res, nil
	}
	res.Move = moves[0]
	score := 0
	inCheck := s.b.inCheck()
	for d := 1; d <= maxDepth; d++ {
		s.rootDepth = d
		s.seldepth = 0
		s.rootBest = engine.NoMove
		alpha, beta, window := -Infinity, Infinity, 30
		if d >= 5 {
			alpha, beta = max(score-window, -Infinity), min(score+window, Infinity)
		}
		for {
			v := s.search(alpha, beta, d, 0, false, inCheck)
			if s.stopped {
				break
			}
			if v <= alpha {
				alpha = max(v-window, -Infinity)
				beta = (alpha + beta) / 2
			} else if v >= beta {
				beta = min(v+window, Infinity)
			} else {
				score = v
				break
			}
			window *= 2
			if window > 600 {
				alpha, beta = -Infinity, Infinity
			}
		}
		if s.stopped {
			// A move that raised alpha in the interrupted iteration was
			// searched in full: it is at least as good as the last best.
			if s.rootBest != engine.NoMove && d > 1 {
				res.Move, res.Score = s.rootBest, s.rootBestScore
				if s.pvLen[0] > 0 && s.pv[0][0] == s.rootBest {
					res.PV = append(s.pvOut[:0], s.pv[0][:s.pvLen[0]]...)
				} else {
					res.PV = append(s.pvOut[:0], s.rootBest)
				}
			}
			break
		}
		res.Move, res.Score, res.Depth = s.pv[0][0], score, d
		res.PV = append(s.pvOut[:0], s.pv[0][:s.pvLen[0]]...)
		s.prevBest = res.Move
		if info != nil {
			info(Info{Depth: d, SelDepth: s.seldepth, Score: score, Nodes: s.nodes, Time: time.Since(s.start), PV: res.PV})
		}
		if lim.Soft > 0 && time.Since(s.start) >= lim.Soft {
			break
		}
		if m, ok := IsMate(score); ok && lim.Depth == 0 && d > 2*abs(m)+4 && lim.Nodes == 0 {
			break // a mate found and confirmed: deeper adds nothing
		}
	}
	res.Nodes = s.nodes
	return res, nil
}

// checkLimits sets s.stopped when a limit is reached.
func (s *Searcher) checkLimits() bool {
	if s.stopped {
		return true
	}
	if s.limits.Nodes > 0 && s.nodes >= s.limits.Nodes {
		s.stopped = true
	} else if s.nodes&1023 == 0 {
		if s.stopFlag.Load() || s.limits.Time > 0 && time.Since(s.start) >= s.limits.Time {
			s.stopped = true
		}
	}
	return s.stopped
}

// Nodes returns the nodes searched by the last (or current) search.
func (s *Searcher) Nodes() int64 { return s.nodes }

// MoveScore is one root move with its score for the side to move.
type MoveScore struct {
	Move  engine.Move
	Score int
}

// ScoreMoves scores every legal move of pos by a search of the given depth
// after it (depth 1 is the quiescence search), appending to dst: what
// self-play needs to pick opening moves by temperature.
func (s *Searcher) ScoreMoves(pos engine.Position, depth int, dst []MoveScore) ([]MoveScore, error) {
	if err := s.bind(pos); err != nil {
		return dst, err
	}
	s.stopFlag.Store(false)
	s.stopped = false
	s.limits = Limits{}
	s.rootPly = s.b.historyLen()
	s.b.startSearch()
	s.rootDepth = depth
	moves := s.b.moves(s.moveBuf[0][:0])
	for i := range moves {
		m := s.moveBuf[0][i]
		s.b.doMove(m)
		s.nodes++
		v := -s.search(-Infinity, Infinity, depth-1, 1, true, s.b.inCheck())
		s.b.undoMove()
		dst = append(dst, MoveScore{Move: m, Score: v})
	}
	return dst, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
