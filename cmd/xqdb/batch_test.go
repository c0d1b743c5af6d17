package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGamesBatch: games --batch lists, at every position of the file, the
// games that games --fen lists there alone (same order, same page), with
// the time taken; a line that does not set up says why and the batch goes
// on; a line naming an unknown game is a usage error.
func TestGamesBatch(t *testing.T) {
	db := ccpdDB(t)
	sample := samplePositions(t, db, 40)
	bad := filepath.Join(t.TempDir(), "bad.txt")
	data, err := os.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, append([]byte("xiangqi\tnot a fen\n"), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "games", "--db", db, "--batch", bad, "--limit", "5", "--sort", "date")
	if code != exitOK {
		t.Fatalf("games --batch: exit %d: %s", code, stderr)
	}
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<24)
	var lines []gamesBatchLine
	for sc.Scan() {
		var l gamesBatchLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l)
	}
	want := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != len(want)+1 {
		t.Fatalf("%d answers for %d lines", len(lines), len(want)+1)
	}
	if lines[0].Error == "" || lines[0].FEN != "not a fen" {
		t.Errorf("bad line answered %+v, want its FEN and an error", lines[0])
	}
	found := 0
	for i, l := range lines[1:] {
		game, fen, _ := strings.Cut(want[i], "\t")
		if l.FEN != fen || l.Error != "" {
			t.Fatalf("line %d: fen %q error %q, want %q", i+2, l.FEN, l.Error, fen)
		}
		code, one, stderr := runCLI(t, "games", "--db", db, "--game", game, "--fen", fen, "--limit", "5", "--sort", "date", "--json")
		if code != exitOK {
			t.Fatalf("games --fen %s: exit %d: %s", fen, code, stderr)
		}
		got, _ := json.Marshal(l.gamesJSON)
		if strings.TrimSpace(one) != string(got) {
			t.Errorf("%s: batch answered\n%s\nalone\n%s", fen, got, one)
		}
		if l.Total > 0 {
			found++
		}
	}
	if found < len(want)/2 {
		t.Errorf("only %d of %d sampled positions have games", found, len(want))
	}
	if code, _, _ := runCLI(t, "games", "--db", db, "--batch", writeTemp(t, "shogi\tx\n")); code != exitUsage {
		t.Errorf("unknown game in a batch line: exit %d, want %d", code, exitUsage)
	}
}

func writeTemp(t *testing.T, s string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "f.txt")
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
