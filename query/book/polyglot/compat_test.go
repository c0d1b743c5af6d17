package polyglot_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/query/book"
	"github.com/xqdb/xqdb/query/book/polyglot"
	"github.com/xqdb/xqdb/replay"
)

// polyglotPath finds Debian's polyglot (package polyglot, /usr/games);
// under CI its absence fails the test (.ci/run installs it).
func polyglotPath(t *testing.T) string {
	for _, p := range []string{"/usr/games/polyglot", "/usr/bin/polyglot"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("polyglot"); err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatal("polyglot is not installed (apt-get install polyglot)")
	}
	t.Skip("polyglot is not installed (apt-get install polyglot)")
	return ""
}

// gunzip writes the plain text of a shared .pgn.gz file into dir.
func gunzip(t *testing.T, src, dir string) string {
	t.Helper()
	out := filepath.Join(dir, filepath.Base(src[:len(src)-3]))
	cmd := exec.Command("sh", "-c", `gzip -dc "$1" > "$2"`, "sh", src, out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gunzip %s: %v %s", src, err, b)
	}
	return out
}

func buildCompat(t *testing.T, pgn string, opt polyglot.Options) []byte {
	t.Helper()
	b := polyglot.NewBuilder(opt)
	err := book.ReadGames([]string{pgn}, engine.Chess, func(g *replay.Game) error {
		return b.AddGame(g.StartFEN, g.Moves, g.Result)
	}, func(err error) { t.Errorf("%s: skipped: %v", pgn, err) })
	if err != nil {
		t.Fatal(err)
	}
	return polyglot.Append(nil, b.Entries())
}

// TestMakeBookCompat: with --polyglot-compat the file is byte for byte the
// one Debian's polyglot make-book writes from the same PGN and options.
func TestMakeBookCompat(t *testing.T) {
	pg := polyglotPath(t)
	dir := enginetest.SharedData(t, "chess/pgnmentor-players")
	tmp := t.TempDir()
	// Carlsen's file has no FEN games and no illegal move: polyglot builds it
	// cleanly (it aborts at the first illegal move).
	files := []string{"Morphy.pgn.gz", "Capablanca.pgn.gz", "Carlsen.pgn.gz"}
	cases := []struct {
		name string
		args []string
		opt  polyglot.Options
	}{
		{"defaults", nil, polyglot.Options{MinGame: 3, MaxPly: 1024, Compat: true}},
		{"min-game 1, max-ply 12", []string{"-min-game", "1", "-max-ply", "12"}, polyglot.Options{MinGame: 1, MaxPly: 12, Compat: true}},
		{"only-white min-score 50", []string{"-only-white", "-min-score", "50", "-min-game", "2"}, polyglot.Options{MinGame: 2, MaxPly: 1024, OnlyWhite: true, MinScore: 0.5, Compat: true}},
		{"only-black uniform", []string{"-only-black", "-uniform"}, polyglot.Options{MinGame: 3, MaxPly: 1024, OnlyBlack: true, Uniform: true, Compat: true}},
	}
	pgns := map[string]string{"halving.pgn": halvingPGN(t, tmp)}
	for _, f := range files {
		pgns[f] = gunzip(t, filepath.Join(dir, f), tmp)
	}
	for _, f := range append(files, "halving.pgn") {
		pgn := pgns[f]
		for i, c := range cases {
			if f == "Carlsen.pgn.gz" && i > 1 {
				continue // the largest file: two cases keep the test short
			}
			t.Run(f+"/"+c.name, func(t *testing.T) {
				bin := filepath.Join(tmp, "peer.bin")
				args := append([]string{"make-book", "-pgn", pgn, "-bin", bin}, c.args...)
				if out, err := exec.Command(pg, args...).CombinedOutput(); err != nil {
					t.Fatalf("polyglot: %v\n%s", err, out)
				}
				want, err := os.ReadFile(bin)
				if err != nil {
					t.Fatal(err)
				}
				got := buildCompat(t, pgn, c.opt)
				if !bytes.Equal(got, want) {
					diffBooks(t, got, want)
				}
			})
		}
	}
}

func diffBooks(t *testing.T, got, want []byte) {
	t.Helper()
	g, _ := polyglot.Parse(got)
	w, _ := polyglot.Parse(want)
	t.Errorf("book differs: %d entries, polyglot wrote %d", len(g), len(w))
	for i := 0; i < len(g) && i < len(w); i++ {
		if g[i] != w[i] {
			t.Errorf("first difference at entry %d: got %+v, polyglot %+v", i, g[i], w[i])
			return
		}
	}
}

// halvingPGN writes 25,000 short games: more than CountMax through the
// start position's 1.e4, so make-book halves its statistics (twice for
// 1.e4, with uneven results so the rounding shows).
func halvingPGN(t *testing.T, dir string) string {
	var buf bytes.Buffer
	results := []string{"1-0", "0-1", "1/2-1/2", "*", "1-0"}
	lines := []string{"1. e4 e5 2. Nf3 Nc6", "1. e4 c5 2. Nf3 d6", "1. d4 d5 2. c4 e6", "1. e4 e5 2. Nf3 Nf6 3. Nxe5 d6 4. Nf3 Nxe4", "1. e4 e6 2. Nf3 Nf6 3. Ng1 Ng8 4. Nf3 Nf6"}
	for i := 0; i < 25000; i++ {
		r := results[i%len(results)]
		fmt := "[Event \"synthetic\"]\n[Result \"" + r + "\"]\n\n" + lines[(i/3)%len(lines)] + " " + r + "\n\n"
		buf.WriteString(fmt)
	}
	p := filepath.Join(dir, "halving.pgn")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
