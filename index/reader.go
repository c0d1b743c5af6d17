package index

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dgraph-io/badger/v4"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// ErrNoGame is returned for a game id the store does not hold.
var ErrNoGame = errors.New("index: no such game")

// Game reads the stored game gid.
func (s *Store) Game(gid uint32) (*Record, error) {
	var r *Record
	err := s.db.View(func(txn *badger.Txn) error {
		var err error
		r, err = s.recordIn(txn, gid, decodeRecord)
		return err
	})
	return r, err
}

// recordIn reads the stored game gid in txn with decode (decodeRecord, or
// decodeRecordHeader for what reads only its tags).
func (s *Store) recordIn(txn *badger.Txn, gid uint32, decode func(uint32, []byte) (*Record, error)) (*Record, error) {
	if gid == 0 || gid >= s.man.NextGid {
		return nil, fmt.Errorf("%w: %d", ErrNoGame, gid)
	}
	item, err := txn.Get(s.gameKey(gid))
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, fmt.Errorf("%w: %d", ErrNoGame, gid)
	}
	if err != nil {
		return nil, err
	}
	var r *Record
	err = item.Value(func(v []byte) error {
		r, err = decode(gid, v)
		return err
	})
	return r, err
}

// GameHit is one game reaching a position: which game, at which ply
// (0 = the start position) and the move it played there (EndSlot when the
// game ended there).
type GameHit struct {
	Gid  uint32
	Ply  int // -1 when not computed (stats postings)
	Code uint16
}

// PositionStats is what the store knows about one position.
type PositionStats struct {
	// Moves aggregates per next move, EndSlot for games that ended here.
	Moves []MoveStats
	// Games lists every game that reached the position (only when asked).
	Games []GameHit
}

// positionID is the part of a FEN that identifies a position for
// verification: the board and side (and castling rights in chess); clocks
// and chess e.p. are covered by the key.
func positionID(p engine.Position) string {
	f := strings.Fields(p.FEN())
	n := 2
	if p.Game() == engine.Chess {
		n = 3
	}
	return strings.Join(f[:min(n, len(f))], " ")
}

// FindPosition replays a stored game and returns the first ply at which it
// reached pos (0 = its start), comparing keys and then the real position,
// since 64-bit keys can collide (DESIGN "Keys and storage"). Position
// search stops at a null move: the positions after one were not played.
func FindPosition(r *Record, pos engine.Position) (int, bool) {
	p, err := games.New(r.Game, r.StartFEN)
	if err != nil {
		return 0, false
	}
	key, id := pos.Key(), ""
	for ply := 0; ; ply++ {
		if p.Key() == key {
			if id == "" {
				id = positionID(pos)
			}
			if positionID(p) == id {
				return ply, true
			}
		}
		if ply == len(r.Moves) || r.Moves[ply] == engine.NullMove {
			return 0, false
		}
		p.Make(r.Moves[ply])
	}
}

// Position looks a position up: the stats values of popular positions,
// plus the tail postings of the key's bucket, each candidate game replayed
// to verify it and to find its move. withGames also lists the games.
func (s *Store) Position(game engine.Game, pos engine.Position, withGames bool) (*PositionStats, error) {
	key := pos.Key()
	res := &PositionStats{}
	merged, err := s.statsOf(game, key, withGames)
	if err != nil {
		return nil, err
	}
	id := "" // pos's positionID, once needed
	if len(merged.Games) > 0 {
		_, _, ok, err := s.findIn(merged.Games[0].Gid, pos, key, &id)
		if err != nil {
			return nil, err
		}
		if ok {
			res.Moves = merged.Moves
			if withGames {
				for _, g := range merged.Games {
					res.Games = append(res.Games, GameHit{g.Gid, -1, merged.Moves[g.Slot].Code})
				}
			}
		}
	}
	// A candidate from the tail may be a game already counted through the
	// stats (its tail posting was another position with the same
	// fingerprint, and the game also reached this one): count each game
	// once. With the game list at hand that is a lookup. Without it, the
	// gid order decides (tailGames).
	statsFrom, inStats := noStats, func(uint32) bool { return false }
	if len(res.Moves) > 0 {
		if withGames {
			var set map[uint32]bool
			inStats = func(gid uint32) bool {
				if set == nil {
					set = make(map[uint32]bool, len(merged.Games))
					for _, g := range merged.Games {
						set[g.Gid] = true
					}
				}
				return set[gid]
			}
		} else {
			statsFrom = merged.firstGid()
		}
	}
	tail, err := s.tailGames(game, pos, key, &id, statsFrom, inStats)
	if err != nil {
		return nil, err
	}
	for _, g := range tail {
		var one statsValue
		one.add(g.Gid, g.Code, s.Attrs(g.Gid))
		mergeStatsMoves(res, one.Moves[0])
	}
	if withGames {
		res.Games = append(res.Games, tail...)
	}
	return res, nil
}

