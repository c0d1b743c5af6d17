package cbl_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/importer/cbl"
	"github.com/xqdb/xqdb/importer/record"
)

// TestFixtures reads the real CCBridge files of testdata/cbl (walker8088's
// test data, see testdata/SOURCES.md): two .cbr records and the 1989
// library. Every game replays, variations included (the replay checks
// that each variation hangs where its moves are legal); the counts are
// what the files hold, as measured.
func TestFixtures(t *testing.T) {
	tests := []struct {
		file                        string
		games, sections             int
		title                       string // of the first game
		moves, variations, comments int    // of the first game
		plies                       int    // main lines of all games
	}{
		{"test.cbr", 1, 0, "黄丹青讲座004-破解新式弃马局的攻防要领", 28, 11, 13, 28},
		{"test2.cbr", 1, 0, "Test", 2, 0, 3, 2},
		{"longhua-1989-35.cbl.gz", 36, 2, "第一轮 徐天红 先和 徐天利", 60, 0, 2, 3209},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "testdata", "cbl", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(tt.file, ".gz") {
				zr, err := gzip.NewReader(bytes.NewReader(data))
				if err != nil {
					t.Fatal(err)
				}
				var buf bytes.Buffer
				if _, err := buf.ReadFrom(zr); err != nil {
					t.Fatal(err)
				}
				data = buf.Bytes()
			}
			got := readLibrary(t, cbl.NewReader(bytes.NewReader(data), tt.file), tt.file)
			for _, err := range got.other {
				t.Errorf("%v", err)
			}
			if len(got.games) != tt.games || len(got.sections) != tt.sections {
				t.Fatalf("%d games, %d section titles; want %d and %d", len(got.games), len(got.sections), tt.games, tt.sections)
			}
			first := got.games[0]
			var vars, comments int
			for _, e := range first.Elements {
				switch e.Kind {
				case record.VariationStart:
					vars++
				case record.Comment:
					comments++
				}
			}
			if first.Tag("Title") != tt.title || len(first.Moves) != tt.moves || vars != tt.variations || comments != tt.comments {
				t.Errorf("first game %q: %d moves, %d variations, %d comments; want %q, %d, %d, %d",
					first.Tag("Title"), len(first.Moves), vars, comments, tt.title, tt.moves, tt.variations, tt.comments)
			}
			plies, _, problems := replayAll(t, got.games)
			for _, p := range problems {
				t.Errorf("%s", p)
			}
			if plies != tt.plies {
				t.Errorf("%d plies, want %d", plies, tt.plies)
			}
		})
	}
}
