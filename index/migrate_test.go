package index

import (
	"encoding/binary"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// downgrade rewrites a store's position keys in schema version 5's
// layout (run last) and marks it version 5, as an older xqdb left it.
func downgrade(t *testing.T, dir string) {
	t.Helper()
	db, err := badger.Open(badgerOptions(filepath.Join(dir, "badger"), false))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	wb := db.NewWriteBatch()
	err = db.View(func(txn *badger.Txn) error {
		for _, kind := range []byte{prefixStats, prefixTail} {
			it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kind, '|'}})
			for it.Rewind(); it.Valid(); it.Next() {
				k := it.Item().KeyCopy(nil)
				run := binary.BigEndian.Uint32(k[3:7])
				old := []byte{prefixStatsV5, '|', k[2]}
				if kind == prefixTail {
					old[0] = prefixTailV5
				}
				old = binary.BigEndian.AppendUint32(append(old, k[7:]...), run)
				v, _ := it.Item().ValueCopy(nil)
				wb.Set(old, v)
				wb.Delete(k)
			}
			it.Close()
		}
		return nil
	})
	if err == nil {
		err = wb.Flush()
	}
	if err == nil {
		err = db.Update(func(txn *badger.Txn) error { return txn.Set(versionKey, binary.AppendUvarint(nil, 5)) })
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestMigrateVersion5: a version 5 store is refused with a message naming
// xqdb migrate; Migrate rewrites it, and the store then answers every
// position as before; a second Migrate has nothing to do.
func TestMigrateVersion5(t *testing.T) {
	dir := t.TempDir()
	gs := randomGames(t, 40)
	s, err := Open(dir, Options{RunGames: 9, PromoteAt: 3})
	if err != nil {
		t.Fatal(err)
	}
	w, _ := s.NewWriter()
	for _, g := range gs {
		if _, err := w.Add(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	type answer struct{ games, moves int }
	ask := func(s *Store) []answer {
		var out []answer
		for _, g := range gs {
			p, _ := games.New(engine.Xiangqi, "")
			for i := 0; i <= len(g.Moves); i++ {
				st, err := s.Position(engine.Xiangqi, p, true)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, answer{len(st.Games), len(st.Moves)})
				if i < len(g.Moves) {
					p.Make(g.Moves[i])
				}
			}
		}
		return out
	}
	want := ask(s)
	s.Close()
	downgrade(t, dir)

	_, err = Open(dir, Options{})
	if !errors.Is(err, ErrSchemaMismatch) || !strings.Contains(err.Error(), "xqdb migrate") {
		t.Fatalf("open of a version 5 store: %v, want ErrSchemaMismatch naming xqdb migrate", err)
	}
	if from, err := Migrate(dir); err != nil || from != 5 {
		t.Fatalf("Migrate: from %d, %v", from, err)
	}
	if from, err := Migrate(dir); err != nil || from != SchemaVersion {
		t.Fatalf("second Migrate: from %d, %v", from, err)
	}
	s, err = Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got := ask(s)
	if len(got) != len(want) {
		t.Fatalf("%d answers, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("position %d: after the migration %+v, before %+v", i, got[i], want[i])
		}
	}
}
