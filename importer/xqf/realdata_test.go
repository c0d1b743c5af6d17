package xqf_test

import (
	"archive/tar"
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/importer/internal/xqtest"
	"github.com/xqdb/xqdb/importer/record"
	"github.com/xqdb/xqdb/importer/xqf"
)

// derived is one row of xqf_mainline_derived.jsonl.gz (shared SOURCES.md).
type derived struct {
	Path   string `json:"path"`
	Ver    int    `json:"ver"`
	Setup  int    `json:"setup"` // the type byte
	Result int    `json:"result"`
	FEN    string `json:"fen"`
	Plies  int    `json:"plies"`
	Bad    []any  `json:"bad"`
	Moves  string `json:"moves"`
}

// TestWalkerArchive reads all 26,150 XQF files of the walker8088 archive
// straight from its tar and checks each against the derived oracle: the
// version, type and result bytes, the start FEN with the inferred side to
// move, the main-line length, and every ICCS token (up to the oracle's
// first bad ply where it found one). The totals are those of the shared
// SOURCES.md.
func TestWalkerArchive(t *testing.T) {
	oracle := map[string]derived{}
	sc := bufio.NewScanner(xqtest.OpenShared(t, "xiangqi/walker8088-games/xqf_mainline_derived.jsonl.gz"))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var d derived
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		oracle[d.Path] = d
	}
	tr := tar.NewReader(xqtest.OpenShared(t, "xiangqi/walker8088-games/walker8088-cchess-games-2f4782f.tar.gz"))
	versions, types, results := map[string]int{}, map[string]int{}, map[string]int{}
	var names, chineseNames int
	var files, withVariations, noMoves, plies, tokens int
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(strings.ToLower(h.Name), ".xqf") {
			continue
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		files++
		rec, err := xqf.Parse(data, h.Name)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		d, ok := oracle[strings.TrimPrefix(h.Name, "games/")]
		if !ok {
			t.Fatalf("%s: not in the oracle", h.Name)
		}
		versions[rec.Tag("XQFVersion")]++
		types[rec.Tag("XQFType")]++
		results[rec.Tag("Result")]++
		if len(rec.Moves) == 0 {
			noMoves++
		}
		for _, e := range rec.Elements {
			if e.Kind == record.VariationStart {
				withVariations++
				break
			}
		}
		plies += len(rec.Moves)
		for _, tag := range []string{"Red", "Black"} {
			if v := rec.Tag(tag); strings.ContainsFunc(v, func(r rune) bool { return r >= 0x80 }) {
				names++
				if xqtest.IsChineseName(v) {
					chineseNames++
				}
			}
		}
		if got := strings.Join(strings.Fields(rec.FEN)[:2], " "); got != d.FEN {
			t.Errorf("%s: FEN %q, oracle %q", h.Name, got, d.FEN)
		}
		if len(rec.Moves) != d.Plies {
			t.Errorf("%s: %d moves, oracle %d", h.Name, len(rec.Moves), d.Plies)
		}
		for i, m := range strings.Fields(d.Moves) {
			if i >= len(rec.Moves) || string(rec.MoveText(i)) != m {
				t.Errorf("%s: ply %d: %q, oracle %q", h.Name, i+1, moveAt(rec, i), m)
				break
			}
			tokens++
		}
		if t.Failed() && files > 100 {
			t.FailNow()
		}
	}
	want := map[string]int{"10": 3360, "11": 811, "12": 2801, "13": 5932, "15": 216, "16": 1386, "18": 11644}
	for v, n := range want {
		if versions[v] != n {
			t.Errorf("version %s: %d files, want %d", v, versions[v], n)
		}
	}
	if types["game"] != 19927 || types["opening"] != 42 || types["middlegame"] != 429 || types["endgame"] != 5752 {
		t.Errorf("types %v, want game 19,927 opening 42 middlegame 429 endgame 5,752", types)
	}
	// Result byte: 1 → 10,290; 2 → 5,625; 3 → 7,248 and 4 → 6 (draws); 0 → 2,981.
	if results["1-0"] != 10290 || results["0-1"] != 5625 || results["1/2-1/2"] != 7248+6 || results["*"] != 2981 {
		t.Errorf("results %v", results)
	}
	if files != 26150 || withVariations != 3355 || noMoves != 52 {
		t.Errorf("files %d, with variations %d, without moves %d; want 26,150, 3,355, 52", files, withVariations, noMoves)
	}
	// Player names are GBK by format. Guessing the encoding of each read
	// 191 of them wrongly (as UTF-8 or Big5: 谢小然 became "лСȻ", 辽宁赵庆阁
	// "賽譴梊ヰ跨"); one name holds a code GBK leaves undefined (AAA4).
	if names != 32649 || chineseNames != 32648 {
		t.Errorf("%d names with non-ASCII bytes, %d of them Chinese; want 32,649 and 32,648", names, chineseNames)
	}
	t.Logf("%d files, %d main-line plies, %d tokens matched the oracle", files, plies, tokens)
}

func moveAt(rec *record.Record, i int) string {
	if i < len(rec.Moves) {
		return string(rec.MoveText(i))
	}
	return ""
}
