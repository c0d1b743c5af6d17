package importer_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/importer"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.golden from the current readers")

// dump writes every field of a record a caller can see, one per line.
func dump(sb *strings.Builder, rec *importer.Record, err error) {
	if rec == nil {
		fmt.Fprintf(sb, "error: %v\n\n", err)
		return
	}
	s := rec.Source
	fmt.Fprintf(sb, "record %d line %d offset %d: format %s game %v encoding %s variant %q hint %v\n",
		s.Game, s.Line, s.Offset, rec.Format, rec.Game, rec.Encoding, rec.Variant, rec.NotationHint)
	if err != nil {
		fmt.Fprintf(sb, "error: %v\n", err)
	}
	fmt.Fprintf(sb, "fen %q result %q raw %d bytes text %d bytes\n", rec.FEN, rec.Result, len(rec.Raw), len(rec.Text))
	for _, t := range rec.Tags {
		fmt.Fprintf(sb, "  [%s %q]\n", t.Name, t.Value)
	}
	for _, e := range rec.Elements {
		fmt.Fprintf(sb, "  %-12s d%d L%d @%d %q\n", e.Kind, e.Depth, e.Line, e.Offset, rec.TokenText(e))
	}
	fmt.Fprintf(sb, "  main line: %d moves\n\n", len(rec.Moves))
}

// TestGolden reads every fixture in testdata and compares the full dump
// of its records with testdata/golden/<dir>_<file>.golden. Run
// "go test ./importer -run Golden -update" after a deliberate change and
// review the diff.
func TestGolden(t *testing.T) {
	files, err := importer.Files([]string{"testdata"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range files {
		rel, _ := filepath.Rel("testdata", p)
		name := filepath.Join("testdata", "golden", strings.ReplaceAll(filepath.ToSlash(rel), "/", "_")+".golden")
		t.Run(rel, func(t *testing.T) {
			r, err := importer.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			var sb strings.Builder
			for rec, err := range r.All() {
				dump(&sb, rec, err)
			}
			got := sb.String()
			if *update {
				if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(name, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(name)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
				for i := 0; i < len(gl) && i < len(wl); i++ {
					if gl[i] != wl[i] {
						t.Fatalf("%s differs at line %d:\n got %s\nwant %s", name, i+1, gl[i], wl[i])
					}
				}
				t.Fatalf("%s: %d lines, want %d", name, len(gl), len(wl))
			}
		})
	}
}
