package enginetest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// UCI drives a UCI engine process (Stockfish, Fairy-Stockfish) for
// cross-checks in tests.
type UCI struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// FindEngine returns the path of a reference engine binary, looking in PATH
// and /usr/games (where Debian installs them). It skips the test when the
// engine is missing and CI is unset, and fails it under CI=true.
func FindEngine(tb testing.TB, name string) string {
	tb.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	p := "/usr/games/" + name
	if _, err := os.Stat(p); err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		tb.Fatalf("%s is not installed (apt-get install %s); CI must have it", name, name)
	}
	tb.Skipf("%s is not installed (apt-get install %s); skipping the cross-check", name, name)
	return ""
}

// StartUCI starts the engine at path and performs the uci handshake.
// options are sent as "setoption name K value V".
func StartUCI(tb testing.TB, path string, options map[string]string) *UCI {
	tb.Helper()
	cmd := exec.Command(path)
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatalf("start %s: %v", path, err)
	}
	u := &UCI{cmd: cmd, in: in, out: bufio.NewScanner(stdout)}
	u.out.Buffer(make([]byte, 1<<16), 1<<20)
	tb.Cleanup(u.Close)
	u.Send("uci")
	u.ReadUntil("uciok")
	for k, v := range options {
		u.Send(fmt.Sprintf("setoption name %s value %s", k, v))
	}
	u.Send("isready")
	u.ReadUntil("readyok")
	return u
}

// Send writes one command line.
func (u *UCI) Send(line string) { fmt.Fprintln(u.in, line) }

// ReadUntil returns the lines read before one that starts with prefix
// (that line is returned last).
func (u *UCI) ReadUntil(prefix string) []string {
	var lines []string
	for u.out.Scan() {
		l := u.out.Text()
		lines = append(lines, l)
		if strings.HasPrefix(l, prefix) {
			return lines
		}
	}
	return lines
}

// PerftDivide runs "go perft depth" on the position given as a UCI
// "position ..." argument and returns the per-move counts and the total, as
// the engine printed them.
func (u *UCI) PerftDivide(position string, depth int) (map[string]uint64, uint64) {
	u.Send("position " + position)
	u.Send(fmt.Sprintf("go perft %d", depth))
	divide := map[string]uint64{}
	var total uint64
	for _, l := range u.ReadUntil("Nodes searched") {
		if strings.HasPrefix(l, "Nodes searched") {
			total, _ = strconv.ParseUint(strings.TrimSpace(strings.TrimPrefix(l, "Nodes searched:")), 10, 64)
			continue
		}
		mv, n, ok := strings.Cut(l, ": ")
		if !ok {
			continue
		}
		if v, err := strconv.ParseUint(strings.TrimSpace(n), 10, 64); err == nil {
			divide[mv] = v
		}
	}
	return divide, total
}

// Close ends the engine process.
func (u *UCI) Close() {
	u.Send("quit")
	u.in.Close()
	_ = u.cmd.Wait()
}
