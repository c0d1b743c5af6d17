package obk_test

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/xiangqi"
	"github.com/xqdb/xqdb/query/book/obk"
)

func play(t testing.TB, p *xiangqi.Position, moves string) []engine.Move {
	t.Helper()
	var ms []engine.Move
	for _, s := range strings.Fields(moves) {
		m, err := p.ParseMove(s, engine.ICCS)
		if err != nil {
			t.Fatal(err)
		}
		p.Make(m)
		ms = append(ms, m)
	}
	return ms
}

// TestKeyAndMoveVectors: SOURCES.md's start key, move codes and table
// checksum.
func TestKeyAndMoveVectors(t *testing.T) {
	p := xiangqi.NewStart()
	if k := obk.Key(p, false); k != 7101337512282506414 {
		t.Errorf("start key = %d, want 7101337512282506414", k)
	}
	if obk.Key(p, true) != obk.Key(p, false) {
		t.Error("the start position is symmetric: its mirror's key must be its own")
	}
	for _, c := range []struct {
		move string
		code uint16
	}{{"h2e2", 43687}, {"g0e2", 51623}, {"c3c4", 38277}, {"b0c2", 50341}} {
		m, err := xiangqi.NewStart().ParseMove(c.move, engine.ICCS)
		if err != nil {
			t.Fatal(err)
		}
		if got := obk.Code(m); got != c.code {
			t.Errorf("%s = %d, want %d", c.move, got, c.code)
		}
		if back, ok := obk.FromCode(c.code); !ok || back != m {
			t.Errorf("FromCode(%d) = %v, want %s", c.code, back, c.move)
		}
	}
	q := xiangqi.NewStart()
	play(t, q, "h2e2")
	if m, _ := q.ParseMove("h9g7", engine.ICCS); obk.Code(m) != 14937 {
		t.Errorf("h9g7 = %d, want 14937", obk.Code(m))
	}
	h := sha256.New()
	var buf [8]byte
	for i := 0; i < 14*256; i++ {
		binary.LittleEndian.PutUint64(buf[:], obk.TableValue(i))
		h.Write(buf[:])
	}
	if got := fmt.Sprintf("%x", h.Sum(nil)); got != "6caea8408765475bda5cc752988868dbb2f2a68677c332918c4115f67d13b85b" {
		t.Errorf("table sha256 %s", got)
	}
}

func buildSample(t testing.TB) *obk.Builder {
	b := obk.NewBuilder(0, 0)
	for _, g := range []struct {
		moves string
		r     engine.Result
	}{
		{"h2e2 h9g7 h0g2 i9h9", engine.FirstWins},
		{"h2e2 h9g7 h0g2 g6g5", engine.Draw},
		{"b2e2 b9c7 b0c2 c6c5", engine.SecondWins}, // the mirror of the first lines
		{"c3c4 h9g7 h0g2 i9h9", engine.NoResult},
		{"h0g2 h9g7 g2h0 g7h9 h0g2", engine.FirstWins}, // repeats (start, h0g2) in one game
	} {
		p := xiangqi.NewStart()
		ms := play(t, p, g.moves)
		if err := b.AddGame("", ms, g.r); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

func probe(t *testing.T, bk *obk.Book, moves string) string {
	t.Helper()
	p := xiangqi.NewStart()
	play(t, p, moves)
	hits, err := bk.Probe(p)
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, h := range hits {
		parts = append(parts, fmt.Sprintf("%s %d/%d/%d s%d i%d", p.FormatMove(h.Move, engine.ICCS), h.Win, h.Draw, h.Lost, h.Score, h.Index))
	}
	return strings.Join(parts, ", ")
}

// TestRoundTrip builds, writes, reads back and probes.
func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.obk")
	rows := buildSample(t).Rows()
	if err := obk.Write(path, rows); err != nil {
		t.Fatal(err)
	}
	back, err := obk.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, rows) {
		t.Errorf("read back %v, wrote %v", back, rows)
	}
	bk, err := obk.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	cases := []struct{ moves, want string }{
		// The start is symmetric: h2e2 and b2e2 are one move mirrored, so
		// each carries the three games of both (2 W, 1 D, 1 L for Red).
		// h0g2 counts once for its game though played twice in it.
		{"", "b2e2 1/1/1 s3 i1, h2e2 1/1/1 s3 i1, b0c2 1/0/0 s2 i1, h0g2 1/0/0 s2 i1, c3c4 0/0/0 s0 i1, g3g4 0/0/0 s0 i1"},
		// After h2e2 the mirror game (b2e2 b9c7) is folded in as h9g7.
		{"h2e2", "h9g7 1/1/1 s3 i2"},
		{"b2e2", "b9c7 1/1/1 s3 i2"},
		{"h2e2 h9g7", "h0g2 1/1/1 s3 i3"},
		{"b2e2 b9c7", "b0c2 1/1/1 s3 i3"},
	}
	for _, c := range cases {
		if got := probe(t, bk, c.moves); got != c.want {
			t.Errorf("after %q:\n got %s\nwant %s", c.moves, got, c.want)
		}
	}
}

