// Package enginetest holds helpers that tests across xqdb share: finding the
// project's shared real-data folder (../shared/data next to the repository)
// and reading its tables.
package enginetest

import (
	"os"
	"path/filepath"
	"testing"
)

// SharedData returns the path of rel inside the shared data folder
// (../shared/data beside the repository root, or $XQDB_SHARED_DATA).
//
// When the file is absent the test is skipped with a message saying so,
// unless the CI environment variable is set: under CI=true a missing shared
// file is a failure, so CI can never go green by skipping.
func SharedData(tb testing.TB, rel string) string {
	tb.Helper()
	p := filepath.Join(sharedRoot(), filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("shared data %s is missing (CI=%s): %v", p, os.Getenv("CI"), err)
		}
		tb.Skipf("shared data %s is absent; skipping (set CI=true to make this a failure)", p)
	}
	return p
}

// RepoRoot returns the repository root: the nearest folder upwards from the
// working directory that holds go.mod.
func RepoRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return "."
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

func sharedRoot() string {
	if p := os.Getenv("XQDB_SHARED_DATA"); p != "" {
		return p
	}
	return filepath.Join(RepoRoot(), "..", "shared", "data")
}

// Long reports whether the long test suite was asked for (XQDB_LONG=1):
// deep perft rows and full sweeps over big archives that would make the
// normal run too slow for CI.
func Long() bool { return os.Getenv("XQDB_LONG") != "" }

// PerftBudget is the largest node count a single perft row may have in the
// normal test run; larger rows run only under Long.
func PerftBudget() uint64 {
	if Long() {
		return 1 << 62
	}
	return 10_000_000
}
