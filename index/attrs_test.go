package index

import (
	"hash/fnv"
	"io"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unsafe"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/importer"
)

func TestParseDate(t *testing.T) {
	tests := []struct {
		in   string
		want uint32
		out  string
	}{
		{"1990.05.01", 19900501, "1990.05.01"},
		{"1990.??.??", 19900000, "1990.??.??"},
		{"1990.05.??", 19900500, "1990.05.??"},
		{"1934.??.06", 19340006, "1934.??.06"},
		{"2019-12-29", 20191229, "2019.12.29"},
		{"1982", 19820000, "1982.??.??"},
		{"4/17/1996", 19960417, "1996.04.17"},
		{"19960417", 19960417, "1996.04.17"},
		{"19960417下午", 19960417, "1996.04.17"},
		{"199604", 19960400, "1996.04.??"},
		{"1996年4月17日", 19960417, "1996.04.17"},
		{"1996.4.17－18", 19960417, "1996.04.17"},
		{"15-7-2009", 20090715, "2009.07.15"},
		{"7/15/2009", 20090715, "2009.07.15"},
		{"20091115-09：00", 20091115, "2009.11.15"},
		{"96-4-17", 0, ""},
		{"1996001", 0, ""},
		{"", 0, ""},
		{"????.??.??", 0, ""},
		{"unknown", 0, ""},
	}
	for _, tt := range tests {
		got := ParseDate(tt.in)
		if got != tt.want || FormatDate(got) != tt.out {
			t.Errorf("ParseDate(%q) = %d (%q), want %d (%q)", tt.in, got, FormatDate(got), tt.want, tt.out)
		}
	}
}

func TestAttrsRoundTrip(t *testing.T) {
	for _, a := range []Attrs{
		{Game: engine.Chess, Result: engine.Draw, Date: 20211231, Rating: 2750, Plies: 123, Hash: 1 << 63, Players: 0xdeadbeef},
		{Game: engine.Xiangqi, Result: engine.FirstWins, Plies: 40, Deleted: true},
	} {
		var b [attrsSize]byte
		putAttrs(b[:], a)
		if got := getAttrs(b[:]); got != a {
			t.Fatalf("got %+v, want %+v", got, a)
		}
	}
}

// TestAttrsPackInto24Bytes: the fields' order keeps a game's attributes
// in memory at 24 bytes (32 in the stored order), a million games' 26 MB.
func TestAttrsPackInto24Bytes(t *testing.T) {
	if n := unsafe.Sizeof(Attrs{}); n != 24 {
		t.Errorf("Attrs takes %d bytes, want 24", n)
	}
}

func TestStatsRoundTripAndMerge(t *testing.T) {
	v := &statsValue{}
	s1, s2 := v.slot(100), v.slot(EndSlot)
	v.Moves[s1].Add(MoveStats{Games: 2, FirstWins: 1, Draws: 1, RatingSum: 5000, Rated: 2, LastDate: 19900101})
	v.Moves[s2].Add(MoveStats{Games: 1, SecondWins: 1})
	v.Games = []Posting{{3, s1}, {9, s2}, {12, s1}}
	got, err := decodeStats(encodeStats(nil, v))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Moves) != 2 || got.Moves[0] != v.Moves[0] || len(got.Games) != 3 || got.Games[2] != v.Games[2] {
		t.Fatalf("round trip: %+v", got)
	}
	o := &statsValue{}
	o.Moves = []MoveStats{{Code: 7, Games: 1, Draws: 1}, {Code: 100, Games: 1, FirstWins: 1, LastDate: 20000101}}
	o.Games = []Posting{{20, 1}, {21, 0}}
	mergeStats(got, o)
	if got.Moves[0].Games != 3 || got.Moves[0].LastDate != 20000101 || len(got.Moves) != 3 || got.Games[3] != (Posting{20, 0}) || got.Games[4] != (Posting{21, 2}) {
		t.Fatalf("merge: %+v", got)
	}
	if _, err := decodeStats([]byte{5, 1}); err == nil {
		t.Error("decodeStats accepted garbage")
	}
}

