// Command match plays games between two UCI engines for bench/match.sh and
// bench/selfplay.sh: each move searched within the same node budget
// ("go nodes N"), openings of random plies each played twice with the
// colours swapped, every game judged by xqdb's referee (RULES X12–X16 under
// the asian profile, as Fairy-Stockfish plays them; chess C4–C5) and drawn
// after -max-plies. It prints the first engine's score with its 95% error
// margin, and the games per minute.
//
// An engine is a command line ("xqdb uci", "/usr/games/fairy-stockfish"),
// or "random": a built-in player of uniformly random legal moves, the
// harness check (it should score about 0).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/chess"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

func main() {
	e1 := flag.String("engine1", "xqdb uci", "first engine: a command line, or random")
	e2 := flag.String("engine2", "/usr/games/fairy-stockfish", "second engine")
	variant := flag.String("variant", "xiangqi", "xiangqi or chess")
	nodes := flag.Int("nodes", 20000, "nodes per move, both engines")
	nodes1 := flag.Int("nodes1", 0, "nodes per move of the first engine alone (default -nodes): how many it needs to match the second")
	pairs := flag.Int("pairs", 100, "openings; each is played twice, colours swapped")
	plies := flag.Int("random-plies", 4, "random plies of each opening")
	concurrency := flag.Int("concurrency", 2, "games at once")
	maxPlies := flag.Int("max-plies", 300, "draw after this many plies")
	seed := flag.Uint64("seed", 1, "openings seed")
	hash := flag.Int("hash", 16, "Hash option, MB")
	jsonOut := flag.Bool("json", false, "print the summary as JSON")
	logPath := flag.String("log", "", "write each game's moves here, one line a game")
	flag.Parse()
	g, err := engine.ParseGame(*variant)
	if err != nil {
		fmt.Fprintln(os.Stderr, "match:", err)
		os.Exit(2)
	}
	m := &match{game: g, nodes: *nodes, nodes1: *nodes1, maxPlies: *maxPlies, hash: *hash, cmds: [2]string{*e1, *e2}}
	if *logPath != "" {
		f, err := os.Create(*logPath)
		if err != nil {
			fmt.Fprintln(os.Stderr, "match:", err)
			os.Exit(1)
		}
		defer f.Close()
		m.log = f
	}
	openings := make([][]engine.Move, *pairs)
	rng := rand.New(rand.NewPCG(*seed, 16))
	for i := range openings {
		openings[i] = randomOpening(g, *plies, rng)
	}
	type job struct {
		opening []engine.Move
		swap    bool
	}
	jobs := make(chan job)
	go func() {
		for _, o := range openings {
			jobs <- job{o, false}
			jobs <- job{o, true}
		}
		close(jobs)
	}()
	start := time.Now()
	var mu sync.Mutex
	var wg sync.WaitGroup
	failed := false
	for range *concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var players [2]player
			for i := range players {
				p, err := m.start(i)
				if err != nil {
					fmt.Fprintln(os.Stderr, "match:", err)
					mu.Lock()
					failed = true
					mu.Unlock()
					return
				}
				defer p.close()
				players[i] = p
			}
			for j := range jobs {
				score, end, n, err := m.play(players, j.opening, j.swap)
				mu.Lock()
				if err != nil {
					fmt.Fprintln(os.Stderr, "match:", err)
					failed = true
				} else {
					m.record(score, end, n)
					fmt.Fprintf(os.Stderr, "\rmatch: %d games, %s", m.n, m.scoreLine())
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	fmt.Fprintln(os.Stderr)
	if failed {
		os.Exit(1)
	}
	el := time.Since(start)
	sum := m.summary(el)
	if *jsonOut {
		json.NewEncoder(os.Stdout).Encode(sum)
		return
	}
	fmt.Printf("%s vs %s, %s, %d nodes/move, %d games: score %.1f%% ± %.1f%% (95%%), +%d =%d -%d, Elo %+.0f; %.1f games/min, %.0f plies/game; ends %v\n",
		*e1, *e2, g, *nodes, sum.Games, 100*sum.Score, 100*sum.Margin, sum.Wins, sum.Draws, sum.Losses, sum.Elo, sum.GamesPerMin, sum.PliesPerGame, sum.Ends)
}

// match is the state shared by the game workers.
type match struct {
	game            engine.Game
	nodes, maxPlies int
	nodes1          int
	hash            int
	cmds            [2]string
	n, wins, draws  int
	losses, plies   int
	sumSq           float64
	ends            map[string]int
	log             io.Writer
}

func (m *match) record(score float64, end string, plies int) {
	m.n++
	m.plies += plies
	m.sumSq += score * score
	switch score {
	case 1:
		m.wins++
	case 0:
		m.losses++
	default:
		m.draws++
	}
	if m.ends == nil {
		m.ends = map[string]int{}
	}
	m.ends[end]++
}

func (m *match) score() (s, margin float64) {
	if m.n == 0 {
		return 0, 0
	}
	n := float64(m.n)
	s = (float64(m.wins) + float64(m.draws)/2) / n
	variance := m.sumSq/n - s*s
	return s, 1.96 * math.Sqrt(max(variance, 0)/n)
}

func (m *match) scoreLine() string {
	s, mg := m.score()
	return fmt.Sprintf("%.1f%% ± %.1f%% (+%d =%d -%d)", 100*s, 100*mg, m.wins, m.draws, m.losses)
}

type summary struct {
	Games, Wins, Draws, Losses int
	Score, Margin, Elo         float64
	GamesPerMin, PliesPerGame  float64
	Seconds                    float64
	Ends                       map[string]int
}

func (m *match) summary(el time.Duration) summary {
	s, mg := m.score()
	elo := math.Inf(-1)
	switch {
	case s >= 1:
		elo = math.Inf(1)
	case s > 0:
		elo = -400 * math.Log10(1/s-1)
	}
	if math.IsInf(elo, 0) {
		elo = math.Copysign(9999, elo)
	}
	return summary{Games: m.n, Wins: m.wins, Draws: m.draws, Losses: m.losses, Score: s, Margin: mg, Elo: elo,
		GamesPerMin: float64(m.n) / el.Minutes(), PliesPerGame: float64(m.plies) / float64(max(m.n, 1)), Seconds: el.Seconds(), Ends: m.ends}
}

// player chooses moves.
type player interface {
	move(startFEN string, moves []string, pos engine.Position) (string, error)
	newGame()
	close()
}

// play plays one game; players[0] has White/Red unless swap. It returns
// the first engine's score (1, ½, 0), how the game ended and its plies.
func (m *match) play(players [2]player, opening []engine.Move, swap bool) (float64, string, int, error) {
	pos, _ := games.New(m.game, "")
	refPos := pos.Clone()
	var ref interface {
		Play(engine.Move) engine.Ruling
		Last() engine.Ruling
	}
	switch p := refPos.(type) {
	case *xiangqi.Position:
		ref = xiangqi.NewReferee(p, xiangqi.Rules{Profile: xiangqi.Asian})
	case *chess.Position:
		ref = chess.NewReferee(p)
	}
	for _, p := range players {
		p.newGame()
	}
	var moves []string
	last := ref.Last()
	result := engine.NoResult
	end := ""
	for ply := 0; ; ply++ {
		if last.Decided() {
			result, end = last.Result, last.StatusName()
			break
		}
		if ply >= m.maxPlies {
			result, end = engine.Draw, "max_plies"
			break
		}
		var mv engine.Move
		if ply < len(opening) {
			mv = opening[ply]
		} else {
			side := int(pos.SideToMove())
			if swap {
				side ^= 1
			}
			tok, err := players[side].move(startFEN(m.game), moves, pos)
			if err != nil {
				return 0, "", 0, err
			}
			mv, err = parseMove(pos, tok)
			if err != nil {
				return 0, "", 0, fmt.Errorf("engine %d (%s) played %q after %v: %w", side+1, m.cmds[side], tok, moves, err)
			}
		}
		moves = append(moves, formatMove(pos, mv))
		pos.Make(mv)
		last = ref.Play(mv)
	}
	first := 0.5
	switch result {
	case engine.FirstWins:
		first = 1
	case engine.SecondWins:
		first = 0
	}
	if swap {
		first = 1 - first
	}
	if m.log != nil {
		fmt.Fprintf(m.log, "swap=%v %s %s %s\n", swap, result, end, strings.Join(moves, " "))
	}
	return first, end, len(moves), nil
}

func startFEN(g engine.Game) string {
	if g == engine.Xiangqi {
		return xiangqi.StartFEN
	}
	return chess.StartFEN
}

// randomOpening plays random legal moves from the start, avoiding
// positions already decided.
func randomOpening(g engine.Game, plies int, rng *rand.Rand) []engine.Move {
	pos, _ := games.New(g, "")
	var out []engine.Move
	for len(out) < plies {
		ms := pos.AppendLegalMoves(nil)
		if len(ms) == 0 {
			break
		}
		m := ms[rng.IntN(len(ms))]
		out = append(out, m)
		pos.Make(m)
	}
	return out
}

// formatMove writes a move in the engines' coordinates: UCI, and for
// Xiangqi Fairy-Stockfish's (ranks 1–10 from Red's side).
func formatMove(p engine.Position, m engine.Move) string {
	if p.Game() != engine.Xiangqi {
		return p.FormatMove(m, engine.UCI)
	}
	sq := func(s uint8) string { return string(rune('a'+xiangqi.FileOf(s))) + strconv.Itoa(xiangqi.RankOf(s)+1) }
	return sq(xiangqi.MoveFrom(m)) + sq(xiangqi.MoveTo(m))
}

func parseMove(p engine.Position, tok string) (engine.Move, error) {
	for _, m := range p.AppendLegalMoves(nil) {
		if formatMove(p, m) == tok {
			return m, nil
		}
	}
	return engine.NoMove, engine.ErrIllegalMove
}

func (m *match) start(i int) (player, error) {
	if m.cmds[i] == "random" {
		return &randomPlayer{rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(i)))}, nil
	}
	n := m.nodes
	if i == 0 && m.nodes1 > 0 {
		n = m.nodes1
	}
	return startUCI(m.cmds[i], m.game, n, m.hash)
}

