package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"

	"github.com/dgraph-io/badger/v4"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// CheckReport is what Check found: the store's three parts compared with
// one another. Game lists hold at most maxListed ids; the counts are whole.
type CheckReport struct {
	Games int `json:"games"` // committed games
	// Records: committed games without a record, and records that do not
	// decode or replay.
	MissingRecords    int      `json:"missing_records"`
	BadRecords        int      `json:"bad_records"`
	BadRecordIDs      []uint32 `json:"bad_record_ids,omitempty"`
	MissingRecordIDs  []uint32 `json:"missing_record_ids,omitempty"`
	Positions         int64    `json:"positions"`          // postings in the position index
	ExpectedPositions int64    `json:"expected_positions"` // distinct positions of the records
	// PositionMismatches counts the games whose postings are not exactly
	// their distinct positions (missing or extra).
	PositionMismatches  int      `json:"position_mismatches"`
	PositionMismatchIDs []uint32 `json:"position_mismatch_ids,omitempty"`
	// FilterMisses counts the games that reached a position (not a
	// popular one) which the position filter of the run holding their
	// tail postings rules out: lookups of it would miss them (filter.go).
	FilterMisses  int      `json:"filter_misses"`
	FilterMissIDs []uint32 `json:"filter_miss_ids,omitempty"`
	// BadHeads counts the heads of large stats values (head.go) that do
	// not say what their value says, or have no value: a game list's
	// first page would come out wrong.
	BadHeads int `json:"bad_heads"`
	// BadRunStarts counts the live runs holding a game below the first
	// gid the manifest gives them (RunFrom): a tree at a popular position
	// would skip that run's tail, and miss the game.
	BadRunStarts       int      `json:"bad_run_starts"`
	MetadataMissing    bool     `json:"metadata_missing"`
	MetadataDocs       int      `json:"metadata_documents"` // games whose metadata is all indexed
	MissingMetadata    int      `json:"missing_metadata"`
	MissingMetadataIDs []uint32 `json:"missing_metadata_ids,omitempty"`
	// Problems says what is wrong, one line each, and what repairs it.
	Problems []string `json:"problems"`
}

const maxListed = 20

func appendListed(ids []uint32, gid uint32) []uint32 {
	if len(ids) < maxListed {
		ids = append(ids, gid)
	}
	return ids
}

