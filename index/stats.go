package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/xqdb/xqdb/engine"
)

// EndSlot is the wire code of the "move" of a game that ended in the
// position: such games reached it (they are listed by games) but add
// nothing to the tree.
const EndSlot = 0xFFFF

// MoveStats aggregates the games that played one move from a position.
type MoveStats struct {
	Code       uint16 // games.WireCode, or EndSlot
	Games      uint32
	FirstWins  uint32 // Red or White won
	Draws      uint32
	SecondWins uint32
	RatingSum  uint64 // sum of the games' average ratings, where known
	Rated      uint32 // games with a known rating
	LastDate   uint32 // yyyymmdd (0 unknown)
}

// Add folds o's games into m.
func (m *MoveStats) Add(o MoveStats) {
	m.Games += o.Games
	m.FirstWins += o.FirstWins
	m.Draws += o.Draws
	m.SecondWins += o.SecondWins
	m.RatingSum += o.RatingSum
	m.Rated += o.Rated
	m.LastDate = max(m.LastDate, o.LastDate)
}

// Posting is one game that reached a position, with the slot (index into
// the moves of the same stats value) of the move it played there.
type Posting struct {
	Gid  uint32
	Slot uint16
}

// statsValue is what one run knows about one popular position: per-move
// aggregates and the games, in increasing gid order.
type statsValue struct {
	Moves []MoveStats
	Games []Posting
}

// add counts game gid, with attributes a, playing the move code here.
func (v *statsValue) add(gid uint32, code uint16, a Attrs) {
	s := v.slot(code)
	m := &v.Moves[s]
	m.Games++
	switch a.Result {
	case engine.FirstWins:
		m.FirstWins++
	case engine.SecondWins:
		m.SecondWins++
	case engine.Draw:
		m.Draws++
	}
	if a.Rating > 0 {
		m.RatingSum += uint64(a.Rating)
		m.Rated++
	}
	m.LastDate = max(m.LastDate, a.Date)
	v.Games = append(v.Games, Posting{gid, s})
}

func (v *statsValue) slot(code uint16) uint16 {
	for i := range v.Moves {
		if v.Moves[i].Code == code {
			return uint16(i)
		}
	}
	v.Moves = append(v.Moves, MoveStats{Code: code})
	return uint16(len(v.Moves) - 1)
}

// encodeStats packs a stats value:
//
//	the moves' aggregates (appendMoves);
//	uvarint nGames, per game: gid delta, slot (uvarints).
func encodeStats(dst []byte, v *statsValue) []byte {
	dst = appendMoves(dst, v.Moves)
	dst = binary.AppendUvarint(dst, uint64(len(v.Games)))
	prev := uint32(0)
	for _, g := range v.Games {
		dst = binary.AppendUvarint(dst, uint64(g.Gid-prev))
		dst = binary.AppendUvarint(dst, uint64(g.Slot))
		prev = g.Gid
	}
	return dst
}

// appendMoves appends per-move aggregates: uvarint n, then per move its
// code (2 bytes) and games, firstWins, draws, secondWins, ratingSum,
// rated, lastDate (uvarints). Stats values and their heads (head.go)
// start with them.
func appendMoves(dst []byte, moves []MoveStats) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(moves)))
	for _, m := range moves {
		dst = binary.BigEndian.AppendUint16(dst, m.Code)
		for _, x := range [...]uint64{uint64(m.Games), uint64(m.FirstWins), uint64(m.Draws), uint64(m.SecondWins), m.RatingSum, uint64(m.Rated), uint64(m.LastDate)} {
			dst = binary.AppendUvarint(dst, x)
		}
	}
	return dst
}

// moves reads what appendMoves wrote.
func (d *decoder) moves() ([]MoveStats, error) { return d.appendMoves(nil) }

// appendMoves reads what appendMoves wrote, appending the moves to dst.
func (d *decoder) appendMoves(dst []MoveStats) ([]MoveStats, error) {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.b)) {
		return nil, errShort
	}
	dst = slices.Grow(dst, int(n))
	for range n {
		var m MoveStats
		if len(d.b) < 2 {
			return nil, errShort
		}
		m.Code = binary.BigEndian.Uint16(d.b)
		d.b = d.b[2:]
		m.Games = uint32(d.uvarint())
		m.FirstWins = uint32(d.uvarint())
		m.Draws = uint32(d.uvarint())
		m.SecondWins = uint32(d.uvarint())
		m.RatingSum = d.uvarint()
		m.Rated = uint32(d.uvarint())
		m.LastDate = uint32(d.uvarint())
		dst = append(dst, m)
	}
	return dst, d.err
}

func decodeStats(b []byte) (*statsValue, error) { return decodeStatsUpTo(b, -1) }

