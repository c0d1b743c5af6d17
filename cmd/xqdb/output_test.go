package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// listDir names what a folder holds, recursively, with each file's content:
// what "touch nothing" compares.
func listDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&os.ModeSymlink != 0:
			to, _ := os.Readlink(p)
			got[rel] = "-> " + to
		case d.IsDir():
			got[rel] = "/"
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			got[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// An output that is also an input would be emptied before it is read:
// every command refuses it, names it, exits 2 and touches nothing.
// Inputs are compared as files, so another spelling of the path, a
// symlink or a folder holding the output are seen through (issue 13.1).
func TestOutputThatIsAnInputIsRefused(t *testing.T) {
	game, err := os.ReadFile(fixture("pgnmentor-capablanca-fischer.pgn.gz"))
	if err != nil {
		t.Fatal(err)
	}
	db := ccpdDB(t)
	tests := []struct {
		name string
		args []string // in dir: a.pgn.gz (a game archive), link.pgn.gz -> a.pgn.gz, sub/b.pgn.gz
		want string   // the file the refusal names
	}{
		{"convert -o the input", []string{"convert", "-o", "a.pgn.gz", "a.pgn.gz"}, "a.pgn.gz"},
		{"convert -o another spelling", []string{"convert", "-o", "./sub/../a.pgn.gz", "a.pgn.gz"}, "a.pgn.gz"},
		{"convert -o a symlink to the input", []string{"convert", "-o", "link.pgn.gz", "a.pgn.gz"}, "link.pgn.gz"},
		{"convert -o the input given as a symlink", []string{"convert", "-o", "a.pgn.gz", "link.pgn.gz"}, "a.pgn.gz"},
		{"clean --out", []string{"clean", "--out", "a.pgn.gz", "a.pgn.gz"}, "a.pgn.gz"},
		{"clean --rejects", []string{"clean", "--out", "good.pgn", "--rejects", "a.pgn.gz", "a.pgn.gz"}, "a.pgn.gz"},
		{"clean --report", []string{"clean", "--report", "a.pgn.gz", "a.pgn.gz"}, "a.pgn.gz"},
		{"clean --out in an input folder", []string{"clean", "--out", "sub/b.pgn.gz", "sub"}, "sub/b.pgn.gz"},
		{"clean --out new in an input folder", []string{"clean", "--out", "sub/new.pgn", "."}, "sub/new.pgn"},
		{"clean --out and --rejects the same file", []string{"clean", "--out", "x.pgn", "--rejects", "./x.pgn", "a.pgn.gz"}, "x.pgn"},
		{"import --report", []string{"import", "--db", "newdb", "--report", "a.pgn.gz", "a.pgn.gz"}, "a.pgn.gz"},
		{"import --report in an input folder", []string{"import", "--db", "newdb", "--report", "sub/b.pgn.gz", "."}, "sub/b.pgn.gz"},
		{"export -o in the database", []string{"export", "--db", db, "-o", filepath.Join(db, "games.pgn")}, filepath.Join(db, "games.pgn")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			if err := os.WriteFile("a.pgn.gz", game, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("a.pgn.gz", "link.pgn.gz"); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir("sub", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile("sub/b.pgn.gz", game, 0o644); err != nil {
				t.Fatal(err)
			}
			before, dbBefore := listDir(t, dir), listDir(t, db)
			code, _, stderr := runCLI(t, tt.args...)
			if code != exitUsage || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d naming %s", code, stderr, exitUsage, tt.want)
			}
			if after := listDir(t, dir); !mapsEqual(before, after) {
				t.Errorf("the folder changed: %v", changed(before, after))
			}
			if after := listDir(t, db); !mapsEqual(dbBefore, after) {
				t.Errorf("the database folder changed: %v", changed(dbBefore, after))
			}
		})
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func changed(a, b map[string]string) []string {
	var out []string
	for k, v := range a {
		if w, ok := b[k]; !ok {
			out = append(out, k+" removed")
		} else if w != v {
			out = append(out, k+" changed")
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k+" added")
		}
	}
	slices.Sort(out)
	return out
}

// A run that stops before its end (Ctrl-C, a failed write) leaves the old
// file as it was, and no partial file under the final name or beside it.
func TestInterruptedRunKeepsTheOldOutput(t *testing.T) {
	for _, cmd := range [][]string{
		{"convert", "-o", "OUT"},
		{"clean", "--out", "OUT"},
		{"clean", "--rejects", "OUT"},
		{"clean", "--report", "OUT"},
		{"import", "--db", "DB", "--report", "OUT"},
	} {
		t.Run(strings.Join(cmd[:2], " "), func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			if err := os.WriteFile(out, []byte("the only copy"), 0o640); err != nil {
				t.Fatal(err)
			}
			args := []string{"xqdb"}
			for _, a := range cmd {
				args = append(args, strings.NewReplacer("OUT", out, "DB", filepath.Join(t.TempDir(), "db")).Replace(a))
			}
			args = append(args, fixture("ccpd-masters-3001.pgn.gz"))
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // as Ctrl-C does, before the first game is written
			var stdout, stderr bytes.Buffer
			if err := newApp(&stdout, &stderr).RunContext(ctx, args); err == nil {
				t.Fatalf("an interrupted run succeeded")
			}
			b, err := os.ReadFile(out)
			if err != nil || string(b) != "the only copy" {
				t.Fatalf("old output now %q (%v)", b, err)
			}
			if got := listDir(t, dir); len(got) != 1 {
				t.Fatalf("files left beside the output: %v", got)
			}
		})
	}
}

// A finished run replaces the output whole, keeping its permissions, and
// writes through a symlink to the file it points at.
func TestOutputReplacedAtTheEnd(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.pgn")
	if err := os.WriteFile(real, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.pgn")
	if err := os.Symlink("real.pgn", link); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "convert", "-o", link, fixture("pgnmentor-capablanca-fischer.pgn.gz")); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the symlink was replaced: %v %v", fi, err)
	}
	fi, err = os.Stat(real)
	if err != nil || fi.Mode().Perm() != 0o640 || fi.Size() < 100_000 {
		t.Fatalf("output %v (%v): want the converted games, mode 0640", fi, err)
	}
	if got := listDir(t, dir); len(got) != 2 {
		t.Fatalf("files left beside the output: %v", got)
	}
	// A device is written to, never replaced (xqdb may run as root).
	if code, _, stderr := runCLI(t, "convert", "-o", os.DevNull, fixture("pgnmentor-capablanca-fischer.pgn.gz")); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("%s is now %v (%v)", os.DevNull, fi, err)
	}
	// A new file gets the usual permissions (0666 less the umask), not a
	// temporary file's 0600.
	defer syscall.Umask(syscall.Umask(0o022))
	fresh := filepath.Join(dir, "fresh.pgn")
	if code, _, stderr := runCLI(t, "convert", "-o", fresh, fixture("pgnmentor-capablanca-fischer.pgn.gz")); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if fi, err := os.Stat(fresh); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("new output %v (%v): want mode 0644", fi, err)
	}
}
