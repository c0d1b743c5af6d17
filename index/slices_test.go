package index

import (
	"cmp"
	"encoding/binary"
	"slices"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// sameAnswers compares the tree, the game list and the newest games
// (when both stores' heads can tell) of every position of every fourth
// game of gs in s and in ref; it returns how many newest-games answers
// it compared.
func sameAnswers(t *testing.T, s, ref *Store, gs []*Game) (newestCompared int) {
	t.Helper()
	type gameAt struct {
		gid  uint32
		code uint16
	}
	// Games in gid order, without the ply (which a stats posting lacks).
	hitsOf := func(hs []GameHit) []gameAt {
		var out []gameAt
		for _, h := range hs {
			out = append(out, gameAt{h.Gid, h.Code})
		}
		slices.SortFunc(out, func(a, b gameAt) int { return cmp.Or(cmp.Compare(a.gid, b.gid), cmp.Compare(a.code, b.code)) })
		return out
	}
	// The first two games in a game list's default order.
	firstOf := func(s *Store, hs []GameHit) []gameAt {
		slices.SortFunc(hs, func(a, b GameHit) int {
			return cmp.Compare(newestKey(s.Attrs(a.Gid).Date, a.Gid), newestKey(s.Attrs(b.Gid).Date, b.Gid))
		})
		return hitsOf(hs[:min(len(hs), 2)])
	}
	answer := func(s *Store, p engine.Position, withGames bool) ([]MoveStats, []gameAt) {
		st, err := s.Position(engine.Xiangqi, p, withGames)
		if err != nil {
			t.Fatal(err)
		}
		moves := slices.Clone(st.Moves)
		slices.SortFunc(moves, func(a, b MoveStats) int { return cmp.Compare(a.Code, b.Code) })
		return moves, hitsOf(st.Games)
	}
	for i, g := range gs {
		if i%4 != 0 {
			continue
		}
		p, _ := games.New(engine.Xiangqi, "")
		for ply := 0; ; ply++ {
			for _, withGames := range []bool{true, false} {
				wantMoves, wantGames := answer(ref, p, withGames)
				gotMoves, gotGames := answer(s, p, withGames)
				if !slices.Equal(gotMoves, wantMoves) || !slices.Equal(gotGames, wantGames) {
					t.Fatalf("%s (game list %v): %+v %v, want %+v %v", p.FEN(), withGames, gotMoves, gotGames, wantMoves, wantGames)
				}
			}
			// A game list's first page, from the heads.
			got, gotN, gotOK, err := s.NewestGames(engine.Xiangqi, p, 2)
			if err != nil {
				t.Fatal(err)
			}
			want, wantN, wantOK, err := ref.NewestGames(engine.Xiangqi, p, 2)
			if err != nil {
				t.Fatal(err)
			}
			if gotOK && wantOK {
				newestCompared++
			}
			if gotOK && wantOK && (gotN != wantN || !slices.Equal(firstOf(s, got), firstOf(ref, want))) {
				t.Fatalf("%s: newest games %v of %d, want %v of %d", p.FEN(), got, gotN, want, wantN)
			}
			if ply == len(g.Moves) {
				break
			}
			p.Make(g.Moves[ply])
		}
	}
	return newestCompared
}

// importAll adds games to s in one import.
func importAll(t *testing.T, s *Store, gs []*Game) *Writer {
	t.Helper()
	w, err := s.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		if _, err := w.Add(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w
}

// runBuckets returns the buckets (mergeBucket numbering) in which run
// holds stats values or tail blocks.
func runBuckets(t *testing.T, s *Store, run uint32) map[uint32]bool {
	t.Helper()
	out := map[uint32]bool{}
	err := s.db.View(func(txn *badger.Txn) error {
		for game := byte(0); game < 4; game++ {
			for _, kind := range []byte{prefixStats, prefixTail} {
				p := runPrefix(kind, game, run)
				it := txn.NewIterator(badger.IteratorOptions{Prefix: p, PrefetchValues: false})
				for it.Rewind(); it.Valid(); it.Next() {
					rest := it.Item().Key()[len(p):]
					b := binary.BigEndian.Uint16(rest)
					if kind == prefixStats {
						b = tailBucket(binary.BigEndian.Uint64(rest))
					}
					out[mergeBucket(game, b)] = true
				}
				it.Close()
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMergeInSlicesAnswersAsOneRun: a merge done a bucket or two at a
// time, the store closed and opened again half-way (as after a crash
// between two slices), answers as one run at every step, and no bucket
// ever holds values both in the target and in a source.
func TestMergeInSlicesAnswersAsOneRun(t *testing.T) {
	defer func(n int64) { sliceMaxBytes = n }(sliceMaxBytes)
	sliceMaxBytes = 300
	withHeadSizes(t, 3, 2) // heads move with their stats values
	gs := randomGames(t, 60)
	ref, err := Open(t.TempDir(), Options{RunGames: 1000, PromoteAt: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	importAll(t, ref, gs)

	dir := t.TempDir()
	s, err := Open(dir, Options{RunGames: 20, PromoteAt: 3})
	if err != nil {
		t.Fatal(err)
	}
	importAll(t, s, gs) // three runs: fewer than a tier merges
	sources := slices.Clone(s.man.LiveRuns)
	if len(sources) != 3 {
		t.Fatalf("%d runs, want 3", len(sources))
	}
	if err := s.startMerge(sources); err != nil {
		t.Fatal(err)
	}
	target := s.man.Merging.Target
	if want := append(slices.Clone(sources), target); !slices.Equal(s.man.LiveRuns, want) {
		t.Fatalf("live runs %v, want %v", s.man.LiveRuns, want)
	}
	slicesDone, reopened := 0, false
	for s.man.Merging != nil && s.man.Merging.Done < mergeEnd {
		before := s.man.Merging.Done
		if _, err := s.mergeSlice(); err != nil {
			t.Fatal(err)
		}
		if s.man.Merging.Done <= before {
			t.Fatalf("a slice made no progress from bucket %d", before)
		}
		slicesDone++
		moved := runBuckets(t, s, target)
		for _, r := range sources {
			for b := range runBuckets(t, s, r) {
				if moved[b] || b < s.man.Merging.Done {
					t.Fatalf("after %d slices: bucket %d (merged below %d) in source run %d, in the target %v", slicesDone, b, s.man.Merging.Done, r, moved[b])
				}
			}
		}
		if slicesDone%5 == 1 {
			sameAnswers(t, s, ref, gs)
			checkHeads(t, s)
		}
		if !reopened && slicesDone == 10 {
			reopened = true
			done := s.man.Merging.Done
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if s, err = Open(dir, Options{RunGames: 20, PromoteAt: 3}); err != nil {
				t.Fatal(err)
			}
			if s.man.Merging == nil || s.man.Merging.Done != done {
				t.Fatalf("reopened: merge %+v, want it under way at bucket %d", s.man.Merging, done)
			}
			sameAnswers(t, s, ref, gs)
		}
	}
	defer s.Close()
	if slicesDone < 20 || !reopened {
		t.Fatalf("%d slices: the test does not merge in slices", slicesDone)
	}
	if _, err := s.mergeSlices(-1); err != nil {
		t.Fatal(err)
	}
	if s.man.Merging != nil || !slices.Equal(s.man.LiveRuns, []uint32{target}) || s.man.RunGames[target] != uint32(s.Games()) {
		t.Fatalf("after the merge: live %v, merging %+v, games %v", s.man.LiveRuns, s.man.Merging, s.man.RunGames)
	}
	for _, r := range sources {
		if n := len(runBuckets(t, s, r)); n > 0 {
			t.Errorf("merged run %d keeps values in %d buckets", r, n)
		}
	}
	if sameAnswers(t, s, ref, gs) == 0 || checkHeads(t, s) == 0 {
		t.Fatal("no heads: the test does not move them")
	}
}

// TestImportMergeWorkBounded: after a large import, each small import
// merges at most mergeWork times the bytes it wrote (and a slice past
// it), so a tier merge is spread over the imports that follow; the
// answers stay those of one import throughout.
func TestImportMergeWorkBounded(t *testing.T) {
	defer func(n, f int64) { sliceMaxBytes, mergeFloor = n, f }(sliceMaxBytes, mergeFloor)
	sliceMaxBytes, mergeFloor = 200, 1
	gs := randomGames(t, 160)
	s, err := Open(t.TempDir(), Options{RunGames: 8, PromoteAt: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	importAll(t, s, gs[:80]) // the first import merges all it needs
	if s.man.Merging != nil {
		t.Fatalf("the large import left a merge under way")
	}
	spread, finished := 0, 0
	for from := 80; from < len(gs); from += 5 {
		read := s.mergeRead
		wasMerging := s.man.Merging != nil
		w := importAll(t, s, gs[from:from+5])
		got := s.mergeRead - read
		if limit := mergeWork*w.indexBytes + 2*sliceMaxBytes + 2048; got > limit {
			t.Fatalf("an import of 5 games that wrote %d bytes merged %d (limit %d)", w.indexBytes, got, limit)
		}
		if s.man.Merging != nil && wasMerging {
			spread++
		}
		if s.man.Merging == nil && wasMerging {
			finished++
		}
		if from%20 == 15 || s.man.Merging != nil && from%20 == 5 {
			ref, err := Open(t.TempDir(), Options{RunGames: 1000, PromoteAt: 3})
			if err != nil {
				t.Fatal(err)
			}
			importAll(t, ref, gs[:from+5])
			sameAnswers(t, s, ref, gs[:from+5])
			ref.Close()
		}
	}
	if spread == 0 || finished == 0 {
		t.Fatalf("merges went on over %d imports and finished in %d: the test does not spread merges", spread, finished)
	}
}
