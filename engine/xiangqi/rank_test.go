package xiangqi

import (
	"bufio"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
)

// sortedLegal is what a rank means, written the plain way: the legal moves
// sorted by wire code. Records on disk hold a move as its index here, so
// MoveAtRank and MoveRank must agree with it in every position.
func sortedLegal(p *Position, buf []engine.Move) []engine.Move {
	legal := p.AppendLegalMoves(buf[:0])
	var codes [MaxMoves]int
	for i, m := range legal {
		codes[i] = wireCode(m)
	}
	slices.Sort(codes[:len(legal)])
	for i, c := range codes[:len(legal)] {
		legal[i] = NewMove(SquareFrom90(c>>7), SquareFrom90(c&127))
	}
	return legal
}

// checkRanks compares MoveAtRank with sortedLegal at every rank of p (and
// one past the last), and MoveRank at every legal move.
func checkRanks(tb testing.TB, p *Position, legal []engine.Move) {
	tb.Helper()
	for r, want := range legal {
		if got, ok := p.MoveAtRank(r); !ok || got != want {
			tb.Fatalf("%s: MoveAtRank(%d) = %s, %v; want %s", p.FEN(), r, ICCS(got), ok, ICCS(want))
		}
	}
	if got, ok := p.MoveAtRank(len(legal)); ok {
		tb.Fatalf("%s: MoveAtRank(%d) of %d legal moves = %s", p.FEN(), len(legal), len(legal), ICCS(got))
	}
	if _, ok := p.MoveAtRank(-1); ok {
		tb.Fatalf("%s: MoveAtRank(-1) found a move", p.FEN())
	}
}

// archiveGame is a game of the real archives: a start FEN ("" for the
// standard one) and its moves in ICCS.
type archiveGame struct {
	fen   string
	moves []string
}

var (
	archiveOnce  sync.Once
	archiveGames []archiveGame
)

// realArchives reads every Xiangqi game of ../shared/data that is given as
// ICCS: the CCPD records and walker8088's PGN and XQF main lines (about
// 65,000 games and five million plies).
func realArchives(tb testing.TB) []archiveGame {
	tb.Helper()
	walker := []string{
		enginetest.SharedData(tb, "xiangqi/walker8088-games/pgn_derived.jsonl.gz"),
		enginetest.SharedData(tb, "xiangqi/walker8088-games/xqf_mainline_derived.jsonl.gz"),
	}
	archiveOnce.Do(func() {
		for _, r := range readCCPDDerived(tb) {
			archiveGames = append(archiveGames, archiveGame{r.fen, r.iccs})
		}
		for _, path := range walker {
			sc := bufio.NewScanner(openShared(tb, path))
			sc.Buffer(make([]byte, 1<<20), 1<<22)
			for sc.Scan() {
				var g struct{ FEN, Moves string }
				if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
					tb.Fatalf("%s: %v", path, err)
				}
				archiveGames = append(archiveGames, archiveGame{g.FEN, strings.Fields(g.Moves)})
			}
			if err := sc.Err(); err != nil {
				tb.Fatal(err)
			}
		}
	})
	return archiveGames
}

// replayArchive plays each game until its first move that is not legal
// (a few records are broken) and calls visit before every move with the
// move played.
func replayArchive(tb testing.TB, games []archiveGame, visit func(p *Position, m engine.Move)) (plies int) {
	p := NewStart()
	for _, g := range games {
		p.Reset()
		if g.fen != "" && p.SetFEN(g.fen) != nil {
			continue
		}
		for _, tok := range g.moves {
			m, ok := ParseICCSMove(tok)
			if !ok || !p.IsLegal(m) {
				break
			}
			visit(p, m)
			p.Make(m)
			plies++
		}
	}
	return plies
}