// noStats is tailGames's statsFrom when no stats value counts pos's games.
const noStats = ^uint32(0)

// tailGames returns the games among the tail postings of key's bucket in
// the live runs that reached pos, each once, replayed to verify it (the
// postings hold fingerprints) and to find its ply and move, leaving out
// those the stats values count: every game from statsFrom on, and those
// inStats names. Without the stats' game list, the gid order decides
// what they count: a position, once popular, stays popular in every
// later run (writers load the popular keys, merges keep them), and a
// popular position's games all go to its stats; so a game that reached
// pos is in the stats exactly when its gid is not below the stats' first
// one, statsFrom (decoding a million postings to look, for an opening
// position, took a tree 100 ms). A run whose games all come from
// statsFrom on is not read at all: an opening position's tree read the
// tail block of every run the growth imports added, for nothing (issue
// 18).
func (s *Store) tailGames(game engine.Game, pos engine.Position, key uint64, id *string, statsFrom uint32, inStats func(gid uint32) bool) ([]GameHit, error) {
	var cands []uint32
	err := s.viewRuns(func(txn *view) error {
		for _, run := range s.man.LiveRuns {
			if from, ok := s.man.RunFrom[run]; ok && from >= statsFrom {
				continue // every game of the run that reached pos is in the stats
			}
			if !s.mayHold(byte(game), run, key) {
				continue // the run's filter rules key out
			}
			bits := s.man.tailBits(run)
			err := readValue(txn, tailKey(byte(game), run, tailBlock(key, bits)), func(v []byte) error {
				var err error
				cands, err = lookupTail(v, key, bits, cands)
				return err
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []GameHit
	counted := make(map[uint32]bool, len(cands))
	for _, gid := range cands {
		if gid >= s.man.NextGid || gid >= statsFrom || counted[gid] || inStats(gid) {
			continue
		}
		counted[gid] = true
		ply, next, ok, err := s.findIn(gid, pos, key, id)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue // another position with the same fingerprint
		}
		code := uint16(EndSlot)
		if next != engine.NullMove {
			code = games.WireCode(game, next)
		}
		out = append(out, GameHit{gid, ply, code})
	}
	return out, nil
}

// statsOf merges the stats values of key in the live runs: with all their
// games, or with the first game of each only. For the first game only, a
// large value's head (head.go) stands in for it: its aggregates and first
// game, without decompressing a game list of up to megabytes.
func (s *Store) statsOf(game engine.Game, key uint64, allGames bool) (*statsValue, error) {
	maxGames := -1
	if !allGames {
		maxGames = 1
	}
	heads := !allGames && s.man.Heads
	merged := &statsValue{}
	err := s.viewRuns(func(txn *view) error {
		if popular, err := s.mayHaveStats(txn, game, key); err != nil || !popular {
			return err
		}
		// One point read per live run (statsRuns: a merge under way stands
		// in for its sources where it has merged key): Badger's bloom
		// filters answer most of them (a position is popular in few runs)
		// without a block.
		var runBuf [16]uint32
		for _, run := range s.man.statsRuns(key, runBuf[:0]) {
			if heads && s.man.mayHaveHeads(run) {
				h, err := readHead(txn, game, run, key, false)
				if err != nil {
					return err
				}
				if h != nil {
					mergeStats(merged, &statsValue{Moves: h.Moves, Games: []Posting{h.First}})
					continue
				}
			}
			err := readValue(txn, statsKey(byte(game), run, key), func(v []byte) error {
				o, err := decodeStatsUpTo(v, maxGames)
				if err == nil {
					mergeStats(merged, o)
				}
				return err
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	return merged, err
}

// mayHaveStats reports whether key may have a stats value (and a head)
// in a live run: whether it is among the popular keys (popular.go), which
// hold every key with a stats value. Most positions a tree or a game list
// asks about are not popular, and asking each live run for their stats
// value and head cost two Badger reads a run that find nothing, of which
// a quarter decoded a block anyway (bloom filters' false positives over
// the five tables a read checks): a third of what each run added to a
// lookup after ten growth imports (issue 18). One read of the key's p|
// entry answers for every run. A store whose p| entries are not complete
// yet (manifest PopularKeys unset) is read run by run.
func (s *Store) mayHaveStats(txn getter, game engine.Game, key uint64) (bool, error) {
	if !s.man.PopularKeys {
		return true, nil
	}
	_, err := txn.Get(popularKey(byte(game), key))
	if errors.Is(err, badger.ErrKeyNotFound) {
		return false, nil
	}
	return err == nil, err
}

// readHead reads the head of run's stats value at key (nil when it has
// none): whole, or without its newest games (decodeHead).
func readHead(txn getter, game engine.Game, run uint32, key uint64, newest bool) (*statsHead, error) {
	var h *statsHead
	err := readValue(txn, headKey(byte(game), run, key), func(v []byte) error {
		var err error
		h, err = decodeHead(v, newest)
		return err
	})
	return h, err
}

// NewestGames answers the first games of a game list at pos in the
// default order (the latest date first, the lower gid first among equal
// dates, undated games last) from the heads of the large stats values
// (head.go): hits holds the n first games of that order, and more, in no
// order; total counts every game that reached pos. Its hits and total are
// those of Position(game, pos, true), less games that cannot be among
// the n first. ok is false when the heads cannot tell (n past a head's
// list; a store whose heads are not vouched for): ask Position then.
func (s *Store) NewestGames(game engine.Game, pos engine.Position, n int) (hits []GameHit, total int, ok bool, err error) {
	if !s.man.Heads {
		return nil, 0, false, nil
	}
	key := pos.Key()
	var stats []GameHit
	count := 0
	first := ^uint32(0)
	covered := true
	err = s.viewRuns(func(txn *view) error {
		if popular, err := s.mayHaveStats(txn, game, key); err != nil || !popular {
			return err
		}
		var runBuf [16]uint32
		for _, run := range s.man.statsRuns(key, runBuf[:0]) {
			var h *statsHead
			if s.man.mayHaveHeads(run) {
				var err error
				if h, err = readHead(txn, game, run, key, true); err != nil {
					return err
				}
			}
			if h != nil {
				if len(h.Newest) < int(h.Games) && len(h.Newest) < n {
					covered = false
					return nil
				}
				count += int(h.Games)
				first = min(first, h.First.Gid)
				for _, p := range h.Newest {
					stats = append(stats, GameHit{p.Gid, -1, h.Moves[p.Slot].Code})
				}
				continue
			}
			err = readValue(txn, statsKey(byte(game), run, key), func(b []byte) error {
				v, err := decodeStats(b)
				if err != nil {
					return err
				}
				count += len(v.Games)
				for _, p := range v.Games {
					first = min(first, p.Gid)
				}
				// Only the run's n newest can be among the list's n first:
				// the caller sorts what it gets, and the stats values of
				// positions popular in small runs (below headMinGames, no
				// head) came whole, a few thousand games over the growth
				// imports' runs for 20 (issue 18: game lists at popular
				// positions +47% after ten growth imports).
				if len(v.Games) > n {
					v.Games = newestPostings(v.Games, n, s.gameDate)
				}
				for _, p := range v.Games {
					stats = append(stats, GameHit{p.Gid, -1, v.Moves[p.Slot].Code})
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil || !covered {
		return nil, 0, false, err
	}
	// The stats are pos's when their first game reached it (Position).
	id := ""
	statsFrom := noStats
	if count > 0 {
		_, _, found, err := s.findIn(first, pos, key, &id)
		if err != nil {
			return nil, 0, false, err
		}
		if found {
			hits, total, statsFrom = stats, count, first
		}
	}
	tail, err := s.tailGames(game, pos, key, &id, statsFrom, func(uint32) bool { return false })
	if err != nil {
		return nil, 0, false, err
	}
	return append(hits, tail...), total + len(tail), true, nil
}

func mergeStatsMoves(res *PositionStats, m MoveStats) {
	for i := range res.Moves {
		if res.Moves[i].Code == m.Code {
			res.Moves[i].Add(m)
			return
		}
	}
	res.Moves = append(res.Moves, m)
}

// findIn replays stored game gid up to where it reaches pos (findInRecord).
func (s *Store) findIn(gid uint32, pos engine.Position, key uint64, id *string) (ply int, next engine.Move, ok bool, err error) {
	err = s.db.View(func(txn *badger.Txn) error {
		item, err := txn.Get(s.gameKey(gid))
		if err != nil {
			return err
		}
		return item.Value(func(v []byte) error {
			var err error
			ply, next, ok, err = findInRecord(gid, v, pos, key, id)
			return err
		})
	})
	if errors.Is(err, badger.ErrKeyNotFound) {
		return 0, 0, false, fmt.Errorf("%w: %d", ErrNoGame, gid)
	}
	return ply, next, ok, err
}

// gameDate is game gid's date (Attrs), the key of newestPostings.
func (s *Store) gameDate(gid uint32) uint32 { return s.Attrs(gid).Date }
