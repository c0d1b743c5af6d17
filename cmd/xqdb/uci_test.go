package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

// uciSession feeds script to the UCI loop and returns its output lines.
func uciSession(t *testing.T, script string) []string {
	t.Helper()
	var out bytes.Buffer
	if err := uciLoop(strings.NewReader(script), &out); err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(out.String()), "\n")
}

func lastWith(lines []string, prefix string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], prefix) {
			return lines[i]
		}
	}
	return ""
}

func TestUCIHandshake(t *testing.T) {
	lines := uciSession(t, "uci\nisready\nquit\n")
	want := []string{"id name xqdb", "option name Hash type spin", "option name Threads type spin",
		"option name UCI_Variant type combo default chess var chess var xiangqi", "uciok", "readyok"}
	for _, w := range want {
		if lastWith(lines, w) == "" {
			t.Errorf("no line %q in %q", w, lines)
		}
	}
}

func TestUCIGo(t *testing.T) {
	cases := []struct {
		name, script, wantBest string
		check                  func(t *testing.T, lines []string)
	}{
		{"chess depth", "position startpos moves e2e4 e7e5\ngo depth 4\n", "", func(t *testing.T, lines []string) {
			info := lastWith(lines, "info depth 4 ")
			for _, f := range []string{" score cp ", " nodes ", " nps ", " time ", " pv "} {
				if !strings.Contains(info, f) {
					t.Errorf("info line %q lacks %q", info, f)
				}
			}
		}},
		{"chess nodes", "position startpos\ngo nodes 3000\n", "", nil},
		{"chess movetime", "position startpos\ngo movetime 100\n", "", nil},
		{"chess clock", "position startpos\ngo wtime 2000 btime 2000 winc 10 binc 10\n", "", nil},
		// A mate in one (from the tactics tests): the score says mate 1.
		{"chess mate", "position fen r2q3r/ppp2Bpp/8/2B1k2n/4P3/3P4/PPP3PP/R2b1RK1 w - - 0 15\ngo depth 3\n", "", func(t *testing.T, lines []string) {
			if !strings.Contains(lastWith(lines, "info depth"), "score mate 1 ") {
				t.Errorf("no mate score in %q", lastWith(lines, "info depth"))
			}
		}},
		{"xiangqi", "setoption name UCI_Variant value xiangqi\nposition startpos moves h3e3 h10g8\ngo depth 3\n", "", nil},
		{"xiangqi fen", "setoption name UCI_Variant value xiangqi\nposition fen 4k4/R8/9/9/9/9/9/9/8R/3K5 w - - 0 1\ngo depth 2\n", "", func(t *testing.T, lines []string) {
			if b := lastWith(lines, "bestmove"); b != "bestmove a9a10" && b != "bestmove i2i10" {
				t.Errorf("%s: want a mate on the 10th rank (a9a10 or i2i10)", b)
			}
		}},
		{"no legal move", "position fen R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1\ngo depth 2\n", "bestmove (none)", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lines := uciSession(t, c.script)
			best := lastWith(lines, "bestmove")
			if best == "" {
				t.Fatalf("no bestmove in %q", lines)
			}
			if c.wantBest != "" && best != c.wantBest {
				t.Errorf("%s, want %s", best, c.wantBest)
			}
			if c.check != nil {
				c.check(t, lines)
			}
			if strings.Contains(strings.Join(lines, "\n"), "error") {
				t.Errorf("error reported: %q", lines)
			}
		})
	}
}

func TestUCIBadInput(t *testing.T) {
	lines := uciSession(t, "position fen nonsense\nposition startpos moves e2e5\nsetoption name Hash value lots\nsetoption name UCI_Variant value shogi\nfoo\ngo depth 1\n")
	if n := strings.Count(strings.Join(lines, "\n"), "info string"); n != 5 {
		t.Errorf("want 5 complaints, got %d: %q", n, lines)
	}
	if lastWith(lines, "bestmove") == "" {
		t.Error("the session did not survive bad input")
	}
}

func TestUCIStop(t *testing.T) {
	pr, pw := io.Pipe()
	var out bytes.Buffer
	done := make(chan error)
	go func() { done <- uciLoop(pr, &out) }()
	io.WriteString(pw, "position startpos\ngo infinite\n")
	time.Sleep(200 * time.Millisecond)
	io.WriteString(pw, "stop\nisready\nquit\n")
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("stop did not end the search")
	}
	pw.Close()
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if lastWith(lines, "bestmove") == "" || lastWith(lines, "readyok") == "" {
		t.Errorf("after stop: %q", lines)
	}
}