// TestMoveAtRankRealGames: at every ply of every Xiangqi game of the real
// archives, MoveAtRank of the played move's rank gives that move back; at
// every 16th ply every rank (and one past the last) is checked against
// the plain sorted list (XQDB_LONG=1: at every ply). The rank order is
// what the stored records mean, so no position of real play may read
// another move than the plain sorted list gives.
func TestMoveAtRankRealGames(t *testing.T) {
	t.Parallel()
	games := realArchives(t)
	every := 16
	if enginetest.Long() {
		every = 1
	}
	if testing.Short() {
		games = games[:len(games)/20]
	}
	var buf [MaxMoves]engine.Move
	n := 0
	plies := replayArchive(t, games, func(p *Position, m engine.Move) {
		if n++; n%every == 0 {
			legal := sortedLegal(p, buf[:])
			if !slices.Contains(legal, m) {
				t.Fatalf("%s: %s is not among the legal moves", p.FEN(), ICCS(m))
			}
			checkRanks(t, p, legal)
			return
		}
		r, ok := p.MoveRank(m)
		if got, ok2 := p.MoveAtRank(r); !ok || !ok2 || got != m {
			t.Fatalf("%s: MoveRank(%s) = %d, %v; MoveAtRank(%d) = %s, %v", p.FEN(), ICCS(m), r, ok, r, ICCS(got), ok2)
		}
	})
	t.Logf("%d games, %d plies", len(games), plies)
	if plies < 1_000_000 && !testing.Short() {
		t.Errorf("only %d plies replayed", plies)
	}
}

// TestMoveAtRankExposures: positions built so that a move's legality turns
// on each thing that can expose a general (RULES X10, X11) — a piece
// leaving a line (chariot, cannon behind its screen, the flying general),
// a piece stepping onto a line and becoming a cannon's screen, a horse's
// leg freed, the general stepping into an attack, and check evasions.
func TestMoveAtRankExposures(t *testing.T) {
	for _, tc := range exposures {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			var buf [MaxMoves]engine.Move
			legal := sortedLegal(p, buf[:])
			checkRanks(t, p, legal)
			// And one ply further, in every line.
			for _, m := range slices.Clone(legal) {
				p.Make(m)
				checkRanks(t, p, sortedLegal(p, buf[:]))
				p.Unmake()
			}
		})
	}
}

// TestLegalityGuardAgreesWithTrial: the legal moves (keepPiece, which
// reads most moves' legality off the position's guard) are exactly the
// pseudo-legal moves after which the mover's general is not attacked, in
// the exposure positions and real-game positions and two plies beyond.
func TestLegalityGuardAgreesWithTrial(t *testing.T) {
	fens := realGamePositions(t, 40, 7)
	for _, tc := range exposures {
		fens = append(fens, tc.fen)
	}
	positions := 0
	var walk func(p *Position, depth int)
	walk = func(p *Position, depth int) {
		positions++
		var lb, pb [MaxMoves]engine.Move
		legal := p.AppendLegalMoves(lb[:0])
		ksq := p.sq[generalID(p.side)]
		for _, m := range p.appendPseudo(pb[:0]) {
			if want := p.safeAfter(MoveFrom(m), MoveTo(m), ksq, p.side.Other()); slices.Contains(legal, m) != want {
				t.Fatalf("%s: %s counted legal = %v, the trial says %v", p.FEN(), ICCS(m), !want, want)
			}
		}
		if depth == 0 {
			return
		}
		for _, m := range legal {
			p.Make(m)
			walk(p, depth-1)
			p.Unmake()
		}
	}
	for _, fen := range fens {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		walk(p, 2)
	}
	t.Logf("%d positions", positions)
}

