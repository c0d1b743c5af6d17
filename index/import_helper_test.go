package index

import "testing"

// importGames adds gs to s through one writer, as one import does, and
// returns the closed writer and how many of gs it found already stored.
func importGames(t testing.TB, s *Store, gs []*Game) (w *Writer, dups int) {
	t.Helper()
	w, err := s.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		res, err := w.Add(g)
		if err != nil {
			t.Fatal(err)
		}
		if res.Duplicate {
			dups++
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w, dups
}

// setSmallMergeGames sets smallMergeGames to n for the test: merges of
// more games are then left by small writes, and written in parts.
func setSmallMergeGames(t testing.TB, n int) {
	old := smallMergeGames
	smallMergeGames = n
	t.Cleanup(func() { smallMergeGames = old })
}