// Twin checks compare players by surname and first initial, folded as the
// metadata index folds words (issue 13, point 2).
func TestPlayerKey(t *testing.T) {
	tests := []struct{ name, want string }{
		{"Carlsen, Magnus", "carlsen m"},
		{"Carlsen, M.", "carlsen m"},
		{"Carlsen,M", "carlsen m"},
		{"Magnus Carlsen", "carlsen m"},
		{"M. Carlsen", "carlsen m"},
		{"Carlsen M", "carlsen m"},
		{"CARLSEN Magnus", "carlsen m"},
		{"  carlsen,  magnus ", "carlsen m"},
		{"Carlsen", "carlsen"},
		{"van Wely, Loek", "wely l"},
		{"L. van Wely", "wely l"},
		{"Nguyễn Thành Bảo", "bao n"},
		{"Nguyen Thanh Bao", "bao n"},
		{"Đặng Hữu Trang", "trang d"},
		{"Lü Qin", "qin l"},
		{"Lu Qin", "qin l"},
		{"呂欽", "吕钦"},
		{"吕钦", "吕钦"},
		{"胡榮華", "胡荣华"},
		{"Aljechin, Alexander", "aljechin a"},
		{"?", ""},
		{"", ""},
		{"NN", ""},
		{"N.N.", ""},
		{"N, N", ""},
	}
	for _, tt := range tests {
		if got := PlayerKey(tt.name); got != tt.want {
			t.Errorf("PlayerKey(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestSameDate(t *testing.T) {
	tests := []struct {
		a, b uint32
		want bool
	}{
		{20200501, 20200501, true},
		{20200501, 20200502, false},
		{20200501, 20200600, false},
		{20200500, 20200531, true},
		{20200000, 20201231, true},
		{20200000, 20190000, false},
		{0, 20201231, true},
		{0, 0, true},
	}
	for _, tt := range tests {
		if got := sameDate(tt.a, tt.b); got != tt.want {
			t.Errorf("sameDate(%d, %d) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestReadOnlyLookupsReadOnlyTheirAttributeChunks: a read-only store's
// lookups read the attribute chunks of the games they meet, not every
// game's (a fresh xqdb tree at a rare position of a million-game store
// spent 0.2 of its 0.3 s loading them all), and answer as a store that
// loaded them all; Read still loads them all.
func TestReadOnlyLookupsReadOnlyTheirAttributeChunks(t *testing.T) {
	// Three chunks, all of which chunkAttrs may read alone.
	defer func(n int) { someChunksAlone = n }(someChunksAlone)
	someChunksAlone = 3
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	importGames(t, s, datedGames(t, 2*attrsPerChunk+500))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	all, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer all.Close()
	if err := all.loadAttrs(); err != nil {
		t.Fatal(err)
	}
	some, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer some.Close()
	last := (some.man.NextGid - 1) / attrsPerChunk
	if last < 2 {
		t.Fatalf("%d games stored: fewer than three chunks", some.man.NextGid-1)
	}

	// The last position of games of the last chunk: each reached by its
	// game alone, or by a few.
	asked := 0
	for gid := last * attrsPerChunk; gid < some.man.NextGid; gid += 20 {
		r, err := some.Game(gid)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Moves) < 12 {
			continue
		}
		p, _ := games.New(engine.Xiangqi, "")
		for _, m := range r.Moves {
			p.Make(m)
		}
		for _, withGames := range []bool{false, true} {
			got, err := some.Position(engine.Xiangqi, p, withGames)
			if err != nil {
				t.Fatal(err)
			}
			want, err := all.Position(engine.Xiangqi, p, withGames)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("game %d's last position: %+v, want %+v", gid, got, want)
			}
		}
		asked++
	}
	if asked < 5 {
		t.Fatalf("only %d positions asked", asked)
	}
	if some.attrsAll.Load() || some.attrs != nil {
		t.Fatal("the lookups loaded every game's attributes")
	}
	if _, ok := some.someAttrs[last]; !ok || len(some.someAttrs) > 2 {
		t.Fatalf("chunks read: %v, want %d and at most one more", slices.Collect(maps.Keys(some.someAttrs)), last)
	}

	for gid := uint32(0); gid <= some.man.NextGid; gid++ {
		if got, want := some.Attrs(gid), all.Attrs(gid); got != want {
			t.Fatalf("game %d: %+v, want %+v", gid, got, want)
		}
	}
	if err := some.Read(func() error { return nil }); err != nil {
		t.Fatal(err)
	}
	if !some.attrsAll.Load() || some.someAttrs != nil || !slices.Equal(some.attrs, all.attrs) {
		t.Fatal("Read did not load every game's attributes")
	}

	// A chunk read alone, the next one loads them all.
	someChunksAlone = 1
	third, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	for _, gid := range []uint32{last * attrsPerChunk, last*attrsPerChunk + 7, 1} {
		if got, want := third.Attrs(gid), all.Attrs(gid); got != want {
			t.Fatalf("game %d: %+v, want %+v", gid, got, want)
		}
		if loaded := third.attrsAll.Load(); loaded != (gid == 1) {
			t.Fatalf("after game %d: every game's attributes loaded: %v", gid, loaded)
		}
	}

	// Lookups on several goroutines (a --batch's, a server's without
	// Read) read chunks, and then all, side by side.
	someChunksAlone = 1
	shared, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer shared.Close()
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for gid := shared.man.NextGid - 1 - uint32(i); gid > 0; gid -= min(gid, 61) {
				if got, want := shared.Attrs(gid), all.Attrs(gid); got != want {
					t.Errorf("game %d: %+v, want %+v", gid, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

// playerKeyReference is PlayerKey as schema 11 first wrote it, with
// strings.FieldsFunc and Fold: every stored game's Players hash was made
// by it, so appendPlayerKey must give the same bytes for every name.
func playerKeyReference(name string) string {
	words := func(s string) []string {
		return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	}
	capital := func(ws []string) int {
		found := -1
		for i, w := range ws {
			if len([]rune(w)) < 2 || strings.ToUpper(w) != w || strings.ToLower(w) == w {
				continue
			}
			if found >= 0 {
				return -1
			}
			found = i
		}
		return found
	}
	name = strings.TrimSpace(name)
	surname, given := name, ""
	if i := strings.IndexByte(name, ','); i >= 0 {
		surname, given = name[:i], name[i+1:]
	}
	ws := words(surname)
	if given == "" && len(ws) > 1 {
		last := len(ws) - 1
		switch caps := capital(ws); {
		case caps >= 0:
			if caps == 0 {
				given = ws[1]
			} else {
				given = ws[0]
			}
			ws = ws[caps : caps+1]
		case len([]rune(ws[last])) == 1:
			given, ws = ws[last], ws[last-1:last]
		default:
			given, ws = ws[0], ws[last:]
		}
	}
	if len(ws) == 0 {
		return ""
	}
	sur := Fold(ws[len(ws)-1])
	if len(ws) == 1 && given == "" && (sur == "nn" || sur == "unknown") {
		return ""
	}
	if sur == "n" && Fold(strings.Join(words(given), "")) == "n" {
		return ""
	}
	key := sur
	if gw := words(given); len(gw) > 0 {
		key += " " + string([]rune(Fold(gw[0]))[0])
	}
	return key
}

// TestPlayerKeyAsStored: the players of the bundled archives (Latin,
// Chinese, GBK-decoded) get the keys, and the games the Players hash,
// that stores written before hold.
func TestPlayerKeyAsStored(t *testing.T) {
	names := map[string]bool{}
	for _, f := range []string{"pgnmentor-capablanca-fischer.pgn.gz", "ccpd-masters-3001.pgn.gz"} {
		r, err := importer.Open(filepath.Join("..", "testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if rec == nil {
				continue
			}
			for _, tag := range []string{"White", "Black", "Red"} {
				names[rec.Tag(tag)] = true
			}
		}
		r.Close()
	}
	if len(names) < 100 {
		t.Fatalf("%d names read from the fixtures", len(names))
	}
	for name := range names {
		if got, want := PlayerKey(name), playerKeyReference(name); got != want {
			t.Errorf("PlayerKey(%q) = %q, want %q", name, got, want)
		}
	}
	for _, pair := range [][2]string{{"Carlsen, Magnus", "Anand, V."}, {"吕钦", "胡荣华"}, {"", "N.N."}} {
		r := &Record{Tags: []Tag{{Name: "White", Value: pair[0]}, {Name: "Black", Value: pair[1]}}}
		h := fnv.New32a()
		h.Write([]byte(playerKeyReference(pair[0])))
		h.Write([]byte{0})
		h.Write([]byte(playerKeyReference(pair[1])))
		if got, want := playersHash(r), h.Sum32(); got != want {
			t.Errorf("playersHash(%q, %q) = %08x, want %08x", pair[0], pair[1], got, want)
		}
	}
}

// FuzzPlayerKey: any name gets the key the reference gives it.
func FuzzPlayerKey(f *testing.F) {
	for _, s := range []string{"Carlsen, Magnus", "CARLSEN Magnus", "Nguyễn Thành Bảo", "呂欽", "N.N.", "N, N", "NN", "a\u0301b", "ÀÉ Ö", "Dz ǅ", "x,y,z", "\xff\xfeA B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if got, want := PlayerKey(name), playerKeyReference(name); got != want {
			t.Errorf("PlayerKey(%q) = %q, want %q", name, got, want)
		}
	})
}
