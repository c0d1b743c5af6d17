// Package indextest holds what the tests of index's users share: filling a
// store as an import does.
package indextest

import (
	"testing"

	"github.com/xqdb/xqdb/index"
)

// Import adds gs to s through one writer, as one `xqdb import` does.
func Import(t testing.TB, s *index.Store, gs []*index.Game) {
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
}
