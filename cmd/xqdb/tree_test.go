package main

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The tree's move column lines up in a terminal whatever the notation:
// Chinese moves take two columns a character.
func TestPadRightCountsTerminalColumns(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Nf3", "Nf3     "},
		{"马二进三", "马二进三"},
		{"马８进７", "马８进７"},
		{"炮5", "炮5" + "     "}, // 3 columns, 5 spaces
		{"M2.3", "M2.3    "},
		{"Nxe5+!?xx", "Nxe5+!?xx"},
	}
	for _, tt := range tests {
		if got := padRight(tt.in, 8); got != tt.want {
			t.Errorf("padRight(%q, 8) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestImportMemoryLimit: an import's heap limit is what the machine and the
// store's mapped files leave of 2 GB, between 640 and 1400 MiB: the
// pgnmentor corpus's 111 MB import into an empty store gets 1400 MiB, the
// million-game import (564 MB of PGN) and any import into a store of that
// size 640 MiB (issue 18).
func TestImportMemoryLimit(t *testing.T) {
	const gib, mib, mb = 1 << 30, 1 << 20, 1_000_000
	for _, tt := range []struct {
		name                string
		physical, projected int64
		want                int64
	}{
		{"no /proc/meminfo", 0, 0, gib / 2},
		{"1 GiB machine", 1 * gib, 0, gib / 2},
		{"3 GiB machine", 3 * gib, 0, 3 * gib / 4},
		{"4 GiB machine", 4 * gib, 0, gib},
		{"small import", 24 * gib, 10 * mb, 1400 * mib},
		{"pgnmentor into an empty store", 24 * gib, 111 * mb, 1400 * mib},
		{"200 MB", 24 * gib, 200 * mb, 1350e6},
		{"300 MB", 24 * gib, 300 * mb, 1150e6},
		{"a million random games", 24 * gib, 564 * mb, 640 * mib},
		{"10,000 games into a million", 24 * gib, 700*mb + 5*mb, 640 * mib},
		{"unknown input size", 24 * gib, 1 << 61, 640 * mib},
		{"256 GiB machine", 256 * gib, 111 * mb, 1400 * mib},
	} {
		if got := importMemoryLimit(tt.physical, tt.projected); got != tt.want {
			t.Errorf("%s: importMemoryLimit(%d GiB, %d MB) = %d MiB, want %d MiB", tt.name, tt.physical/gib, tt.projected/mb, got/mib, tt.want/mib)
		}
	}
	if physicalMemory() <= 0 {
		t.Log("no /proc/meminfo here: imports use the 512 MiB floor")
	}
}

// TestInputTextBytes: a compressed input counts as the text it holds, about,
// and an input of unknown size as a large one, so that a small file of many
// games does not get a small import's heap limit.
func TestInputTextBytes(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	text := bytes.Repeat([]byte("[Event \"x\"]\n\n1. e4 e5 *\n\n"), 100)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(text)
	zw.Close()
	var zb bytes.Buffer
	za := zip.NewWriter(&zb)
	fw, _ := za.Create("a.pgn")
	fw.Write(text)
	za.Close()
	pgn := write("a.pgn", text)
	gzf := write("a.pgn.gz", gz.Bytes())
	zipf := write("named.pgn", zb.Bytes()) // read by content, whatever the name
	for _, tt := range []struct {
		name  string
		files []string
		want  int64
	}{
		{"text", []string{pgn}, int64(len(text))},
		{"gzip", []string{gzf}, compressedRatio * int64(gz.Len())},
		{"zip", []string{zipf}, compressedRatio * int64(zb.Len())},
		{"both", []string{pgn, gzf}, int64(len(text)) + compressedRatio*int64(gz.Len())},
		{"missing", []string{filepath.Join(dir, "none")}, math.MaxInt64 / 4},
		{"not a file", []string{dir}, math.MaxInt64 / 4},
	} {
		if got := inputTextBytes(tt.files); got != tt.want {
			t.Errorf("%s: inputTextBytes = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestListingLine: a listing shows "?" for a missing name or date and
// leaves no separator for what is missing (issue 14).
func TestListingLine(t *testing.T) {
	for _, tt := range []struct {
		l    gameLineJSON
		want string
	}{
		{gameLineJSON{ID: 7, Date: "1990.05.01", Result: "1-0", Rating: 2550, White: "Hu", Black: "Lu", Event: "Cup", Opening: "C45", OpeningName: "Central cannon", Ply: 3},
			"      7  1990.05.01 1-0     2550  Hu – Lu, Cup, C45 Central cannon, ply 3"},
		{gameLineJSON{ID: 8, Result: "*", White: "Hu", Ply: -1},
			"      8  ?          *             Hu – ?"},
		{gameLineJSON{ID: 9, Date: "2001.??.??", Result: "0-1", Black: " ", Opening: "A00", Ply: -1},
			"      9  2001.??.?? 0-1           ? – ?, A00"},
	} {
		if got := listingLine(tt.l); got != tt.want {
			t.Errorf("listingLine:\n got %q\nwant %q", got, tt.want)
		}
	}
}

// TestMovesFromPastedPGN: --moves takes moves as pasted from a PGN (move
// numbers, 1..., results, check marks, comments, variations: the tokens
// are api.MoveTokens', tested in query/api), and its error names the move
// that is wrong (issue 14).
func TestMovesFromPastedPGN(t *testing.T) {
	db := ccpdDB(t)
	code, _, stderr := runCLI(t, "tree", "--db", db, "--game", "chess", "--moves", "e4 e5 Qxf7")
	if code != exitUsage || !strings.Contains(stderr, `"Qxf7"`) || strings.Contains(stderr, `"e5"`) {
		t.Errorf("bad --moves: exit %d, stderr %q; want 2 naming Qxf7", code, stderr)
	}
	code, out, stderr := runCLI(t, "tree", "--db", db, "--moves", "1. 炮二平五 马８进７ 2. 马二进三 *", "--json")
	if code != exitOK || !strings.Contains(out, `"games"`) {
		t.Errorf("pasted Chinese moves: exit %d, %s %s", code, out, stderr)
	}
}

// TestMirrorOnChessIsUsageError: chess positions have no mirror search
// (issue 14).
func TestMirrorOnChessIsUsageError(t *testing.T) {
	for _, cmd := range []string{"tree", "games"} {
		code, out, stderr := runCLI(t, cmd, "--db", t.TempDir(), "--game", "chess", "--moves", "e4", "--mirror")
		if code != exitUsage || out != "" || !strings.Contains(stderr, "--mirror is for Xiangqi") {
			t.Errorf("%s --mirror on chess: exit %d, stdout %q, stderr %q", cmd, code, out, stderr)
		}
	}
}