// decodeStatsUpTo decodes the aggregates and at most maxGames postings
// (all when negative): a tree needs the aggregates and one game to verify
// the position with, not the million postings of an opening position.
func decodeStatsUpTo(b []byte, maxGames int) (*statsValue, error) {
	d := decoder{b: b}
	moves, err := d.moves()
	if err != nil {
		return nil, fmt.Errorf("index: corrupt stats value")
	}
	v := &statsValue{Moves: moves}
	ng := d.uvarint()
	if ng > uint64(len(b)) {
		return nil, fmt.Errorf("index: corrupt stats value")
	}
	if maxGames >= 0 {
		ng = min(ng, uint64(maxGames))
	}
	v.Games = make([]Posting, ng)
	prev := uint32(0)
	for i := range v.Games {
		prev += uint32(d.uvarint())
		v.Games[i] = Posting{prev, uint16(d.uvarint())}
		if int(v.Games[i].Slot) >= len(v.Moves) {
			return nil, fmt.Errorf("index: corrupt stats value: slot out of range")
		}
	}
	if d.err != nil {
		return nil, fmt.Errorf("index: corrupt stats value: %v", d.err)
	}
	return v, nil
}

// firstGid is the lowest gid among v's games (v holds at least the first
// of each run's, in gid order).
func (v *statsValue) firstGid() uint32 {
	first := ^uint32(0)
	for _, g := range v.Games {
		first = min(first, g.Gid)
	}
	return first
}

// mergeStats folds o into v (slots of o's postings are renumbered).
func mergeStats(v, o *statsValue) {
	remap := make([]uint16, len(o.Moves))
	for i, m := range o.Moves {
		s := v.slot(m.Code)
		v.Moves[s].Add(m)
		remap[i] = s
	}
	for _, g := range o.Games {
		v.Games = append(v.Games, Posting{g.Gid, remap[g.Slot]})
	}
}

// statsMerger merges the stats values of several runs at one position
// into one value, as decoding each, folding them with mergeStats and
// encoding the result would, but without building a Posting per game:
// a run's postings are copied as they are coded, their slots renumbered
// and the first gid's delta re-based on the previous run's last gid. A
// tier merge handles hundreds of thousands of postings, and decoding
// them into slices and encoding them again was a fifth of its CPU
// (issue 18). The scratch slices are reused from value to value.
type statsMerger struct {
	moves []MoveStats // the merged value's moves, in mergeStats's slot order
	remap []uint16    // per source move (all sources, in order): its merged slot
	srcs  []statsSource
}

// statsSource is one run's value: where its moves start in remap, its
// game count and its coded postings.
type statsSource struct {
	remapAt  int
	moves    int
	games    uint64
	postings []byte
}

var errCorruptStats = errors.New("index: corrupt stats value")

// merge appends to dst the merged value of vals (the runs' values,
// oldest run first: their gids ascend from run to run) and returns it
// with its game count.
func (m *statsMerger) merge(dst []byte, vals [][]byte) ([]byte, uint64, error) {
	m.moves, m.remap, m.srcs = m.moves[:0], m.remap[:0], m.srcs[:0]
	var games uint64
	size := 0
	var one []MoveStats
	for _, v := range vals {
		d := decoder{b: v}
		var err error
		if one, err = d.appendMoves(one[:0]); err != nil {
			return dst, 0, errCorruptStats
		}
		src := statsSource{remapAt: len(m.remap), moves: len(one)}
		for _, mv := range one {
			s := slotOf(&m.moves, mv.Code)
			m.moves[s].Add(mv)
			m.remap = append(m.remap, s)
		}
		src.games = d.uvarint()
		if d.err != nil || src.games > uint64(len(v)) {
			return dst, 0, errCorruptStats
		}
		src.postings = d.b
		games += src.games
		size += len(d.b)
		m.srcs = append(m.srcs, src)
	}
	// The postings take at most their bytes again (a renumbered slot or a
	// re-based delta is never longer than a uvarint's 10 bytes more).
	dst = slices.Grow(dst, 16+len(m.moves)*40+size+len(m.srcs)*10)
	dst = appendMoves(dst, m.moves)
	dst = binary.AppendUvarint(dst, games)
	prev := uint32(0) // the last gid written
	for _, src := range m.srcs {
		d := decoder{b: src.postings}
		remap := m.remap[src.remapAt : src.remapAt+src.moves]
		gid := uint32(0) // the source's gids, decoded
		for range src.games {
			gid += uint32(d.uvarint())
			slot := d.uvarint()
			if d.err != nil || slot >= uint64(len(remap)) {
				return dst, 0, errCorruptStats
			}
			dst = binary.AppendUvarint(dst, uint64(gid-prev))
			dst = binary.AppendUvarint(dst, uint64(remap[slot]))
			prev = gid
		}
	}
	return dst, games, nil
}

// slotOf is statsValue.slot for a bare slice of moves.
func slotOf(moves *[]MoveStats, code uint16) uint16 {
	for i := range *moves {
		if (*moves)[i].Code == code {
			return uint16(i)
		}
	}
	*moves = append(*moves, MoveStats{Code: code})
	return uint16(len(*moves) - 1)
}
