package chess

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// stockfishPath finds Stockfish on PATH or in /usr/games (Debian). Without
// it the test is skipped, unless CI is set: then it fails.
func stockfishPath(tb testing.TB) string {
	tb.Helper()
	if p, err := exec.LookPath("stockfish"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/games/stockfish"); err == nil {
		return "/usr/games/stockfish"
	}
	if os.Getenv("CI") != "" {
		tb.Fatalf("stockfish not found on PATH or in /usr/games (CI=%s)", os.Getenv("CI"))
	}
	tb.Skip("stockfish not found on PATH or in /usr/games; skipping (apt-get install stockfish; CI=true makes this a failure)")
	return ""
}

// uciEngine talks to a UCI engine over pipes.
type uciEngine struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

func startEngine(tb testing.TB, path string) *uciEngine {
	tb.Helper()
	cmd := exec.Command(path)
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	e := &uciEngine{cmd: cmd, in: in, out: bufio.NewScanner(out)}
	tb.Cleanup(func() {
		fmt.Fprintln(e.in, "quit")
		e.in.Close()
		e.cmd.Wait()
	})
	e.send(tb, "uci")
	e.readUntil(tb, "uciok")
	return e
}

func (e *uciEngine) send(tb testing.TB, line string) {
	if _, err := fmt.Fprintln(e.in, line); err != nil {
		tb.Fatalf("write to engine: %v", err)
	}
}

// readUntil returns the lines before the first one starting with prefix,
// and that line.
func (e *uciEngine) readUntil(tb testing.TB, prefix string) ([]string, string) {
	var lines []string
	for e.out.Scan() {
		line := strings.TrimSpace(e.out.Text())
		if strings.HasPrefix(line, prefix) {
			return lines, line
		}
		lines = append(lines, line)
	}
	tb.Fatalf("engine output ended before %q: %v", prefix, e.out.Err())
	return nil, ""
}

// perftDivide runs "go perft depth" and returns Stockfish's per-move counts.
func (e *uciEngine) perftDivide(tb testing.TB, fen string, depth int) (map[string]uint64, uint64) {
	e.send(tb, "position fen "+fen)
	e.send(tb, "go perft "+strconv.Itoa(depth))
	lines, last := e.readUntil(tb, "Nodes searched:")
	div := map[string]uint64{}
	for _, l := range lines {
		mv, n, ok := strings.Cut(l, ": ")
		if !ok {
			continue
		}
		if v, err := strconv.ParseUint(n, 10, 64); err == nil {
			div[mv] = v
		}
	}
	total, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimPrefix(last, "Nodes searched:")), 10, 64)
	return div, total
}

// TestStockfishDivide compares PerftDivide(3) with Stockfish's "go perft 3"
// listing, move by move, on positions sampled from master games: every
// 40th ply, plus every position with an e.p. capture, a promotion or a
// castling move available, or the side to move in check (up to 150 of
// those).
func TestStockfishDivide(t *testing.T) {
	sf := startEngine(t, stockfishPath(t))
	games := pgnmentorGames(t)
	var fens []string
	special := 0
	n := 0
	var buf [maxMoves]engine.Move
	replayPositions(t, games, func(p *Position, _ string) {
		n++
		interesting := p.EPSquare() != NoSquare || p.InCheck()
		for _, m := range p.AppendLegalMoves(buf[:0]) {
			if movePromo(m) != NoPieceType || p.b.isCastle(m) && n%4 == 0 {
				interesting = true
			}
		}
		switch {
		case interesting && special < 150:
			special++
			fens = append(fens, p.FEN())
		case n%40 == 0:
			fens = append(fens, p.FEN())
		}
	})
	if len(fens) < 300 {
		t.Fatalf("only %d positions sampled, want at least 300", len(fens))
	}
	for _, fen := range fens {
		want, wantTotal := sf.perftDivide(t, fen, 3)
		got := map[string]uint64{}
		var total uint64
		for _, d := range mustFEN(t, fen).PerftDivide(3) {
			got[UCI(d.Move)] = d.Nodes
			total += d.Nodes
		}
		same := total == wantTotal && len(got) == len(want)
		for m, n := range want {
			same = same && got[m] == n
		}
		if same {
			continue
		}
		t.Errorf("%s: perft 3 = %d over %d moves, stockfish %d over %d", fen, total, len(got), wantTotal, len(want))
		for m, n := range want {
			if got[m] != n {
				t.Errorf("  %s: ours %d, stockfish %d", m, got[m], n)
			}
		}
		for m := range got {
			if _, ok := want[m]; !ok {
				t.Errorf("  %s: ours only", m)
			}
		}
	}
	t.Logf("%d positions (%d special) agree with stockfish", len(fens), special)
}
