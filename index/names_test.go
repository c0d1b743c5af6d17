package index

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/importer"
)

// TestNameReadings: a name in Han characters gets its pinyin in the forms
// users write (apart, surname apart, joined; ü as u and v) and its
// Hán-Việt reading (issue 14; Unihan's kMandarin, kXHC1983, kTGHZ2013,
// kVietnamese).
func TestNameReadings(t *testing.T) {
	for _, tt := range []struct {
		name            string
		pinyin, hanViet []string
	}{
		{"吕钦", []string{"lü qin", "lv qin", "lüqin", "lvqin"}, []string{"lã khâm"}},
		{"呂欽", []string{"lü qin", "lüqin"}, []string{"lã khâm"}},
		{"胡荣华", []string{"hu rong hua", "hu ronghua", "huronghua"}, nil},
		{"許銀川", []string{"xu yin chuan", "xu yinchuan"}, []string{"hứa ngân xuyên"}},
		{"许银川", []string{"xu yinchuan"}, []string{"hứa ngân xuyên"}}, // simplified: Hán-Việt through 許
		{"单霞丽", []string{"dan xiali", "shan xiali"}, nil},            // 单 is also the surname shàn
		{"欧阳琦琳", []string{"ouyang qilin"}, nil},
		// CCPD writes the place or team first.
		{"廣東許銀川", []string{"xu yinchuan"}, []string{"hứa ngân xuyên"}},
		{"火車頭郭長順", []string{"guo changshun"}, nil},
		{"黑龍江趙國榮", []string{"zhao guorong"}, nil},
	} {
		py, hv := nameReadings(tt.name)
		for _, want := range tt.pinyin {
			if !slices.Contains(py, want) {
				t.Errorf("%s: pinyin %q lacks %q", tt.name, py, want)
			}
		}
		for _, want := range tt.hanViet {
			if !slices.Contains(hv, want) {
				t.Errorf("%s: Hán-Việt %q lacks %q", tt.name, hv, want)
			}
		}
	}
	for _, name := range []string{"Lü Qin", "Carlsen, Magnus", "胡", "吕钦A", ""} {
		if py, hv := nameReadings(name); py != nil || hv != nil {
			t.Errorf("%q: readings %q %q, want none", name, py, hv)
		}
	}
}

// nameCoverage counts the distinct player names of a PGN archive, those
// written in Han characters, and those of them that get a pinyin and a
// Hán-Việt form.
func nameCoverage(t *testing.T, path string) (names, han, pinyin, hanViet int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]bool{}
	r := importer.NewReader(f, path)
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			continue
		}
		for _, tag := range []string{"Red", "White", "Black"} {
			if v := strings.TrimSpace(rec.Tag(tag)); v != "" && !seen[v] {
				seen[v] = true
			}
		}
	}
	for name := range seen {
		names++
		isHan := true
		for _, c := range name {
			if !unicode.Is(unicode.Han, c) && c != ' ' && c != '·' {
				isHan = false
			}
		}
		if !isHan {
			continue
		}
		han++
		py, hv := nameReadings(name)
		if len(py) > 0 {
			pinyin++
		}
		if len(hv) > 0 {
			hanViet++
		}
	}
	return
}

// TestCCPDNameReadings measures how many CCPD player names get a pinyin
// and a Hán-Việt form (README "What the real archives hold").
func TestCCPDNameReadings(t *testing.T) {
	for _, tt := range []struct {
		path                        string
		names, han, pinyin, hanViet int
	}{
		{filepath.Join("..", "testdata", "ccpd-masters-3001.pgn.gz"), 673, 634, 597, 328},
		{enginetest.SharedData(t, "xiangqi/ccpd/ccpd_unique.utf8.pgn.gz"), 6441, 5907, 5125, 2632},
	} {
		names, han, py, hv := nameCoverage(t, tt.path)
		t.Logf("%s: %d names, %d in Han characters, %d with pinyin, %d with Hán-Việt", tt.path, names, han, py, hv)
		if names != tt.names || han != tt.han || py != tt.pinyin || hv != tt.hanViet {
			t.Errorf("got %d %d %d %d, want %d %d %d %d", names, han, py, hv, tt.names, tt.han, tt.pinyin, tt.hanViet)
		}
	}
}
