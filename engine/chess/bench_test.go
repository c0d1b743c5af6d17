package chess

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/xqdb/xqdb/engine"
)

// benchPerft runs Perft(depth) b.N times and reports nodes per second.
func benchPerft(b *testing.B, fen string, depth int) {
	p := mustFEN(b, fen)
	b.ReportAllocs()
	var nodes uint64
	start := time.Now()
	for b.Loop() {
		nodes += p.Perft(depth)
	}
	b.ReportMetric(float64(nodes)/time.Since(start).Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

// BenchmarkPerftEnv is the driver of bench/perft-chess.sh: Perft of
// $XQDB_PERFT_FEN to depth $XQDB_PERFT_DEPTH. Skipped without them.
func BenchmarkPerftEnv(b *testing.B) {
	fen, d := os.Getenv("XQDB_PERFT_FEN"), os.Getenv("XQDB_PERFT_DEPTH")
	if fen == "" || d == "" {
		b.Skip("set XQDB_PERFT_FEN and XQDB_PERFT_DEPTH (see bench/perft-chess.sh)")
	}
	depth, err := strconv.Atoi(d)
	if err != nil {
		b.Fatalf("XQDB_PERFT_DEPTH: %v", err)
	}
	benchPerft(b, fen, depth)
}

func BenchmarkPerftStart5(b *testing.B)      { benchPerft(b, StartFEN, 5) }
func BenchmarkPerftKiwipete4(b *testing.B)   { benchPerft(b, perftPositions[1], 4) }
func BenchmarkPerftPosition3_6(b *testing.B) { benchPerft(b, perftPositions[2], 6) }

func BenchmarkAppendLegalMoves(b *testing.B) {
	p := mustFEN(b, perftPositions[1])
	buf := make([]engine.Move, 0, maxMoves)
	b.ReportAllocs()
	for b.Loop() {
		buf = p.AppendLegalMoves(buf[:0])
	}
}

func BenchmarkCountLegalMoves(b *testing.B) {
	p := mustFEN(b, perftPositions[1])
	b.ReportAllocs()
	for b.Loop() {
		p.CountLegalMoves()
	}
}

func BenchmarkMakeUnmake(b *testing.B) {
	p := mustFEN(b, perftPositions[1])
	moves := p.AppendLegalMoves(nil)
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range moves {
			p.Make(m)
			p.Unmake()
		}
	}
	b.ReportMetric(float64(len(moves)), "moves/op")
}

// BenchmarkParseSAN reads every move of a middlegame position in SAN, the
// replay hot path.
func BenchmarkParseSAN(b *testing.B) {
	p := mustFEN(b, perftPositions[1])
	var toks []string
	for _, m := range p.AppendLegalMoves(nil) {
		toks = append(toks, p.FormatMove(m, engine.SAN))
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, tok := range toks {
			if _, err := p.ParseMove(tok, engine.SAN); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(toks)), "tokens/op")
}

func BenchmarkFormatSAN(b *testing.B) {
	p := mustFEN(b, perftPositions[1])
	moves := p.AppendLegalMoves(nil)
	buf := make([]byte, 0, 16)
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range moves {
			buf = p.AppendSAN(buf[:0], m)
		}
	}
	b.ReportMetric(float64(len(moves)), "moves/op")
}

// BenchmarkReplayGames replays master games move by move from SAN, as
// replay will.
func BenchmarkReplayGames(b *testing.B) { benchReplay(b, false) }

// BenchmarkReplayRankGames is BenchmarkReplayGames ranking every move as
// the database stores it (RankLegal): the import's replay.
func BenchmarkReplayRankGames(b *testing.B) { benchReplay(b, true) }

func benchReplay(b *testing.B, rank bool) {
	games := splitGames(readShared(b, "chess/pgnmentor-players/Capablanca.pgn.gz"))
	plies := 0
	for _, g := range games {
		plies += len(g.moves)
	}
	p := NewStart()
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		for _, g := range games {
			p.Reset()
			for _, tok := range g.moves {
				m, err := p.ParseMove(tok, engine.SAN)
				if err != nil {
					break
				}
				if rank {
					p.RankLegal(m)
				}
				p.Make(m)
			}
		}
	}
	b.ReportMetric(float64(plies)*float64(b.N)/time.Since(start).Seconds(), "plies/s")
}