// TestUCIXiangqiCoordinates: every legal move of positions along a game
// round-trips through Fairy-Stockfish's coordinates, which are ICCS with
// ranks counted from 1.
func TestUCIXiangqiCoordinates(t *testing.T) {
	p := xiangqi.NewStart()
	if m, err := parseUCIMove(p, "h3e3"); err != nil || p.FormatMove(m, engine.ICCS) != "h2e2" {
		t.Fatalf("h3e3 = %v %v, want ICCS h2e2", m, err)
	}
	for _, bad := range []string{"h3", "j3e3", "h0e3", "h11e3", "h3e3x", "e1e3"} {
		if _, err := parseUCIMove(p, bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	for _, mv := range strings.Fields("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 c6c5 c3c4") {
		for _, m := range p.AppendLegalMoves(nil) {
			got, err := parseUCIMove(p, formatUCIMove(p, m))
			if err != nil || got != m {
				t.Fatalf("%s: %s reads back as %v (%v)", p.FEN(), formatUCIMove(p, m), got, err)
			}
		}
		m, err := p.ParseMove(mv, engine.ICCS)
		if err != nil {
			t.Fatal(err)
		}
		p.Make(m)
	}
}

// TestUCIMovesFairyStockfishAccepts: moves xqdb plays in a Xiangqi game
// are legal moves to Fairy-Stockfish, in its own notation.
func TestUCIMovesFairyStockfishAccepts(t *testing.T) {
	fsf := enginetest.StartUCI(t, enginetest.FindEngine(t, "fairy-stockfish"), map[string]string{"UCI_Variant": "xiangqi"})
	moves := ""
	for ply := 0; ply < 12; ply++ {
		lines := uciSession(t, "setoption name UCI_Variant value xiangqi\nposition startpos moves"+moves+"\ngo depth 2\n")
		best := strings.TrimPrefix(lastWith(lines, "bestmove"), "bestmove ")
		divide, _ := fsf.PerftDivide("startpos moves"+moves, 1)
		if _, ok := divide[best]; !ok {
			t.Fatalf("after%s xqdb plays %s, not a move to Fairy-Stockfish", moves, best)
		}
		moves += " " + best
	}
}

// FuzzUCICommand: no command line panics the session (searches aside,
// which the fuzzer would start without end).
func FuzzUCICommand(f *testing.F) {
	for _, s := range []string{"position startpos moves e2e4", "position fen 4k4/R8/9/9/9/9/9/9/8R/3K5 w - - 0 1 moves a9a10",
		"setoption name UCI_Variant value xiangqi", "setoption name Hash value 2", "position fen", "ucinewgame", "h3e3", "a10a9"} {
		f.Add(true, s)
		f.Add(false, s)
	}
	f.Fuzz(func(t *testing.T, xq bool, line string) {
		e := &uciEngine{out: bufio.NewWriter(io.Discard), game: engine.Chess, hashMB: 1}
		if xq {
			e.game = engine.Xiangqi
		}
		e.reset()
		if f := strings.Fields(line); len(f) > 0 && f[0] == "go" {
			return
		}
		e.command(line)
		parseUCIMove(e.pos, line)
	})
}

// TestUCISearchAfterSearchKeepsItsBudget: a search that ended on its own
// leaves nothing that stops the next one early. A GUI sends "position"
// after each bestmove, and that used to stop the next search after 1,024
// nodes whatever "go nodes" asked.
func TestUCISearchAfterSearchKeepsItsBudget(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		_ = uciLoop(inR, outW)
		outW.Close()
	}()
	sc := bufio.NewScanner(outR)
	send := func(s string) { io.WriteString(inW, s+"\n") }
	search := func() (depth, nodes int) {
		send("position startpos moves h3e3 h10g8 h1g3 i10h10")
		send("go nodes 20000")
		for sc.Scan() {
			l := sc.Text()
			if strings.HasPrefix(l, "bestmove") {
				return depth, nodes
			}
			f := strings.Fields(l)
			for i := 0; i+1 < len(f); i++ {
				switch f[i] {
				case "depth":
					fmt.Sscan(f[i+1], &depth)
				case "nodes":
					fmt.Sscan(f[i+1], &nodes)
				}
			}
		}
		t.Fatal("no bestmove")
		return 0, 0
	}
	send("setoption name UCI_Variant value xiangqi")
	for i := 0; i < 3; i++ {
		if d, n := search(); n < 2000 {
			t.Errorf("search %d: last iteration depth %d after %d nodes of 20,000", i+1, d, n)
		}
	}
	send("quit")
	inW.Close()
}
