package search

import (
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/chess"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

// Mate-in-N positions from real games: the position 2N-1 plies before a
// game's final checkmate, kept when a brute-force search proves that the
// side to move mates in exactly N moves. The games come from the shared
// real archives (../shared/data/*/SOURCES.md): CCPD's ccpd_unique.utf8.pgn
// for Xiangqi and pgnmentor's Alekhine.pgn for chess; "game" is the
// record's 1-based index in its file.
var mateCases = []struct {
	name string
	game engine.Game
	fen  string
	n    int
}{
	// CCPD, ccpd_unique.utf8.pgn.gz.
	{"ccpd game 21 (Lü Qin)", engine.Xiangqi, "2bakab2/9/9/p4R3/6p2/PNP6/4C4/3KBn2c/1r7/3A1AB2 b - - 6 11", 1},
	{"ccpd game 30", engine.Xiangqi, "2bn1R3/5NC2/5k3/2c1p3p/pn7/9/P1prP3P/4B4/4A4/1r1AK4 w - - 0 9", 1},
	{"ccpd game 49", engine.Xiangqi, "2bak2r1/4a4/4b4/p3CNp1p/2C6/6P2/2P5P/N8/1c1R5/2BA1K3 b - - 0 3", 1},
	{"ccpd game 49, one move earlier", engine.Xiangqi, "2bak2r1/4a4/4b4/p3CNp1p/2C6/6P2/2P5P/N8/1c1R5/2BAKAr2 b - - 0 2", 2},
	{"ccpd game 67", engine.Xiangqi, "2baka1n1/9/1C2b4/p3p1P2/7Np/2c1c4/PR2n3r/3ABC3/N8/2BA1K3 b - - 2 2", 2},
	{"ccpd game 125", engine.Xiangqi, "1Cbak4/9/3R5/p3p1N1p/5n3/6P2/P7P/2r1B4/4A4/n2K1A3 w - - 0 11", 2},
	{"ccpd game 135", engine.Xiangqi, "4ka1r1/3P1R3/4b4/9/9/5CB2/9/9/3pA4/3AK1B2 w - - 11 52", 3},
	{"ccpd game 151", engine.Xiangqi, "2ba2b2/2N1ak1N1/5n3/6R1p/9/3r1pP2/4P4/9/1c2A4/3A1K3 w - - 4 19", 3},
	{"ccpd game 366", engine.Xiangqi, "1CbR1R3/4k1c2/1r2b2r1/p7p/4pn3/2P2p3/P7P/4B4/4A4/4KAB2 w - - 3 9", 3},
	// pgnmentor, Alekhine.pgn.
	{"Viakhirev-Alekhine", engine.Chess, "4r2k/ppp3pp/8/1PPb1p2/3P1P1b/P1Q2p1P/6R1/R4KB1 b - - 0 36", 1},
	{"Alekhine-Tenner", engine.Chess, "r2q3r/ppp2Bpp/8/2B1k2n/4P3/3P4/PPP3PP/R2b1RK1 w - - 0 15", 1},
	{"Alekhine-Johner", engine.Chess, "2rr2k1/pp4pp/3N4/4P3/3P4/3qb3/PP1Q3P/R2K4 b - - 7 31", 1},
	{"Viakhirev-Alekhine, one move earlier", engine.Chess, "4r2k/ppp3pp/8/1PPb1p2/3P1P1b/P1Q2p1P/7R/R4KBq b - - 7 35", 2},
	{"Fridlizius-Alekhine", engine.Chess, "5r1k/1b2Np1q/p4P2/1p6/2pR3Q/7P/PP4PK/8 w - - 0 40", 2},
	{"Levenfish-Alekhine", engine.Chess, "6k1/1p6/3p1p2/3Pp2p/PP3Pq1/5n2/1Q6/4R2K b - - 2 42", 2},
	{"Fridlizius-Alekhine, one move earlier", engine.Chess, "5r1k/1b2Np1q/p4P2/1p1p4/2rR3Q/1B5P/PP4PK/8 w - - 3 39", 3},
	{"Levenfish-Alekhine, one move earlier", engine.Chess, "6k1/1p6/3p1p2/3Pp2p/PP3Pqn/8/1Q5K/4R3 b - - 0 41", 3},
	{"Alekhine-Verlinsky", engine.Chess, "8/5R2/2pk1nr1/1pN1p2p/1PP1P2P/3P4/1K6/8 w - - 1 39", 3},
}

func parse(t testing.TB, g engine.Game, fen string) engine.Position {
	t.Helper()
	var p engine.Position
	var err error
	if g == engine.Xiangqi {
		p, err = xiangqi.ParseFEN(fen)
	} else {
		p, err = chess.ParseFEN(fen)
	}
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	return p
}

// forcesMate reports by brute force whether the side to move mates in at
// most n moves.
func forcesMate(p engine.Position, n int) bool {
	if n <= 0 {
		return false
	}
	var buf [256]engine.Move
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		p.Make(m)
		ok := isLost(p, n-1)
		p.Unmake()
		if ok {
			return true
		}
	}
	return false
}

// isLost reports whether the side to move is mated now (in Xiangqi also
// stalemated, RULES X12) or is mated in at most n more moves whatever it
// plays.
func isLost(p engine.Position, n int) bool {
	var buf [256]engine.Move
	moves := p.AppendLegalMoves(buf[:0])
	if len(moves) == 0 {
		return p.Game() == engine.Xiangqi || p.InCheck()
	}
	if n == 0 {
		return false
	}
	for _, m := range moves {
		p.Make(m)
		ok := forcesMate(p, n)
		p.Unmake()
		if !ok {
			return false
		}
	}
	return true
}

func TestMateInN(t *testing.T) {
	for _, c := range mateCases {
		t.Run(c.name, func(t *testing.T) {
			p := parse(t, c.game, c.fen)
			// The position really is a mate in exactly n.
			if !forcesMate(p, c.n) || forcesMate(p, c.n-1) {
				t.Fatalf("brute force: not a mate in exactly %d", c.n)
			}
			s := New(c.game, 4)
			res, err := s.Search(p, Limits{Depth: 2*c.n + 2}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.FEN(); got != c.fen {
				t.Fatalf("search changed the position: %s", got)
			}
			if want := Mate - (2*c.n - 1); res.Score != want {
				t.Errorf("score %d, want %d (mate in %d)", res.Score, want, c.n)
			}
			if m, ok := IsMate(res.Score); !ok || m != c.n {
				t.Errorf("IsMate(%d) = %d, %v; want %d", res.Score, m, ok, c.n)
			}
			p.Make(res.Move)
			if !isLost(p, c.n-1) {
				t.Errorf("%v does not mate in %d", res.Move, c.n)
			}
		})
	}
}
