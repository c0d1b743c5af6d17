package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/engine/search"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

var uciCommand = &cli.Command{
	Name:      "uci",
	Usage:     "play as a UCI engine on standard input and output (chess, or Xiangqi as Fairy-Stockfish speaks it)",
	ArgsUsage: " ",
	Description: `Speaks the Universal Chess Interface, so GUIs and match tools (cutechess-cli,
fastchess, bench/match) can use xqdb's own search (engine/search).

Chess by default. After "setoption name UCI_Variant value xiangqi" it plays
Xiangqi with Fairy-Stockfish's coordinates: files a-i and ranks 1-10 from
Red's side (h3e3 is ICCS h2e2), so a script that drives Fairy-Stockfish
drives xqdb unchanged.

Commands: uci, isready, setoption (Hash in MB, Threads (one search thread),
UCI_Variant chess|xiangqi, XiangqiRules vn|asian), ucinewgame,
position startpos|fen FEN [moves ...], go [nodes N] [depth D] [movetime MS]
[wtime MS btime MS winc MS binc MS movestogo N] [infinite], stop, quit.

Example:
   printf 'uci\nsetoption name UCI_Variant value xiangqi\nposition startpos\ngo depth 6\n' | xqdb uci`,
	Action: func(c *cli.Context) error {
		if c.NArg() > 0 {
			return usagef("uci: no arguments expected")
		}
		return uciLoop(c.App.Reader, c.App.Writer)
	},
}

// uciEngine is the state of one UCI session.
type uciEngine struct {
	mu      sync.Mutex // guards out
	out     *bufio.Writer
	game    engine.Game
	hashMB  int
	rules   xiangqi.Rules
	s       *search.Searcher
	pos     engine.Position
	running sync.WaitGroup
	busy    bool // a search was started and not waited for
}

// uciLoop reads UCI commands from in until quit or end of input.
func uciLoop(in io.Reader, out io.Writer) error {
	e := &uciEngine{out: bufio.NewWriter(out), game: engine.Chess, hashMB: 16}
	e.reset()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<16), 1<<22)
	for sc.Scan() {
		if !e.command(sc.Text()) {
			e.stop()
			return nil
		}
	}
	// End of input without quit: let a running search finish and print its
	// move, as a script piping commands in expects.
	e.running.Wait()
	return sc.Err()
}

func (e *uciEngine) send(format string, args ...any) {
	e.mu.Lock()
	fmt.Fprintf(e.out, format+"\n", args...)
	e.out.Flush()
	e.mu.Unlock()
}

// reset sets up a searcher for the current game and the start position.
func (e *uciEngine) reset() {
	e.s = search.New(e.game, e.hashMB)
	e.s.SetRules(e.rules)
	e.pos, _ = games.New(e.game, "")
}

// stop ends a running search and waits for its bestmove.
func (e *uciEngine) stop() {
	if e.busy {
		e.s.Stop()
		e.running.Wait()
		// The search may have ended on its own before Stop: the request
		// would then end the next search after its first 1,024 nodes.
		e.s.ClearStop()
		e.busy = false
	}
}

// command handles one line; it returns false on quit.
func (e *uciEngine) command(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return true
	}
	switch f[0] {
	case "uci":
		e.send("id name xqdb")
		e.send("id author the xqdb authors")
		e.send("option name Hash type spin default 16 min 1 max 4096")
		e.send("option name Threads type spin default 1 min 1 max 1")
		e.send("option name UCI_Variant type combo default chess var chess var xiangqi")
		e.send("option name XiangqiRules type combo default vn var vn var asian")
		e.send("uciok")
	case "isready":
		e.send("readyok")
	case "setoption":
		e.stop()
		e.setOption(line)
	case "ucinewgame":
		e.stop()
		e.s.Clear()
	case "position":
		e.stop()
		if err := e.setPosition(f[1:]); err != nil {
			e.send("info string error: %v", err)
		}
	case "go":
		e.stop()
		e.goSearch(f[1:])
	case "stop":
		e.stop()
	case "quit":
		return false
	case "ponderhit", "debug", "register":
		// nothing to do: xqdb does not ponder
	default:
		e.send("info string unknown command %q", f[0])
	}
	return true
}

// setOption reads "setoption name N [value V]"; names may hold spaces.
func (e *uciEngine) setOption(line string) {
	rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "setoption"))
	rest = strings.TrimSpace(strings.TrimPrefix(rest, "name"))
	name, value, _ := strings.Cut(rest, " value ")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	switch strings.ToLower(name) {
	case "hash":
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 || n > 4096 {
			e.send("info string error: Hash %q: want 1 to 4096 (MB)", value)
			return
		}
		e.hashMB = n
		e.s.SetHash(n)
	case "threads":
		// One search thread: the option exists so match tools may set it.
	case "uci_variant":
		g, err := engine.ParseGame(value)
		if err != nil {
			e.send("info string error: UCI_Variant %q: want chess or xiangqi", value)
			return
		}
		if g != e.game {
			e.game = g
			e.reset()
		}
	case "xiangqirules":
		p, err := xiangqi.ParseProfile(value)
		if err != nil {
			e.send("info string error: %v", err)
			return
		}
		e.rules.Profile = p
		e.s.SetRules(e.rules)
	default:
		e.send("info string unknown option %q", name)
	}
}

