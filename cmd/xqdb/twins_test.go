package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// pgnGame writes one chess game with the given tags and the same moves
// (a short mate) unless moves is set.
func pgnGame(white, black, date, result, moves string) string {
	if moves == "" {
		moves = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#"
	}
	return fmt.Sprintf("[Event \"Test\"]\n[White %q]\n[Black %q]\n[Date %q]\n[Result %q]\n\n%s %s\n\n", white, black, date, result, moves, result)
}

func importJSON(t *testing.T, args ...string) importSummary {
	t.Helper()
	code, out, stderr := runCLI(t, append([]string{"import", "--json"}, args...)...)
	var sum importSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil || code != exitOK {
		t.Fatalf("import %v: exit %d: %s %v", args, code, stderr, err)
	}
	return sum
}

// A duplicate agrees on the moves and on the metadata (result, date where
// both are known, players after folding), as SCID's twin check asks; any
// other game with the same moves is stored (issue 13, point 2).
func TestDedupeComparesMetadata(t *testing.T) {
	base := pgnGame("Carlsen, Magnus", "Nakamura, Hikaru", "2020.05.01", "1-0", "")
	tests := []struct {
		name string
		pgn  string
		dup  bool // a duplicate of base under --dedupe game
	}{
		{"same record", base, true},
		{"other white", pgnGame("Caruana, Fabiano", "Nakamura, Hikaru", "2020.05.01", "1-0", ""), false},
		{"other black", pgnGame("Carlsen, Magnus", "So, Wesley", "2020.05.01", "1-0", ""), false},
		{"other result", pgnGame("Carlsen, Magnus", "Nakamura, Hikaru", "2020.05.01", "0-1", ""), false},
		{"other day", pgnGame("Carlsen, Magnus", "Nakamura, Hikaru", "2020.05.02", "1-0", ""), false},
		{"other year", pgnGame("Carlsen, Magnus", "Nakamura, Hikaru", "2019.??.??", "1-0", ""), false},
		{"date unknown", pgnGame("Carlsen, Magnus", "Nakamura, Hikaru", "????.??.??", "1-0", ""), true},
		{"only the year", pgnGame("Carlsen, Magnus", "Nakamura, Hikaru", "2020.??.??", "1-0", ""), true},
		{"first name first", pgnGame("Magnus Carlsen", "Hikaru Nakamura", "2020.05.01", "1-0", ""), true},
		{"initials", pgnGame("Carlsen, M.", "Nakamura,H", "2020.05.01", "1-0", ""), true},
		{"initial first", pgnGame("M. Carlsen", "H. Nakamura", "2020.05.01", "1-0", ""), true},
		{"case and marks", pgnGame("CARLSÉN, Magnus", "nakamura, hikaru", "2020.05.01", "1-0", ""), true},
		{"other initial", pgnGame("Carlsen, H.", "Nakamura, Hikaru", "2020.05.01", "1-0", ""), false},
		{"other moves", pgnGame("Carlsen, Magnus", "Nakamura, Hikaru", "2020.05.01", "1-0", "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			a, b := filepath.Join(dir, "a.pgn"), filepath.Join(dir, "b.pgn")
			if err := os.WriteFile(a, []byte(base), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(b, []byte(tc.pgn), 0o644); err != nil {
				t.Fatal(err)
			}
			// In one import (the second copy repeats the first's move text)
			// and in two.
			one := importJSON(t, "--db", filepath.Join(dir, "one"), a, b)
			importJSON(t, "--db", filepath.Join(dir, "two"), a)
			two := importJSON(t, "--db", filepath.Join(dir, "two"), b)
			want := 1
			if tc.dup {
				want = 0
			}
			if one.Added != 1+want || two.Added != want {
				t.Fatalf("added %d in one import and %d by the second, want %d and %d", one.Added, two.Added, 1+want, want)
			}
			// Re-importing adds nothing.
			if again := importJSON(t, "--db", filepath.Join(dir, "two"), a, b); again.Added != 0 {
				t.Fatalf("re-import added %d", again.Added)
			}
			// --dedupe moves keeps the old rule: the same moves are one game.
			moves := importJSON(t, "--db", filepath.Join(dir, "moves"), "--dedupe", "moves", a, b)
			wantMoves := 1
			if tc.name == "other moves" {
				wantMoves = 2
			}
			if moves.Added != wantMoves {
				t.Fatalf("--dedupe moves added %d, want %d", moves.Added, wantMoves)
			}
		})
	}
}

func TestDedupeFlagIsChecked(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runCLI(t, "import", "--db", filepath.Join(dir, "db"), "--dedupe", "names", fixture("ccpd-masters-3001.pgn.gz"))
	if code != exitUsage || !strings.Contains(stderr, "--dedupe") {
		t.Fatalf("exit %d, stderr %q; want a usage error naming --dedupe", code, stderr)
	}
}

// twins lists games with the same moves and other metadata, for a person
// to decide on.
func TestTwinsListsGroups(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.pgn")
	pgn := pgnGame("Spielmann, Rudolf", "Alekhine, Alexander", "1922.??.??", "0-1", "1. d4 Nf6 2. c4 e6") +
		pgnGame("Spielmann, R.", "Alekhine, A.", "1922.??.??", "*", "1. d4 Nf6 2. c4 e6") +
		pgnGame("Korchnoi, Viktor", "Geller, Efim", "1954.??.??", "1/2-1/2", "1. c4 c5 2. Nc3 Nc6") +
		pgnGame("Flohr, Salo", "Suetin, Alexey", "1954.??.??", "1/2-1/2", "1. c4 c5 2. Nc3 Nc6") +
		pgnGame("Flohr, S.", "Suetin, A.", "1954.??.??", "1/2-1/2", "1. c4 c5 2. Nc3 Nc6") + // a twin: not stored
		pgnGame("Tal, Mikhail", "Petrosian, Tigran", "1960.??.??", "1/2-1/2", "1. e4 c6 2. d4 d5")
	if err := os.WriteFile(a, []byte(pgn), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "db")
	if sum := importJSON(t, "--db", db, a); sum.Added != 5 || sum.Duplicates != 1 {
		t.Fatalf("import: %+v, want 5 added, 1 duplicate", sum)
	}
	code, out, stderr := runCLI(t, "twins", "--db", db, "--json")
	if code != exitOK {
		t.Fatalf("twins: exit %d: %s", code, stderr)
	}
	var got twinsJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	var groups []string
	for _, g := range got.Groups {
		var ids []string
		for _, m := range g.Games {
			ids = append(ids, fmt.Sprintf("%d %s-%s %s %s %s", m.ID, m.White, m.Black, m.Date, m.Result, filepath.Base(m.Source)))
		}
		groups = append(groups, strings.Join(ids, "; "))
	}
	want := []string{
		"1 Spielmann, Rudolf-Alekhine, Alexander 1922.??.?? 0-1 a.pgn; 2 Spielmann, R.-Alekhine, A. 1922.??.?? * a.pgn",
		"3 Korchnoi, Viktor-Geller, Efim 1954.??.?? 1/2-1/2 a.pgn; 4 Flohr, Salo-Suetin, Alexey 1954.??.?? 1/2-1/2 a.pgn",
	}
	if !slices.Equal(groups, want) || got.Total != 2 {
		t.Fatalf("twins (%d groups):\n%s\nwant:\n%s", got.Total, strings.Join(groups, "\n"), strings.Join(want, "\n"))
	}
	// --query keeps the groups with a matching game; --limit cuts the list.
	code, out, _ = runCLI(t, "twins", "--db", db, "--query", "geller")
	if code != exitOK || !strings.Contains(out, "Korchnoi") || strings.Contains(out, "Spielmann") {
		t.Fatalf("twins --query geller: exit %d:\n%s", code, out)
	}
	code, out, _ = runCLI(t, "twins", "--db", db, "--limit", "1", "--json")
	got = twinsJSON{}
	if err := json.Unmarshal([]byte(out), &got); code != exitOK || err != nil || len(got.Groups) != 1 || got.Total != 2 {
		t.Fatalf("twins --limit 1: exit %d, %d of %d groups", code, len(got.Groups), got.Total)
	}
}
