package enginetest

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRepoRootHoldsGoMod(t *testing.T) {
	if _, err := os.Stat(filepath.Join(RepoRoot(), "go.mod")); err != nil {
		t.Fatalf("RepoRoot() = %s has no go.mod: %v", RepoRoot(), err)
	}
}

func TestSharedDataFindsPerftTable(t *testing.T) {
	p := SharedData(t, "xiangqi/perft.tsv")
	if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
		t.Fatalf("perft table %s unreadable: %v", p, err)
	}
}
