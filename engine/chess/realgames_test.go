package chess

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
)

// Master games from pgnmentor.com (shared/data/chess/pgnmentor-players,
// see its SOURCES.md) used by the round-trip and Stockfish tests.
var (
	masterOnce  sync.Once
	masterGames []testGame
)

func pgnmentorGames(t *testing.T) []testGame {
	t.Helper()
	enginetest.SharedData(t, "chess/pgnmentor-players/Morphy.pgn.gz")
	masterOnce.Do(func() {
		for _, f := range []string{"Morphy", "Capablanca", "AlphaZero-Stockfish_game54"} {
			masterGames = append(masterGames, splitGames(readShared(t, "chess/pgnmentor-players/"+f+".pgn.gz"))...)
		}
	})
	return masterGames
}

// replayPositions plays the games and calls visit with the position before
// every move. A move that does not read stops its game with an error.
func replayPositions(t *testing.T, games []testGame, visit func(p *Position, tok string)) (plies int) {
	t.Helper()
	for gi, g := range games {
		p := NewStart()
		if g.fen != "" {
			p = mustFEN(t, g.fen)
		}
		for _, tok := range g.moves {
			m, err := p.ParseMove(tok, engine.SAN)
			if err != nil {
				t.Errorf("game %d ply %d: %v", gi+1, p.Ply()+1, err)
				break
			}
			if visit != nil {
				visit(p, tok)
			}
			p.Make(m)
			plies++
		}
	}
	return plies
}

// TestSANRoundTripRealGames: in every position of a few hundred master
// games, every legal move formats to SAN and reads back to itself, and the
// same for UCI; and the games' own SAN is what FormatMove writes.
func TestSANRoundTripRealGames(t *testing.T) {
	games := pgnmentorGames(t)
	if len(games) > 400 {
		games = games[:400]
	}
	var buf [maxMoves]engine.Move
	positions, moves, differ := 0, 0, 0
	plies := replayPositions(t, games, func(p *Position, tok string) {
		positions++
		for _, m := range p.AppendLegalMoves(buf[:0]) {
			moves++
			for _, n := range []engine.Notation{engine.SAN, engine.UCI} {
				s := p.FormatMove(m, n)
				if back, err := p.ParseMove(s, n); err != nil || back != m {
					t.Fatalf("%s: %s (%v) reads back as %s, %v", p.FEN(), s, n, UCI(back), err)
				}
				if back, err := p.ParseMove(s, engine.Auto); err != nil || back != m {
					t.Fatalf("%s: %s (auto) reads back as %s, %v", p.FEN(), s, UCI(back), err)
				}
			}
		}
		m, _ := p.ParseMove(tok, engine.SAN)
		if p.FormatMove(m, engine.SAN) != strings.TrimRight(tok, "!?") {
			differ++
		}
	})
	if positions < 2000 {
		t.Errorf("only %d positions", positions)
	}
	// pgnmentor writes canonical SAN, except that some games mark mate
	// with + (29 of the first 400 games' moves), so allow a small share.
	if differ*1000 > plies {
		t.Errorf("%d of %d game moves differ from our SAN", differ, plies)
	}
	t.Logf("%d games, %d positions, %d moves round-tripped; %d game tokens not canonical", len(games), positions, moves, differ)
}

// TestReplayMasterGames replays whole player files; with XQDB_LONG=1 all
// 107 files (13.7 M plies), where exactly one game has an illegal move
// (Gelfand–Gareev 2019, 31.Qxe1, see SOURCES.md).
func TestReplayMasterGames(t *testing.T) {
	files := []string{"Morphy.pgn.gz", "Capablanca.pgn.gz", "alphazero_vs_stockfish_all.pgn.gz"}
	if longTests() {
		root := enginetest.SharedData(t, "chess/pgnmentor-players")
		files, _ = filepath.Glob(filepath.Join(root, "*.pgn.gz"))
		for i := range files {
			files[i] = filepath.Base(files[i])
		}
	}
	games, plies, bad := 0, 0, 0
	for _, f := range files {
		for gi, g := range splitGames(readShared(t, "chess/pgnmentor-players/"+f)) {
			games++
			p := NewStart()
			for _, tok := range g.moves {
				m, err := p.ParseMove(tok, engine.SAN)
				if err != nil {
					bad++
					t.Logf("%s game %d ply %d: %v", f, gi+1, p.Ply()+1, err)
					break
				}
				p.Make(m)
				plies++
				if strings.HasSuffix(tok, "#") && p.Status() != engine.Checkmate {
					t.Errorf("%s game %d: %s marked mate, Status() = %v", f, gi+1, tok, p.Status())
				}
			}
		}
	}
	wantBad := 0
	if longTests() {
		wantBad = 1
	}
	if bad != wantBad {
		t.Errorf("%d games with an unreadable move, want %d", bad, wantBad)
	}
	t.Logf("%d files, %d games, %d plies", len(files), games, plies)
}