// exposures are positions built so that a move's legality turns on each
// thing that can expose a general.
var exposures = []struct{ name, fen string }{
	{"chariot pin on the file", "4k4/9/9/9/4r4/9/4H4/9/9/4K4 w - - 0 1"},
	{"cannon behind a screen on the file", "4k4/9/4c4/9/9/4R4/9/4H4/9/4K4 w - - 0 1"},
	{"stepping onto the file before a cannon", "4k4/9/4c4/9/9/9/2H3R2/9/9/4K4 w - - 0 1"},
	{"stepping onto the rank before a cannon", "3k5/9/9/9/9/9/9/2R6/3H5/c3K4 w - - 0 1"},
	{"flying general: the only piece between", "4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1"},
	{"general may not face the other", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"},
	{"horse leg freed", "4k4/9/9/9/9/9/9/3n5/4A4/3AK4 w - - 0 1"},
	{"horse leg: a chariot on it", "3k5/9/9/9/9/9/9/3n5/3R5/4K4 w - - 0 1"},
	{"check by a chariot", "3k5/9/9/9/9/9/9/9/2H6/r3K4 w - - 0 1"},
	{"check by a cannon: block, capture the screen or step", "4k4/9/4c4/9/9/4p4/9/2H6/9/3K5 w - - 0 1"},
	{"double check", "4k4/4r4/9/9/9/9/9/5n3/9/4K1R2 w - - 0 1"},
	{"soldier check", "9/4k4/9/9/9/9/9/9/4p4/3AK4 w - - 0 1"},
	{"black to move, pins on both sides", "4k4/4a4/4C4/9/9/9/2h1R4/9/9/3K5 b - - 0 1"},
	{"capturing the pinning cannon's screen", "4k4/9/4c4/9/4p4/9/4R4/9/9/4K4 w - - 0 1"},
	{"start", StartFEN},
	// Found by the Fairy-Stockfish perft comparison while the guard was
	// written: an own piece second on a line behind an enemy piece, a
	// cannon third (the enemy piece would be its only screen); a leg
	// piece capturing the horse it blocks.
	{"second piece behind an enemy one, cannon third", "2bakab2/4n4/2N1c4/pP2C3p/2rc5/3R5/P3Pn2P/4C4/4A4/2BA1K3 w - - 2 2"},
	{"own piece second behind an enemy cannon, a cannon third", "1C1k1abC1/4R4/9/p2rc4/8p/nN7/2P3P1P/3A2c2/9/2B1KAB2 w - - 1 35"},
	{"leg piece takes the horse", "4kab2/2Nra4/b8/p1R5p/2P6/3C2p2/P3P1c1P/1R2B1n2/4A4/2BAK3c b - - 4 5"},
}

// FuzzMoveAtRank plays the moves the input picks from a FEN and checks
// every rank of every position reached against the sorted legal moves.
func FuzzMoveAtRank(f *testing.F) {
	f.Add(StartFEN, []byte{0, 5, 17, 3, 40, 2, 9, 9, 1})
	f.Add("4k4/9/4c4/9/9/4R4/9/4H4/9/4K4 w - - 0 1", []byte{1, 2, 3, 4, 5, 6, 7, 8})
	f.Add("3k5/9/9/9/9/9/9/2R6/3H5/c3K4 w - - 0 1", []byte{9, 8, 7, 6, 5, 4, 3})
	f.Add("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", []byte{200, 100, 50, 25})
	f.Fuzz(func(t *testing.T, fen string, picks []byte) {
		p, err := ParseFEN(fen)
		if err != nil {
			return
		}
		var buf [MaxMoves]engine.Move
		for i := 0; ; i++ {
			legal := sortedLegal(p, buf[:])
			checkRanks(t, p, legal)
			if i >= len(picks) || len(legal) == 0 {
				return
			}
			p.Make(legal[int(picks[i])%len(legal)])
		}
	})
}

// BenchmarkMoveAtRank decodes the plies of the first 2,000 games of the real
// archives as a stored record is decoded: MoveAtRank of each played move's
// rank, then Make. It reports the time a ply; it must not allocate.
func BenchmarkMoveAtRank(b *testing.B) {
	games := realArchives(b)[:2000]
	type game struct {
		fen   string
		ranks []int
	}
	var gs []game
	var buf [MaxMoves]engine.Move
	plies := replayArchive(b, games, func(p *Position, m engine.Move) {
		if p.Ply() == 0 {
			gs = append(gs, game{fen: p.FEN()})
		}
		g := &gs[len(gs)-1]
		g.ranks = append(g.ranks, slices.Index(sortedLegal(p, buf[:]), m))
	})
	starts := make([]*Position, len(gs))
	for i, g := range gs {
		starts[i], _ = ParseFEN(g.fen)
	}
	for _, bc := range []struct {
		name string
		at   func(p *Position, r int) (engine.Move, bool)
	}{
		{"MoveAtRank", (*Position).MoveAtRank},
		{"sorted legal moves", func(p *Position, r int) (engine.Move, bool) {
			var buf [MaxMoves]engine.Move
			legal := sortedLegal(p, buf[:])
			return legal[r], true
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p := NewStart()
			b.ReportAllocs()
			for b.Loop() {
				for i, g := range gs {
					h := p.hist[:0]
					*p = *starts[i]
					p.hist = h
					for _, r := range g.ranks {
						m, ok := bc.at(p, r)
						if !ok {
							b.Fatal("rank out of range")
						}
						p.Make(m)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(plies), "ns/ply")
		})
	}
	b.Logf("%d games, %d plies", len(gs), plies)
}