// TestSQLite3ReadsBook: the sqlite3 command line reads a book xqdb wrote,
// with the documented key and query.
func TestSQLite3ReadsBook(t *testing.T) {
	bin, err := exec.LookPath("sqlite3")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("sqlite3 is not installed (apt-get install sqlite3)")
		}
		t.Skip("sqlite3 is not installed")
	}
	path := filepath.Join(t.TempDir(), "t.obk")
	if err := obk.Write(path, buildSample(t).Rows()); err != nil {
		t.Fatal(err)
	}
	q := `SELECT vmove, vscore, vwin, vdraw, vlost, vindex FROM bhobk WHERE vkey = 7101337512282506414 AND vvalid = 1 ORDER BY vscore DESC, vwin DESC, vmove;`
	out, err := exec.Command(bin, path, q).CombinedOutput()
	if err != nil {
		t.Fatalf("sqlite3: %v\n%s", err, out)
	}
	// b2e2 = 0xA4A7 = 42151, h2e2 43687, b0c2 50341, h0g2 0xCAA9 = 51881,
	// c3c4 38277, g3g4 0x9989 = 39305.
	want := "42151|3|1|1|1|1\n43687|3|1|1|1|1\n50341|2|1|0|0|1\n51881|2|1|0|0|1\n38277|0|0|0|0|1\n39305|0|0|0|0|1\n"
	if string(out) != want {
		t.Errorf("sqlite3 printed\n%s\nwant\n%s", out, want)
	}
	schema, err := exec.Command(bin, path, ".schema").CombinedOutput()
	if err != nil || !strings.Contains(string(schema), "CREATE INDEX idxkey ON bhobk(vkey)") {
		t.Errorf("schema: %v %s", err, schema)
	}
}

// TestReadsRealKeys: keys above 2^63 stored as REAL bit patterns (as real
// books hold them) are read and probed.
func TestReadsRealKeys(t *testing.T) {
	bin, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Skip("sqlite3 is not installed")
	}
	p := xiangqi.NewStart()
	play(t, p, "h2e2")
	k := obk.Key(p, false)
	if obk.Key(p, true) < k {
		k = obk.Key(p, true)
	}
	path := filepath.Join(t.TempDir(), "real.obk")
	stmt := obk.Schema + fmt.Sprintf("\nINSERT INTO bhobk(vkey, vmove, vscore, vwin, vdraw, vlost, vvalid, vindex) VALUES(%d, %d, 7, 3, 1, 0, 1, 2);", int64(k), 14937)
	if out, err := exec.Command(bin, path, stmt).CombinedOutput(); err != nil {
		t.Fatalf("sqlite3: %v %s", err, out)
	}
	rows, err := obk.Read(path)
	if err != nil || len(rows) != 1 || rows[0].Key != k {
		t.Fatalf("read %v %v", rows, err)
	}
	bk, err := obk.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	if got := probe(t, bk, "h2e2"); !strings.HasPrefix(got, "h9g7 3/1/0") && !strings.HasPrefix(got, "b9c7 3/1/0") {
		t.Errorf("probe: %q", got)
	}
}

func TestOpenRejectsOtherFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.obk")
	os.WriteFile(path, []byte("hello"), 0o644)
	if _, err := obk.Read(path); err == nil {
		t.Error("a text file read as a book")
	}
	if _, err := obk.Open(filepath.Join(t.TempDir(), "none.obk")); err == nil {
		t.Error("a missing file opened")
	}
}

func FuzzRead(f *testing.F) {
	dir := f.TempDir()
	seed := filepath.Join(dir, "seed.obk")
	if err := obk.Write(seed, buildSample(f).Rows()); err != nil {
		f.Fatal(err)
	}
	data, _ := os.ReadFile(seed)
	f.Add(data)
	f.Add([]byte("SQLite format 3\x00garbage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "f.obk")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		obk.Read(path)
		bk, err := obk.Open(path)
		if err != nil {
			return
		}
		defer bk.Close()
		p := xiangqi.NewStart()
		hits, _ := bk.Probe(p)
		for _, h := range hits {
			if !p.IsLegal(h.Move) {
				t.Fatalf("illegal move offered: %v", h.Move)
			}
		}
	})
}