type randomPlayer struct{ rng *rand.Rand }

func (r *randomPlayer) newGame() {}
func (r *randomPlayer) close()   {}
func (r *randomPlayer) move(_ string, _ []string, pos engine.Position) (string, error) {
	ms := pos.AppendLegalMoves(nil)
	return formatMove(pos, ms[r.rng.IntN(len(ms))]), nil
}

// uciPlayer is an engine process.
type uciPlayer struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Scanner
	nodes int
}

func startUCI(command string, g engine.Game, nodes, hash int) (*uciPlayer, error) {
	f := strings.Fields(command)
	cmd := exec.Command(f[0], f[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", command, err)
	}
	u := &uciPlayer{cmd: cmd, in: in, out: bufio.NewScanner(out), nodes: nodes}
	u.out.Buffer(make([]byte, 1<<16), 1<<20)
	u.send("uci")
	if _, err := u.until("uciok"); err != nil {
		return nil, fmt.Errorf("%s: %w", command, err)
	}
	u.send("setoption name Hash value " + strconv.Itoa(hash))
	u.send("setoption name Threads value 1")
	if g == engine.Xiangqi {
		u.send("setoption name UCI_Variant value xiangqi")
		// The games are judged by the asian profile (RULES X13): an
		// engine that knows the option (xqdb) plays by it; others ignore it.
		u.send("setoption name XiangqiRules value asian")
	}
	u.send("isready")
	if _, err := u.until("readyok"); err != nil {
		return nil, fmt.Errorf("%s: %w", command, err)
	}
	return u, nil
}

func (u *uciPlayer) send(s string) { fmt.Fprintln(u.in, s) }

func (u *uciPlayer) until(prefix string) (string, error) {
	for u.out.Scan() {
		if l := u.out.Text(); strings.HasPrefix(l, prefix) {
			return l, nil
		}
	}
	return "", fmt.Errorf("engine output ended before %q", prefix)
}

func (u *uciPlayer) newGame() {
	u.send("ucinewgame")
	u.send("isready")
	u.until("readyok")
}

func (u *uciPlayer) move(fen string, moves []string, _ engine.Position) (string, error) {
	line := "position fen " + fen
	if len(moves) > 0 {
		line += " moves " + strings.Join(moves, " ")
	}
	u.send(line)
	u.send("go nodes " + strconv.Itoa(u.nodes))
	l, err := u.until("bestmove")
	if err != nil {
		return "", err
	}
	f := strings.Fields(l)
	if len(f) < 2 {
		return "", fmt.Errorf("bad line %q", l)
	}
	return f[1], nil
}

func (u *uciPlayer) close() {
	u.send("quit")
	u.in.Close()
	_ = u.cmd.Wait()
}
