package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"
)

// TestDemo runs the README's first command: it builds ./xqdb-demo from the
// bundled games and queries it; run again, it adds nothing.
func TestDemo(t *testing.T) {
	data := filepath.Dir(fixture(demoFiles[0])) // before leaving the repository
	t.Chdir(t.TempDir())
	code, out, stderr := runCLI(t, "demo", "--data", data)
	if code != exitOK || !strings.Contains(out, "4424 added") || !strings.Contains(out, "Ruy Lopez") {
		t.Fatalf("demo: exit %d\n%s\n%s", code, out, stderr)
	}
	if code, out, _ := runCLI(t, "demo", "--data", data); code != exitOK || !strings.Contains(out, " 0 added") {
		t.Fatalf("demo again: exit %d\n%s", code, out)
	}
}

// TestDemoRebuildsStaleFolder: a ./xqdb-demo that another version of xqdb
// wrote (another schema) is built again, not refused.
func TestDemoRebuildsStaleFolder(t *testing.T) {
	data := filepath.Dir(fixture(demoFiles[0]))
	t.Chdir(t.TempDir())
	db, err := badger.Open(badger.DefaultOptions(filepath.Join("xqdb-demo", "badger")).WithLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	// The schema version key of index/keys.go, set to a version that
	// never existed.
	if err := db.Update(func(txn *badger.Txn) error { return txn.Set([]byte("v|"), []byte{99}) }); err != nil {
		t.Fatal(err)
	}
	db.Close()
	code, out, stderr := runCLI(t, "demo", "--data", data)
	if code != exitOK || !strings.Contains(out, "building it again") || !strings.Contains(out, "4424 added") {
		t.Fatalf("demo over a stale folder: exit %d\n%s\n%s", code, out, stderr)
	}
}