// Check compares the game records, the position index and the metadata
// index: every committed game must have a record that replays, exactly one
// posting per distinct position it reached, and a metadata document. It
// reads the whole store (a replay per game); it changes nothing.
func (s *Store) Check() (*CheckReport, error) {
	rep := &CheckReport{Games: s.Games(), Problems: []string{}}
	if err := s.loadAttrs(); err != nil {
		return nil, err
	}
	next := s.man.NextGid
	postings := make([]uint32, next)
	tailRun := make([]uint32, next) // the live run holding each game's tail postings
	firstGid := map[uint32]uint32{} // each live run's least gid
	if err := s.countPostings(postings, tailRun, firstGid, &rep.Positions); err != nil {
		return nil, err
	}
	for run, first := range firstGid {
		if from, ok := s.man.RunFrom[run]; ok && first < from {
			rep.BadRunStarts++
		}
	}
	popular := map[[9]byte]bool{} // the popular-key answers read
	if err := s.checkHeads(rep); err != nil {
		return nil, err
	}
	for gid := uint32(1); gid < next; gid++ {
		if s.Attrs(gid).Deleted {
			if postings[gid] > 0 {
				rep.PositionMismatches++
				rep.PositionMismatchIDs = appendListed(rep.PositionMismatchIDs, gid)
			}
			continue
		}
		r, err := s.Game(gid)
		if err != nil {
			rep.MissingRecords++
			rep.MissingRecordIDs = appendListed(rep.MissingRecordIDs, gid)
			continue
		}
		keys, err := recordKeys(r)
		if err != nil {
			rep.BadRecords++
			rep.BadRecordIDs = appendListed(rep.BadRecordIDs, gid)
			continue
		}
		occ := occurrencesOf(&Game{Record: *r, Keys: keys})
		rep.ExpectedPositions += int64(len(occ))
		if int(postings[gid]) != len(occ) {
			rep.PositionMismatches++
			rep.PositionMismatchIDs = appendListed(rep.PositionMismatchIDs, gid)
		}
		missed, err := s.filterMisses(r.Game, tailRun[gid], occ, popular)
		if err != nil {
			return nil, err
		}
		if missed {
			rep.FilterMisses++
			rep.FilterMissIDs = appendListed(rep.FilterMissIDs, gid)
		}
	}
	if err := s.checkMetadata(rep); err != nil {
		return nil, err
	}
	if n := rep.MissingRecords + rep.BadRecords; n > 0 {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%d of %d games have no record or one that does not replay (ids %v); their games are lost to this database: import their files again into a new one", n, rep.Games, append(rep.MissingRecordIDs, rep.BadRecordIDs...)))
	}
	if rep.PositionMismatches > 0 {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%d games are missing from the position index or indexed wrongly (%d postings, %d positions in the records; ids %v): run xqdb reindex --positions", rep.PositionMismatches, rep.Positions, rep.ExpectedPositions, rep.PositionMismatchIDs))
	}
	if rep.FilterMisses > 0 {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%d games reached positions that their run's position filter rules out (ids %v): lookups of those positions miss them: run xqdb reindex --positions", rep.FilterMisses, rep.FilterMissIDs))
	}
	if rep.BadRunStarts > 0 {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%d runs of the position index hold games below the first game the manifest gives them: trees at popular positions would miss those games: run xqdb reindex --positions", rep.BadRunStarts))
	}
	if rep.BadHeads > 0 {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%d heads of popular positions' statistics disagree with them (game lists' first pages would be wrong): run xqdb reindex --positions", rep.BadHeads))
	}
	switch {
	case rep.MetadataMissing:
		rep.Problems = append(rep.Problems, "the metadata index (meta.bleve) is missing: run xqdb reindex --metadata")
	case rep.MissingMetadata > 0:
		rep.Problems = append(rep.Problems, fmt.Sprintf("%d games are missing from the metadata index (ids %v): run xqdb reindex --metadata", rep.MissingMetadata, rep.MissingMetadataIDs))
	}
	return rep, nil
}

