package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// CCBridge libraries are read by every reading command (issue 13.14):
// the 1989 library (testdata/cbl, walker8088's test data) gives its 36
// game records (35 games and a second copy of the last) and its two
// section titles, which are reported as "not_a_game" and counted apart,
// whether it is a file of its own or the member of an archive; none is
// unreadable. import stores the 35 games and calls the copy a duplicate.
func TestCCBridgeLibraryIsRead(t *testing.T) {
	gz, err := os.ReadFile(filepath.Join("..", "..", "importer", "testdata", "cbl", "longhua-1989-35.cbl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	lib, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	var tgz bytes.Buffer
	zw := gzip.NewWriter(&tgz)
	tw := tar.NewWriter(zw)
	tw.WriteHeader(&tar.Header{Name: "m/龙化杯.CBL", Mode: 0o644, Size: int64(len(lib)), Typeflag: tar.TypeReg})
	tw.Write(lib)
	tw.Close()
	zw.Close()
	for _, tc := range []struct {
		name, file string
		data       []byte
		member     string
	}{
		{"library", "longhua.CBL", lib, ""},
		{"gzipped library", "longhua.cbl.gz", gz, ""},
		{"archive member", "games.tar.gz", tgz.Bytes(), "!m/龙化杯.CBL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, tc.file)
			if err := os.WriteFile(in, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			rep := filepath.Join(t.TempDir(), "r.jsonl")
			code, stdout, stderr := runCLI(t, "clean", "--json", "--report", rep, dir)
			var sum cleanSummary
			if err := json.Unmarshal([]byte(stdout), &sum); err != nil || code != exitOK {
				t.Fatalf("exit %d: %s %v", code, stderr, err)
			}
			if sum.Unreadable != 0 || sum.NotGames != 2 || sum.Games != 36 || sum.Valid != 36 || sum.Rejected != 0 {
				t.Errorf("clean summary %+v: want 0 unreadable, 2 not games, 36 games all valid", sum)
			}
			var sections []int
			for _, l := range readReport(t, rep) {
				if l.Kind != "not_a_game" || l.File != in+tc.member {
					t.Errorf("report line %+v", l)
					continue
				}
				sections = append(sections, l.Game)
			}
			if len(sections) != 2 || sections[0] != 1 || sections[1] != 22 {
				t.Errorf("section titles reported as records %v, want [1 22]", sections)
			}
			db := filepath.Join(t.TempDir(), "db")
			code, stdout, stderr = runCLI(t, "import", "--json", "--db", db, dir)
			var isum importSummary
			if err := json.Unmarshal([]byte(stdout), &isum); err != nil || code != exitOK {
				t.Fatalf("import: exit %d: %s %v", code, stderr, err)
			}
			if isum.Unreadable != 0 || isum.NotGames != 2 || isum.Games != 36 || isum.Added != 35 || isum.Duplicates != 1 || isum.Rejected != 0 {
				t.Errorf("import summary %+v: want 36 games, 35 added, 1 duplicate, 2 not games", isum)
			}
			code, stdout, stderr = runCLI(t, "games", "--db", db, "--json", "--query", `red:吕钦 black:刘殿中`)
			var gl gamesJSON
			if err := json.Unmarshal([]byte(stdout), &gl); err != nil || code != exitOK || gl.Total != 1 {
				t.Errorf("games red:吕钦 black:刘殿中: exit %d, %s %s", code, stdout, stderr)
			}
		})
	}
}
