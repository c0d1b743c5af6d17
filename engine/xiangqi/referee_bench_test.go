package xiangqi

import (
	"bufio"
	"compress/gzip"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
)

// ccpdGame is one master game of the Chinese Chess Practical Dataset (CCPD,
// CC BY 4.0: Yu-Han Tseng and Bo-Nian Chen (2026). Chinese Chess Practical
// Dataset (CCPD)), as ccpd_unique_derived.tsv.gz gives it.
type ccpdGame struct {
	id, path, fen, tag string
	moves              []engine.Move
}

var (
	ccpdOnce  sync.Once
	ccpdGames []ccpdGame
	ccpdErr   error
)

// ccpdMasterGames returns the CCPD master games (first_path under
// 對局/大師對局) that the derivation replayed ("ok"), with their ICCS main
// lines parsed (not yet checked for legality).
func ccpdMasterGames(tb testing.TB) []ccpdGame {
	tb.Helper()
	path := enginetest.SharedData(tb, "xiangqi/ccpd/ccpd_unique_derived.tsv.gz")
	ccpdOnce.Do(func() { ccpdGames, ccpdErr = readCCPD(path) })
	if ccpdErr != nil {
		tb.Fatal(ccpdErr)
	}
	return ccpdGames
}

func readCCPD(path string) ([]ccpdGame, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	var out []ccpdGame
	for first := true; sc.Scan(); first = false {
		c := strings.Split(sc.Text(), "\t")
		if first || len(c) < 12 || !strings.HasPrefix(c[3], "Dataset/對局/大師對局/") || c[8] != "ok" {
			continue
		}
		g := ccpdGame{id: c[0], path: c[3], fen: c[4], tag: c[5]}
		for _, tok := range strings.Fields(c[11]) {
			m, ok := ParseICCSMove(tok)
			if !ok {
				break
			}
			g.moves = append(g.moves, m)
		}
		out = append(out, g)
	}
	return out, sc.Err()
}

// benchGames are the games both replay benchmarks use.
func benchGames(b *testing.B) []ccpdGame {
	games := ccpdMasterGames(b)
	if len(games) > 3000 {
		games = games[:3000]
	}
	return games
}

func countPlies(games []ccpdGame) int {
	n := 0
	for _, g := range games {
		n += len(g.moves)
	}
	return n
}

// BenchmarkReplayPlain replays CCPD master games as an importer does
// without adjudication: each move checked for legality, then made.
func BenchmarkReplayPlain(b *testing.B) {
	games := benchGames(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, g := range games {
			p, err := ParseFEN(g.fen)
			if err != nil {
				b.Fatal(err)
			}
			for _, m := range g.moves {
				if !p.IsLegal(m) {
					break
				}
				p.Make(m)
			}
		}
	}
	b.ReportMetric(float64(countPlies(games))*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
}

// BenchmarkReplayWithReferee replays the same games with the referee
// judging every ply (RULES X12–X16); it must stay within 25% of
// BenchmarkReplayPlain.
func BenchmarkReplayWithReferee(b *testing.B) {
	games := benchGames(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, g := range games {
			p, err := ParseFEN(g.fen)
			if err != nil {
				b.Fatal(err)
			}
			ref := NewReferee(p, Rules{})
			for _, m := range g.moves {
				if !p.IsLegal(m) {
					break
				}
				ref.Play(m)
			}
		}
	}
	b.ReportMetric(float64(countPlies(games))*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
}
