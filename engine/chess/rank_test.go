package chess

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
)

// sortedLegal is what a rank means, written the plain way: the legal moves
// sorted by wire code (the move's value). Records on disk hold a move as
// its index here.
func sortedLegal(p *Position, buf []engine.Move) []engine.Move {
	legal := p.AppendLegalMoves(buf[:0])
	slices.Sort(legal)
	return legal
}

// checkRanks compares MoveAtRank with sortedLegal at every rank of p, one
// past the last and -1.
func checkRanks(tb testing.TB, p *Position, legal []engine.Move) {
	tb.Helper()
	for r, want := range legal {
		if got, ok := p.MoveAtRank(r); !ok || got != want {
			tb.Fatalf("%s: MoveAtRank(%d) = %s, %v; want %s", p.FEN(), r, UCI(got), ok, UCI(want))
		}
	}
	if got, ok := p.MoveAtRank(len(legal)); ok {
		tb.Fatalf("%s: MoveAtRank(%d) of %d legal moves = %s", p.FEN(), len(legal), len(legal), UCI(got))
	}
	if _, ok := p.MoveAtRank(-1); ok {
		tb.Fatalf("%s: MoveAtRank(-1) found a move", p.FEN())
	}
}

// TestMoveAtRankRealGames: at every ply of master games (pgnmentor's
// Morphy, Capablanca, Alekhine, Fischer, Karpov, Kasparov, Tal and
// AlphaZero games; XQDB_LONG=1: all 107 files), MoveAtRank of the played move's rank (RankLegal, counted
// another way) gives that move back, and at every 8th ply every rank is
// checked against the plain sorted list (XQDB_LONG=1: every ply).
func TestMoveAtRankRealGames(t *testing.T) {
	t.Parallel()
	games := slices.Clone(pgnmentorGames(t))
	for _, name := range []string{"Alekhine", "Fischer", "Karpov", "Kasparov", "Tal"} {
		games = append(games, splitGames(readShared(t, "chess/pgnmentor-players/"+name+".pgn.gz"))...)
	}
	every := 8
	if enginetest.Long() {
		every = 1
		dir := filepath.Dir(enginetest.SharedData(t, "chess/pgnmentor-players/Morphy.pgn.gz"))
		files, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		games = nil
		for _, f := range files {
			if strings.HasSuffix(f.Name(), ".pgn.gz") {
				games = append(games, splitGames(readShared(t, "chess/pgnmentor-players/"+f.Name()))...)
			}
		}
	}
	var buf [maxMoves]engine.Move
	n := 0
	plies := replayPositions(t, games, func(p *Position, tok string) {
		m, err := p.ParseMove(tok, engine.SAN)
		if err != nil {
			return // replayPositions reports it
		}
		if n++; n%every == 0 {
			checkRanks(t, p, sortedLegal(p, buf[:]))
			return
		}
		r := p.RankLegal(m)
		if got, ok := p.MoveAtRank(r); !ok || got != m {
			t.Fatalf("%s: RankLegal(%s) = %d; MoveAtRank(%d) = %s, %v", p.FEN(), UCI(m), r, r, UCI(got), ok)
		}
	})
	t.Logf("%d games, %d plies", len(games), plies)
	if plies < 500_000 {
		t.Errorf("only %d plies replayed", plies)
	}
}

// FuzzMoveAtRank plays the moves the input picks from a FEN and checks
// every rank of every position reached against the sorted legal moves.
func FuzzMoveAtRank(f *testing.F) {
	for i, fen := range fuzzFENs {
		f.Add(fen, []byte{byte(i), 3, 17, 40, 2, 9})
	}
	f.Fuzz(func(t *testing.T, fen string, picks []byte) {
		p, err := ParseFEN(fen)
		if err != nil {
			return
		}
		var buf [maxMoves]engine.Move
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

// BenchmarkMoveAtRank decodes the plies of Capablanca's games as a stored
// record is decoded: MoveAtRank of each played move's rank, then Make
// (against the same through the plain sorted list). It must not allocate.
func BenchmarkMoveAtRank(b *testing.B) {
	games := splitGames(readShared(b, "chess/pgnmentor-players/Capablanca.pgn.gz"))
	var ranks [][]int
	plies := 0
	p := NewStart()
	for _, g := range games {
		p.Reset()
		var rs []int
		for _, tok := range g.moves {
			m, err := p.ParseMove(tok, engine.SAN)
			if err != nil {
				break
			}
			rs = append(rs, p.RankLegal(m))
			p.Make(m)
		}
		ranks = append(ranks, rs)
		plies += len(rs)
	}
	for _, bc := range []struct {
		name string
		at   func(p *Position, r int) (engine.Move, bool)
	}{
		{"MoveAtRank", (*Position).MoveAtRank},
		{"sorted legal moves", func(p *Position, r int) (engine.Move, bool) {
			var buf [maxMoves]engine.Move
			return sortedLegal(p, buf[:])[r], true
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, rs := range ranks {
					p.Reset()
					for _, r := range rs {
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
}
