package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/index"
)

// TestMigrateCurrentDatabase: migrate on a database of this version does
// nothing and says so; on a folder without a database it fails. (The
// migrations of version 5, 6 and 7 stores are index.TestMigrateVersion5,
// TestMigrateVersion6 and TestMigrateVersion7.)
func TestMigrateCurrentDatabase(t *testing.T) {
	db := t.TempDir()
	if code, _, stderr := runCLI(t, "import", "--db", db, fixture("pgnmentor-capablanca-fischer.pgn.gz")); code != exitOK {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := runCLI(t, "migrate", "--db", db, "--json")
	if code != exitOK || !strings.Contains(stdout, fmt.Sprintf(`"from_version":%d`, index.SchemaVersion)) {
		t.Fatalf("migrate of a current database: exit %d: %s %s", code, stdout, stderr)
	}
	if code, _, _ := runCLI(t, "migrate", "--db", t.TempDir()); code != exitFailure {
		t.Fatalf("migrate of an empty folder: exit %d, want %d", code, exitFailure)
	}
}