// setPosition reads "startpos|fen FEN... [moves m...]".
func (e *uciEngine) setPosition(args []string) error {
	fen := ""
	i := 0
	switch {
	case len(args) > 0 && args[0] == "startpos":
		i = 1
	case len(args) > 0 && args[0] == "fen":
		i = 1
		for i < len(args) && args[i] != "moves" {
			i++
		}
		fen = strings.Join(args[1:i], " ")
	default:
		return fmt.Errorf("position: want startpos or fen")
	}
	p, err := games.New(e.game, fen)
	if err != nil {
		return err
	}
	if i < len(args) && args[i] == "moves" {
		for _, tok := range args[i+1:] {
			m, err := parseUCIMove(p, tok)
			if err != nil {
				return err
			}
			p.Make(m)
		}
	}
	e.pos = p
	return nil
}

// goSearch starts a search in the background; it prints bestmove when done.
func (e *uciEngine) goSearch(args []string) {
	var lim search.Limits
	var wtime, btime, winc, binc, movestogo int64
	num := func(i int) int64 {
		if i+1 < len(args) {
			n, _ := strconv.ParseInt(args[i+1], 10, 64)
			return n
		}
		return 0
	}
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "nodes":
			lim.Nodes = num(i)
		case "depth":
			lim.Depth = int(num(i))
		case "movetime":
			lim.Time = time.Duration(num(i)) * time.Millisecond
		case "wtime":
			wtime = num(i)
		case "btime":
			btime = num(i)
		case "winc":
			winc = num(i)
		case "binc":
			binc = num(i)
		case "movestogo":
			movestogo = num(i)
		default:
			continue
		}
		i++
	}
	left, inc := wtime, winc
	if e.pos.SideToMove() == engine.Second {
		left, inc = btime, binc
	}
	if lim.Time == 0 && left > 0 {
		soft, hard := clockBudget(left, inc, movestogo)
		lim.Soft, lim.Time = soft, hard
	}
	pos, s := e.pos.Clone(), e.s
	e.busy = true
	e.running.Add(1)
	go func() {
		defer e.running.Done()
		res, err := s.Search(pos, lim, func(i search.Info) {
			e.send("info depth %d seldepth %d score %s nodes %d nps %d time %d pv %s",
				i.Depth, i.SelDepth, uciScore(i.Score), i.Nodes, i.NPS(), i.Time.Milliseconds(), uciLine(pos, i.PV))
		})
		if err != nil {
			e.send("info string error: %v", err)
		}
		if res.Move == engine.NoMove {
			e.send("bestmove (none)")
			return
		}
		e.send("bestmove %s", formatUCIMove(pos, res.Move))
	}()
}

// clockBudget divides the time left (ms) among the moves to come: a soft
// limit after which no new iteration starts, and a hard one.
func clockBudget(left, inc, movestogo int64) (soft, hard time.Duration) {
	if movestogo <= 0 || movestogo > 40 {
		movestogo = 30
	}
	ms := left/movestogo + inc*3/4
	ms = min(ms, left/2)
	hardMS := min(3*ms, left/3)
	return time.Duration(ms) * time.Millisecond, time.Duration(max(hardMS, 1)) * time.Millisecond
}

func uciScore(v int) string {
	if m, ok := search.IsMate(v); ok {
		return fmt.Sprintf("mate %d", m)
	}
	return fmt.Sprintf("cp %d", v)
}

// uciLine writes a principal variation in the session's coordinates.
func uciLine(p engine.Position, pv []engine.Move) string {
	var b strings.Builder
	n := 0
	for _, m := range pv {
		if !p.IsLegal(m) {
			break
		}
		if n > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(formatUCIMove(p, m))
		p.Make(m)
		n++
	}
	for range n {
		p.Unmake()
	}
	return b.String()
}

// formatUCIMove writes a move as UCI engines do: chess UCI, and for
// Xiangqi Fairy-Stockfish's coordinates (ranks 1-10 from Red's side).
func formatUCIMove(p engine.Position, m engine.Move) string {
	if p.Game() != engine.Xiangqi {
		return p.FormatMove(m, engine.UCI)
	}
	sq := func(s uint8) string {
		return string(rune('a'+xiangqi.FileOf(s))) + strconv.Itoa(xiangqi.RankOf(s)+1)
	}
	return sq(xiangqi.MoveFrom(m)) + sq(xiangqi.MoveTo(m))
}

// parseUCIMove reads a move written as formatUCIMove writes it.
func parseUCIMove(p engine.Position, tok string) (engine.Move, error) {
	if p.Game() != engine.Xiangqi {
		return p.ParseMove(tok, engine.UCI)
	}
	from, rest, ok := parseFSFSquare(tok)
	var to uint8
	if ok {
		to, rest, ok = parseFSFSquare(rest)
	}
	if !ok || rest != "" {
		return engine.NoMove, fmt.Errorf("move %q: %w (want Fairy-Stockfish coordinates such as h3e3)", tok, engine.ErrBadMove)
	}
	m := xiangqi.NewMove(from, to)
	if !p.IsLegal(m) {
		return engine.NoMove, fmt.Errorf("move %q: %w", tok, engine.ErrIllegalMove)
	}
	return m, nil
}

// parseFSFSquare reads a file a-i and a rank 1-10.
func parseFSFSquare(s string) (uint8, string, bool) {
	if len(s) < 2 || s[0] < 'a' || s[0] > 'i' {
		return 0, s, false
	}
	n := 1
	for n < len(s) && n < 3 && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	r, err := strconv.Atoi(s[1:n])
	if err != nil || r < 1 || r > 10 {
		return 0, s, false
	}
	return xiangqi.Square(int(s[0]-'a'), r-1), s[n:], true
}
