package xiangqi

import "testing"

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
