package main

import (
	"strings"
	"testing"
)

// TestMigrateCurrentDatabase: migrate on a database of this version does
// nothing and says so; on a folder without a database it fails. (The
// rewrites of version 5 and 6 stores are index.TestMigrateVersion5 and
// TestMigrateVersion6.)
func TestMigrateCurrentDatabase(t *testing.T) {
	db := t.TempDir()
	if code, _, stderr := runCLI(t, "import", "--db", db, fixture("pgnmentor-capablanca-fischer.pgn.gz")); code != exitOK {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := runCLI(t, "migrate", "--db", db, "--json")
	if code != exitOK || !strings.Contains(stdout, `"from_version":7`) {
		t.Fatalf("migrate of a current database: exit %d: %s %s", code, stdout, stderr)
	}
	if code, _, _ := runCLI(t, "migrate", "--db", t.TempDir()); code != exitFailure {
		t.Fatalf("migrate of an empty folder: exit %d, want %d", code, exitFailure)
	}
}
