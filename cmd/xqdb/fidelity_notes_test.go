package main

import (
	"compress/gzip"
	"encoding/binary"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/engine/movetext"
	"github.com/xqdb/xqdb/importer"
	"github.com/xqdb/xqdb/replay"
)

// renderNotes writes a line's moves (as wire codes) and notes, comments
// with their white space folded: what two PGN writers must agree on.
func renderNotes(b *strings.Builder, g engine.Game, moves []engine.Move, notes []movetext.Note) {
	ni := 0
	flush := func(at int) {
		for ; ni < len(notes) && notes[ni].At == at; ni++ {
			switch n := notes[ni]; n.Kind {
			case movetext.Comment:
				b.WriteString(" {" + strings.Join(strings.Fields(strings.NewReplacer("{", "(", "}", ")").Replace(n.Text)), " ") + "}")
			case movetext.NAG:
				b.WriteString(" $" + strconv.Itoa(int(n.NAG)))
			case movetext.Variation:
				b.WriteString(" (")
				renderNotes(b, g, n.Line.Moves, n.Line.Notes)
				b.WriteString(" )")
			}
		}
	}
	flush(0)
	for i, m := range moves {
		b.WriteString(" " + strconv.Itoa(int(games.WireCode(g, m))))
		flush(i + 1)
	}
}

// notesByGame replays every record of PGN files and keys its rendered
// notes by players and moves; games whose key repeats are left out (an
// import stores one of them).
func notesByGame(t *testing.T, paths ...string) map[string]string {
	t.Helper()
	out, seen := map[string]string{}, map[string]bool{}
	for _, path := range paths {
		notesOfFile(t, path, out, seen)
	}
	return out
}

func notesOfFile(t *testing.T, path string, out map[string]string, seen map[string]bool) {
	r, err := importer.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var rp replay.Replayer
	for rec, err := range r.All() {
		if rec == nil {
			if err != nil && !strings.Contains(err.Error(), "pgn") {
				t.Fatal(err)
			}
			continue
		}
		var g replay.Game
		if rp.Replay(rec, &g) != nil || len(g.Moves) == 0 {
			continue
		}
		h := replay.Hash(&g)
		key := rec.Tag("White") + "|" + rec.Tag("Black") + "|" + string(binary.BigEndian.AppendUint64(nil, uint64(len(g.Moves)))) + string(h[:])
		if seen[key] {
			delete(out, key)
			continue
		}
		seen[key] = true
		var b strings.Builder
		renderNotes(&b, g.Game, g.Moves, g.Notes)
		out[key] = b.String()
	}
}

// readMaybeGzip reads a file, gunzipped when its name ends in .gz.
func readMaybeGzip(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		if r, err = gzip.NewReader(f); err != nil {
			return nil, err
		}
	}
	return io.ReadAll(r)
}

// TestExportKeepsNotesAsPGNExtract: the games of chess_db's collections
// (Chess Informant annotations, old web collections: comments, NAGs,
// nested variations, null moves), imported and exported, carry the same
// comments, NAGs and variations as pgn-extract's own output of the same
// files (pgn-extract --allownullmoves -s), game by game.
func TestExportKeepsNotesAsPGNExtract(t *testing.T) {
	tool, err := exec.LookPath("pgn-extract")
	if err != nil {
		if tool, err = exec.LookPath("/usr/games/pgn-extract"); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatal("pgn-extract is not installed (apt-get install pgn-extract); CI must have it")
			}
			t.Skip("pgn-extract is not installed")
		}
	}
	src := enginetest.SharedData(t, "chess/chess_db-pgn")
	dir := t.TempDir()
	files, _ := filepath.Glob(filepath.Join(src, "*.pgn*"))
	var plain []string
	for _, f := range files { // pgn-extract reads no gzip
		p := filepath.Join(dir, strings.TrimSuffix(filepath.Base(f), ".gz"))
		data, err := readMaybeGzip(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		plain = append(plain, p)
	}
	theirs := filepath.Join(dir, "pgn-extract.pgn")
	cmd := exec.Command(tool, append([]string{"--allownullmoves", "-s", "-o", theirs}, plain...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pgn-extract: %v\n%s", err, out)
	}
	db := filepath.Join(dir, "db")
	importJSON(t, append([]string{"--db", db}, plain...)...)
	ours := filepath.Join(dir, "export.pgn")
	if code, _, stderr := runCLI(t, "export", "--db", db, "-o", ours); code != exitOK {
		t.Fatalf("export: %s", stderr)
	}
	a, b, once := notesByGame(t, theirs), notesByGame(t, ours), notesByGame(t, plain...)
	compared, differ := 0, 0
	for key, want := range a {
		got, ok := b[key]
		if _, single := once[key]; !ok || !single {
			continue
		}
		compared++
		if got != want {
			differ++
			if differ <= 3 {
				t.Errorf("game %q:\n ours %s\nwant %s", strings.SplitN(key, "|", 3)[:2], got, want)
			}
		}
	}
	t.Logf("%d games compared, %d differ", compared, differ)
	if compared < 2000 || differ > 0 {
		t.Errorf("%d games compared, %d differ", compared, differ)
	}
}
