package index

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// openingGames are distinct short games: two moves each, from a list of
// first and second moves.
func openingGames(t *testing.T) []*Game {
	t.Helper()
	var gs []*Game
	for _, m1 := range []string{"h2e2", "b2e2", "c3c4", "g3g4", "h0g2", "b0c2"} {
		for _, m2 := range []string{"h9g7", "b9c7", "c6c5", "g6g5", "h7e7"} {
			gs = append(gs, newGame(t, engine.Draw, []Tag{{"Red", m1}, {"Black", m2}}, m1, m2))
		}
	}
	return gs
}

// TestWriterStopsBeforeTheDiskIsFull: a run that the disk cannot hold is
// not written; the writer says ErrDiskFull, the runs before stay
// committed and readable, and a later writer with room adds the rest
// (issue 13 point 8; the import test fills a real tmpfs when run as root).
func TestWriterStopsBeforeTheDiskIsFull(t *testing.T) {
	dir := t.TempDir()
	free := int64(1 << 40)
	defer func(f func(string) (int64, error)) { freeSpace = f }(freeSpace)
	freeSpace = func(string) (int64, error) { return free, nil }

	gs := openingGames(t)
	s, err := Open(dir, Options{RunGames: 10})
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	var addErr error
	for i, g := range gs {
		if i == 15 {
			free = spaceMargin // the disk fills up (elsewhere) mid-import
		}
		if _, addErr = w.Add(g); addErr != nil {
			break
		}
	}
	closeErr := w.Close()
	if !errors.Is(addErr, ErrDiskFull) || !errors.Is(closeErr, ErrDiskFull) {
		t.Fatalf("add: %v; close: %v; want ErrDiskFull", addErr, closeErr)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.Position(engine.Xiangqi, position(t), false)
	if err != nil || r.Games() != 10 || totalGames(st.Moves) != 10 {
		t.Fatalf("after the stop: %d games, %d in the tree (%v); want the first run's 10", r.Games(), totalGames(st.Moves), err)
	}
	r.Close()

	free = 1 << 40
	s, err = Open(dir, Options{RunGames: 10})
	if err != nil {
		t.Fatal(err)
	}
	_, dups := importGames(t, s, gs)
	st, err = s.Position(engine.Xiangqi, position(t), false)
	if err != nil || s.Games() != len(gs) || int(totalGames(st.Moves)) != len(gs) || dups != 10 {
		t.Fatalf("after the rerun: %d games, %d in the tree, %d found stored (%v); want %d, %d, 10", s.Games(), totalGames(st.Moves), dups, err, len(gs), len(gs))
	}
	s.Close()
}

// TestOpenRefusesForeignFolder: a writable open of a folder holding other
// files writes nothing there (issue 13 point 12).
func TestOpenRefusesForeignFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, Options{}); !errors.Is(err, ErrNotDatabase) {
		t.Fatalf("open of a folder of other files: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "badger")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("badger/ written among the files: %v", err)
	}
	for _, dir := range []string{t.TempDir(), filepath.Join(t.TempDir(), "new")} {
		s, err := Open(dir, Options{})
		if err != nil {
			t.Fatalf("open of an empty or new folder: %v", err)
		}
		s.Close()
		s, err = Open(dir, Options{}) // now a store
		if err != nil {
			t.Fatalf("reopen: %v", err)
		}
		s.Close()
	}
	if _, err := Open(filepath.Join(t.TempDir(), "none"), Options{Existing: true}); !errors.Is(err, ErrNoStore) {
		t.Fatalf("open of no store with Existing: %v", err)
	}
}

// TestReadOnlyOpenAfterKillAsLogCreated: a writer killed as it created
// a write-ahead log file leaves it empty; a reader (xqdb stats after
// kill -9, seen in TestImportSurvivesKill) opens the store all the same,
// with every game committed before.
func TestReadOnlyOpenAfterKillAsLogCreated(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Add(newGame(t, engine.Result(1), nil, "h2e2", "h9g7")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "badger", "00099.mem"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open after a kill as the log was created: %v", err)
	}
	defer s.Close()
	if s.Games() != 1 {
		t.Errorf("%d games, want 1", s.Games())
	}
}
