package index

import (
	"errors"
	"fmt"
	"slices"

	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/dgraph-io/badger/v4"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// Delete removes games from every index: their records, their postings in
// the position index (popular positions' aggregates are recomputed from
// the games that remain, tail blocks re-encoded without them), their
// de-duplication hashes and their metadata documents. Afterwards the store
// answers as if the games had never been imported. Ids are not reused.
// It returns ErrNoGame, deleting nothing, when a gid is not a stored game.
//
// Deletion rewrites the values it touches in place rather than leaving
// tombstones for readers to consult, so lookups cost what they did. It is
// crash-safe: the manifest names the games being deleted until the work
// is done, and the next writable Open finishes it (each step can be
// redone).
func (s *Store) Delete(gids []uint32) error { return s.DeleteReporting(gids, nil) }

// DeleteReporting is Delete telling phase, when not nil, which index it is
// rewriting as it starts on it ("positions", "attributes",
// "records"): a deletion of many games takes seconds per index, and a
// command shows where it is.
func (s *Store) DeleteReporting(gids []uint32, phase func(string)) error {
	if s.opts.ReadOnly {
		return errors.New("index: store is open read-only")
	}
	if err := s.loadAttrs(); err != nil {
		return err
	}
	gids = slices.Clone(gids)
	slices.Sort(gids)
	gids = slices.Compact(gids)
	for _, gid := range gids {
		if gid == 0 || gid >= s.man.NextGid || int(gid) >= len(s.attrs) || s.attrs[gid].Deleted {
			return fmt.Errorf("%w: %d", ErrNoGame, gid)
		}
	}
	if len(gids) == 0 {
		return nil
	}
	if err := s.updateManifest(func(m *manifest) { m.Deleting = gids }); err != nil {
		return err
	}
	return s.finishDelete(phase, false)
}

// finishDelete carries out the deletion the manifest names, telling
// phase (when not nil) each index it starts on; redo says that an
// earlier attempt may have done part of it.
func (s *Store) finishDelete(phase func(string), redo bool) error {
	if phase == nil {
		phase = func(string) {}
	}
	if err := s.loadAttrs(); err != nil {
		return err
	}
	// A merge under way has copied the games into its run: it ends
	// first, so that the deletion rewrites the run it leaves live.
	if err := s.finishMerge(); err != nil {
		return err
	}
	gids := s.man.Deleting
	del := make([]uint64, (s.man.NextGid+63)/64) // bit set of the gids
	for _, gid := range gids {
		if gid < s.man.NextGid {
			del[gid/64] |= 1 << (gid % 64)
		}
	}
	isDel := func(gid uint32) bool { return gid < s.man.NextGid && del[gid/64]&(1<<(gid%64)) != 0 }

	// 1. The position index, while the records say which positions the
	// games reached (a record already gone had its positions done).
	phase("positions")
	if err := s.deletePositions(gids, isDel, redo); err != nil {
		return err
	}
	// 2. The attributes (which carry the de-duplication hash): marked.
	phase("attributes")
	wb := s.newBatch()
	defer wb.Cancel()
	chunks := map[uint32]bool{}
	for _, gid := range gids {
		if gid < uint32(len(s.attrs)) && gid < s.man.NextGid {
			s.attrs[gid].Deleted = true
			chunks[gid/attrsPerChunk] = true
		}
	}
	for c := range chunks {
		for k, b := range s.attrChunks(c*attrsPerChunk, c*attrsPerChunk+1) {
			if err := wb.Set(attrsKey(k), b); err != nil {
				return err
			}
		}
	}
	if err := wb.Flush(); err != nil {
		return fmt.Errorf("index: delete attributes: %w", err)
	}
	// 3. The metadata: nothing to remove. The games stay in their
	// values' postings, which their attributes now leave out (values.go).
	// 4. The records, last: until then a redo can replay them.
	phase("records")
	rb := s.newBatch()
	defer rb.Cancel()
	for _, gid := range gids {
		if err := rb.Delete(s.gameKey(gid)); err != nil {
			return err
		}
	}
	if err := rb.Flush(); err != nil {
		return fmt.Errorf("index: delete records: %w", err)
	}
	deleted := uint32(0)
	for gid := uint32(1); gid < s.man.NextGid && int(gid) < len(s.attrs); gid++ {
		if s.attrs[gid].Deleted {
			deleted++
		}
	}
	return s.updateManifest(func(m *manifest) { m.Deleting, m.Deleted = nil, deleted })
}

// deletePositions takes the games out of the stats values (and their
// heads) and tail blocks of every live run. On a redo, a stats value
// without the games may have lost its head's rewrite (a write batch is
// not one transaction), so the heads of every value the games reached
// are written again.
func (s *Store) deletePositions(gids []uint32, isDel func(uint32) bool, redo bool) error {
	// The positions the games reached, as game-tagged keys, sorted, and
	// their tail buckets.
	var reached []uint64
	var buckets [4][tailBuckets]bool
	for _, gid := range gids {
		r, err := s.Game(gid)
		if errors.Is(err, ErrNoGame) {
			continue
		}
		if err != nil {
			return err
		}
		p, err := games.New(r.Game, r.StartFEN)
		if err != nil {
			return err
		}
		for ply := 0; ; ply++ {
			k := p.Key()
			reached = append(reached, gameTagged(r.Game, k))
			buckets[r.Game%4][tailBucket(k)] = true
			if ply == len(r.Moves) {
				break
			}
			p.Make(r.Moves[ply])
		}
	}
	slices.Sort(reached)
	reached = slices.Compact(reached)

	date := func(gid uint32) uint32 { return s.attrs[gid].Date }
	if err := s.openRunsWritable(); err != nil {
		return err
	}
	wb := s.newBatch()
	defer wb.Cancel()
	err := s.viewRuns(func(txn *view) error {
		// Stats values: every popular position's key is read (they are few,
		// and keys only); those the games reached are rewritten.
		err := s.eachLiveStats(txn, func(item *badger.Item, game uint8, key uint64) error {
			if _, found := slices.BinarySearch(reached, gameTagged(engine.Game(game), key)); !found {
				return nil
			}
			v, err := item.ValueCopy(nil)
			if err != nil {
				return err
			}
			o, err := decodeStats(v)
			if err != nil {
				return err
			}
			var nv statsValue
			changed := false
			for _, g := range o.Games {
				if isDel(g.Gid) {
					changed = true
					continue
				}
				// The aggregates are rebuilt from the games that remain,
				// as the writer built them: exact, last date included.
				nv.add(g.Gid, o.Moves[g.Slot].Code, s.attrs[g.Gid])
			}
			if !changed && !redo {
				return nil
			}
			hk := headKey(game, runOf(item.Key()), key)
			if h := headOf(&nv, date); h != nil {
				err = wb.Set(hk, encodeHead(nil, h))
			} else {
				err = wb.Delete(hk)
			}
			switch {
			case err != nil:
				return err
			case !changed:
				return nil
			case len(nv.Games) == 0:
				return wb.Delete(item.KeyCopy(nil))
			}
			return wb.Set(item.KeyCopy(nil), encodeStats(nil, &nv))
		})
		if err != nil {
			return err
		}
		if redo {
			// A stats value the earlier attempt deleted left its head.
			if err := deleteOrphanHeads(s, txn, wb); err != nil {
				return err
			}
		}
		// Tail blocks of the buckets reached, in every live run (a block
		// of a run of fewer bucket bits spans several buckets: once).
		var es []tailEntry
		for g := range buckets {
			for _, run := range s.man.LiveRuns {
				shift := tailBucketBits - s.man.tailBits(run)
				last := -1
				for b, hit := range buckets[g] {
					if !hit || b>>shift == last {
						continue
					}
					last = b >> shift
					key := tailKey(byte(g), run, uint16(last))
					es = es[:0]
					width, changed := 64, false // unchanged when the run has no such block
					err := readValue(txn, key, func(v []byte) error {
						return decodeTail(v, func(gid, print uint32, w int) {
							width = w
							if isDel(gid) {
								changed = true
								return
							}
							es = append(es, tailEntry{gid, uint64(print) << (64 - w)})
						})
					})
					if err == nil && changed {
						if len(es) == 0 {
							err = wb.Delete(key)
						} else {
							err = wb.Set(key, encodeTail(nil, es, width))
						}
					}
					if err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := wb.Flush(); err != nil {
		return fmt.Errorf("index: delete positions: %w", err)
	}
	return nil
}

// deleteOrphanHeads deletes the heads of live runs whose stats value is
// gone. Heads are few (one per stats value of headMinGames games or more).
func deleteOrphanHeads(s *Store, txn *view, wb *batch) error {
	return txn.eachRunKey(prefixHead, func(it *badger.Iterator) error {
		k := it.Item().Key()
		if len(k) != statsKeyLen || !s.man.live(runOf(k)) {
			return nil
		}
		sk := withKind(k, prefixStats) // the same layout
		if _, err := txn.Get(sk); errors.Is(err, badger.ErrKeyNotFound) {
			return wb.Delete(it.Item().KeyCopy(nil))
		} else if err != nil {
			return err
		}
		return nil
	})
}

// gameTagged mixes a game into a position key, so one sorted list holds
// the keys of both games (a stray equality costs a needless rewrite
// check, never a wrong answer).
func gameTagged(g engine.Game, key uint64) uint64 { return key ^ uint64(g%4)*0x9e3779b97f4a7c15 }

// EachGame calls fn for every stored game, deleted ones left out, in id
// order.
func (s *Store) EachGame(fn func(gid uint32, a Attrs)) error {
	if err := s.loadAttrs(); err != nil {
		return err
	}
	for gid := uint32(1); gid < s.man.NextGid && int(gid) < len(s.attrs); gid++ {
		if !s.attrs[gid].Deleted {
			fn(gid, s.attrs[gid])
		}
	}
	return nil
}

// Has reports whether gid is a stored game (not deleted).
func (s *Store) Has(gid uint32) bool {
	return gid > 0 && gid < s.man.NextGid && s.loadAttrs() == nil && int(gid) < len(s.attrs) && !s.attrs[gid].Deleted
}

// GamesFrom returns the ids of the stored games read from any of files
// (their source as the import stored it), members of an archive file
// ("archive.tar.gz!member.xqf") included, in index order.
func (s *Store) GamesFrom(files ...string) ([]uint32, error) {
	if len(files) == 0 {
		return nil, nil
	}
	var qs []query.Query
	for _, f := range files {
		t := query.NewTermQuery(f)
		t.SetField("source")
		m := query.NewPrefixQuery(f + "!")
		m.SetField("source")
		qs = append(qs, t, m)
	}
	v := &valueTerms{s: s, p: s.newPostingsReader()}
	defer v.p.close()
	return v.games(query.NewDisjunctionQuery(qs), nil)
}