// countPostings counts, per game, the postings of the live runs (stats
// game lists and tail blocks), notes the run of each game's tail
// postings in tailRun, and each run's least gid in firstGid.
func (s *Store) countPostings(counts, tailRun []uint32, firstGid map[uint32]uint32, total *int64) error {
	add := func(run, gid uint32) {
		*total++
		if int(gid) < len(counts) {
			counts[gid]++
		}
		if first, ok := firstGid[run]; !ok || gid < first {
			firstGid[run] = gid
		}
	}
	return s.viewRuns(func(txn *view) error {
		for _, kind := range []byte{prefixStats, prefixTail} {
			err := txn.eachRunKey(kind, func(it *badger.Iterator) error {
				k := it.Item().Key()
				if !s.man.live(runOf(k)) {
					return nil
				}
				err := it.Item().Value(func(v []byte) error {
					if kind == prefixTail {
						return decodeTail(v, func(gid, _ uint32, _ int) {
							add(runOf(k), gid)
							if int(gid) < len(tailRun) {
								tailRun[gid] = runOf(k)
							}
						})
					}
					st, err := decodeStats(v)
					if err != nil {
						return err
					}
					for _, g := range st.Games {
						add(runOf(k), g.Gid)
					}
					return nil
				})
				if err != nil {
					return fmt.Errorf("index: position index value %x: %w", k, err)
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// checkHeads counts the heads of live runs that disagree with their stats
// values or have none, when the manifest vouches for them (readers ignore
// them otherwise).
func (s *Store) checkHeads(rep *CheckReport) error {
	if !s.man.Heads {
		return nil
	}
	date := func(gid uint32) uint32 { return s.Attrs(gid).Date }
	return s.viewRuns(func(txn *view) error {
		// Every value that should have a head has the right one.
		err := s.eachLiveStats(txn, func(item *badger.Item, game uint8, key uint64) error {
			return item.Value(func(b []byte) error {
				v, err := decodeStats(b)
				if err != nil {
					return err
				}
				h, err := readHead(txn, engine.Game(game), runOf(item.Key()), key, true)
				if err != nil && !errors.Is(err, errCorruptHead) {
					return err
				}
				if err != nil || !reflect.DeepEqual(h, headOf(v, date)) {
					rep.BadHeads++
				}
				return nil
			})
		})
		if err != nil {
			return err
		}
		// Every head of a live run has its value.
		return txn.eachRunKey(prefixHead, func(it *badger.Iterator) error {
			k := it.Item().Key()
			if s.man.live(runOf(k)) {
				if _, err := txn.Get(withKind(k, prefixStats)); err != nil {
					rep.BadHeads++
				}
			}
			return nil
		})
	})
}

// checkMetadata lists the committed games whose metadata is not all
// indexed: a value without its Bleve document, or fewer postings naming
// the game than it has values (values.go). Postings of games past the
// last commit are left over from an interrupted run; searches ignore
// them, so they are no problem.
func (s *Store) checkMetadata(rep *CheckReport) error {
	if s.meta == nil {
		rep.MetadataMissing = s.MetadataMissing()
		return nil
	}
	posted := make([]uint16, s.man.NextGid)
	err := s.gdb.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: postingsKind})
		defer it.Close()
		var gids []uint32
		for it.Rewind(); it.Valid(); it.Next() {
			err := it.Item().Value(func(v []byte) error {
				var err error
				gids, err = appendGids(gids[:0], v)
				return err
			})
			if err != nil {
				return err
			}
			for _, g := range gids {
				if g < uint32(len(posted)) && posted[g] < 0xFFFF {
					posted[g]++
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	adv, err := s.meta.Advanced()
	if err != nil {
		return err
	}
	r, err := adv.Reader()
	if err != nil {
		return err
	}
	defer r.Close()
	indexed := map[fieldKey]bool{}
	im := metaMapping()
	cache := newFieldCache()
	for gid := uint32(1); gid < s.man.NextGid; gid++ {
		a := s.Attrs(gid)
		if a.Deleted {
			continue
		}
		rec, err := s.Game(gid)
		if err != nil {
			continue // counted with the records
		}
		s.classifyStored(rec)
		values := valuesOf(im, []pendingDoc{{gid, rec, a}}, cache).order
		ok := true
		for _, f := range values {
			k := fieldKey{f.name, f.value}
			has, seen := indexed[k]
			if !seen {
				id, err := r.InternalID(valueDocID(f.name, f.value))
				if err != nil {
					return err
				}
				has = id != nil
				indexed[k] = has
			}
			ok = ok && has
		}
		if ok && int(posted[gid]) >= len(values) {
			rep.MetadataDocs++
			continue
		}
		rep.MissingMetadata++
		rep.MissingMetadataIDs = appendListed(rep.MissingMetadataIDs, gid)
	}
	return nil
}

// recordKeys replays a stored record and returns the key of every
// position it reached (len(r.Moves)+1 of them), as the writer stored them.
func recordKeys(r *Record) ([]uint64, error) {
	p, err := games.New(r.Game, r.StartFEN)
	if err != nil {
		return nil, err
	}
	keys := make([]uint64, 0, len(r.Moves)+1)
	keys = append(keys, p.Key())
	for _, m := range r.Moves {
		p.Make(m)
		keys = append(keys, p.Key())
	}
	return keys, nil
}

// filterMisses reports whether run's position filter, if it has one,
// rules out a position of occ (a game's occurrences, its tail postings in
// run) that is not popular: popular positions' games are in stats values,
// not in tail blocks, so filters leave them out. popular caches the
// popular keys' answers.
func (s *Store) filterMisses(game engine.Game, run uint32, occ []occurrence, popular map[[9]byte]bool) (bool, error) {
	if _, ok := s.man.Filters[run]; !ok {
		return false, nil
	}
	for _, o := range occ {
		if s.mayHold(byte(game), run, o.key) {
			continue
		}
		var k [9]byte
		k[0] = byte(game)
		binary.BigEndian.PutUint64(k[1:], o.key)
		pop, ok := popular[k]
		if !ok {
			err := s.viewRuns(func(txn *view) error {
				var err error
				pop, err = s.mayHaveStats(txn, game, o.key)
				return err
			})
			if err != nil {
				return false, err
			}
			popular[k] = pop
		}
		if !pop {
			return true, nil
		}
	}
	return false, nil
}
