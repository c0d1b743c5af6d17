package index

import (
	"errors"
	"os"
	"path/filepath"
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
	if err := s.deletePositions([]uint32{1, 3}, func(g uint32) bool { return g == 1 || g == 3 }, false); err != nil {
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

// A compaction stopped between the steps of its folder swap is finished or
// undone by the next Open.
func TestRecoverRewrite(t *testing.T) {
	tests := []struct {
		name    string
		present []string // folders there, each holding a file named after it
		want    string   // whose file the Badger folder then holds
	}{
		{"copy being written", []string{badgerDir, badgerCompact}, badgerDir},
		{"old folder moved aside", []string{badgerOld, badgerCompact}, badgerCompact},
		{"copy renamed, old folder left", []string{badgerDir, badgerOld}, badgerDir},
		{"nothing to do", []string{badgerDir}, badgerDir},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, d := range tc.present {
				if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, d, d), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := recoverRewrite(dir); err != nil {
				t.Fatal(err)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 || entries[0].Name() != badgerDir {
				t.Fatalf("folders left: %v", entries)
			}
			if _, err := os.Stat(filepath.Join(dir, badgerDir, tc.want)); err != nil {
				t.Fatalf("the Badger folder is not the %s one: %v", tc.want, err)
			}
		})
	}
}

// TestGamesFromWithoutMetadata: a read-only store whose metadata index is
// gone says so when asked for a file's games (it used to, through Bleve's
// searcher; the values' postings must not find a nil index instead).
func TestGamesFromWithoutMetadata(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	importGames(t, s, randomGames(t, 3))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "meta.bleve")); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.GamesFrom("a.pgn"); !errors.Is(err, ErrNoMetadata) {
		t.Fatalf("GamesFrom without a metadata index: %v, want ErrNoMetadata", err)
	}
}
