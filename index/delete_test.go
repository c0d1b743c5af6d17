package index

import (
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// A deletion stopped part way (the manifest names its games) is finished
// by the next writable Open, and its steps can be done twice.
func TestInterruptedDeleteIsFinished(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{PromoteAt: 2})
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []*Game{
		newGame(t, engine.FirstWins, []Tag{{"Red", "A"}}, "h2e2", "h9g7"),
		newGame(t, engine.Draw, []Tag{{"Red", "B"}}, "h2e2", "b9c7"),
		newGame(t, engine.SecondWins, []Tag{{"Red", "C"}}, "h2e2", "h9g7", "h0g2"),
	} {
		if _, err := w.Add(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete([]uint32{9}); err == nil {
		t.Fatal("deleting a game that is not there succeeded")
	}
	// The positions are done, then the process stops.
	if err := s.updateManifest(func(m *manifest) { m.Deleting = []uint32{1, 3} }); err != nil {
		t.Fatal(err)
	}
	if err := s.deletePositions([]uint32{1, 3}, func(g uint32) bool { return g == 1 || g == 3 }); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = Open(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Games() != 1 || s.Has(1) || !s.Has(2) || s.Has(3) {
		t.Fatalf("%d games after the deletion was finished (has 1, 2, 3: %v %v %v)", s.Games(), s.Has(1), s.Has(2), s.Has(3))
	}
	st, err := s.Position(engine.Xiangqi, position(t, "h2e2"), true)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Games) != 1 || st.Games[0].Gid != 2 || totalGames(st.Moves) != 1 || st.Moves[0].Draws != 1 {
		t.Fatalf("after h2e2: %+v", st)
	}
	if ids, err := s.Search(nil, "red:a OR red:b OR red:c"); err != nil || len(ids) != 1 || ids[0] != 2 {
		t.Fatalf("metadata search: %v %v", ids, err)
	}
	if err := s.Delete([]uint32{1}); err == nil {
		t.Fatal("deleting a deleted game succeeded")
	}
}
