package chess

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
)

// TestSANOutputCanonical: piece letter, minimal disambiguation, x, =Q,
// O-O, + and #.
func TestSANOutputCanonical(t *testing.T) {
	tests := []struct {
		name, fen, uci, want string
	}{
		{"knight", StartFEN, "g1f3", "Nf3"},
		{"pawn push", StartFEN, "e2e4", "e4"},
		{"disambiguate by file", "rn1qkb1r/pp3ppp/2p1pn2/3p4/2PP4/2NQPN2/PP3PPP/R1B1K2R b KQkq - 0 7", "b8d7", "Nbd7"},
		{"disambiguate rooks by file", "4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "a1d1", "Rad1"},
		{"disambiguate by rank, same file", "4k3/8/8/8/8/3R4/8/3RK3 w - - 0 1", "d1d2", "R1d2"},
		{"disambiguate by square", "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "a1b2", "Qa1b2"},
		{"three queens, rank enough", "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "a3b2", "Q3b2"},
		{"three queens, file enough", "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "c1b2", "Qcb2"},
		{"pinned twin needs no disambiguation", "4r1k1/8/8/8/8/8/4N3/2N1K3 w - - 0 1", "c1d3", "Nd3"},
		{"capture with check", "3r2k1/pp2qppp/2p2n2/4b3/2P5/2N1P3/PB2QPPP/3R2K1 w - - 1 18", "d1d8", "Rxd8+"},
		{"mate", "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4", "Qh4#"},
		{"castle short", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O"},
		{"castle long with check", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "O-O-O+"},
		{"promotion", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8q", "e8=Q"},
		{"underpromotion capture with check", "3r4/4P3/8/8/8/8/8/K4k2 w - - 0 1", "e7d8n", "exd8=N"},
		{"promotion mate", "k7/2P5/1K6/8/8/8/8/8 w - - 0 1", "c7c8q", "c8=Q#"},
		{"en passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "exd6"},
		{"pawn capture", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", "exd5"},
		{"king capture", "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "e1d2", "Kxd2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, tt.fen)
			m, err := p.ParseMove(tt.uci, engine.UCI)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.FormatMove(m, engine.SAN); got != tt.want {
				t.Errorf("FormatMove(%s, SAN) = %s, want %s", tt.uci, got, tt.want)
			}
			if back, err := p.ParseMove(tt.want, engine.SAN); err != nil || back != m {
				t.Errorf("ParseMove(%s) = %s, %v; want %s", tt.want, UCI(back), err, tt.uci)
			}
		})
	}
}

// TestParseSANLenient: the token forms san.go promises to read.
func TestParseSANLenient(t *testing.T) {
	const (
		afterNf3d6d3e6 = "rnbqkbnr/ppp2ppp/3pp3/8/8/3P1N2/PPP1PPPP/RNBQKB1R w KQkq - 0 3"
		castleBoth     = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
		promo          = "3r3k/4P3/8/8/8/8/8/K7 w - - 0 1"
		ep             = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
		bPawnOrBishop  = "4k3/8/8/8/8/2n5/1P6/4B1K1 w - - 0 1"
		bishopOnly     = "4k3/8/8/8/8/2n5/8/4B1K1 w - - 0 1"
		nimzo          = "rnbqk2r/pppp1ppp/4pn2/8/1bPP4/2N1P3/PP3PPP/R1BQKBNR b KQkq - 0 4"
	)
	tests := []struct {
		fen, tok, want string // want: UCI, or the error sentinel's text
	}{
		{StartFEN, "Nf3", "g1f3"},
		{StartFEN, "nf3", "g1f3"},
		{StartFEN, "Ngf3", "g1f3"},
		{StartFEN, "N1f3", "g1f3"},
		{StartFEN, "Ng1f3", "g1f3"},
		{StartFEN, "Ng1-f3", "g1f3"},
		{StartFEN, "g1f3", "g1f3"},
		{StartFEN, "♘f3", "g1f3"},
		{StartFEN, "Nf3!", "g1f3"},
		{StartFEN, "Nf3?!", "g1f3"},
		{StartFEN, "Nf3!?", "g1f3"},
		{StartFEN, "Nf3!!", "g1f3"},
		{StartFEN, "Nf3??", "g1f3"},
		{StartFEN, "Nf3+", "g1f3"},
		{StartFEN, "Nf3#", "g1f3"},
		{StartFEN, "Nf3++", "g1f3"},
		{StartFEN, " Nf3 ", "g1f3"},
		{StartFEN, "e4", "e2e4"},
		{StartFEN, "Pe4", "e2e4"},
		{StartFEN, "e2e4", "e2e4"},
		{StartFEN, "e2-e4", "e2e4"},
		{StartFEN, "b4", "b2b4"},
		{castleBoth, "O-O", "e1g1"},
		{castleBoth, "0-0", "e1g1"},
		{castleBoth, "o-o", "e1g1"},
		{castleBoth, "OO", "e1g1"},
		{castleBoth, "O-O+", "e1g1"},
		{castleBoth, "O-O-O", "e1c1"},
		{castleBoth, "0-0-0", "e1c1"},
		{castleBoth, "e1g1", "e1g1"},
		{castleBoth, "e1h1", "e1g1"},
		{castleBoth, "e1a1", "e1c1"},
		{castleBoth, "Ke1h1", "e1g1"},
		{castleBoth, "Kxh1", "e1g1"},
		{castleBoth, "Kg1", "e1g1"},
		{promo, "e8=Q", "e7e8q"},
		{promo, "e8Q", "e7e8q"},
		{promo, "e8(Q)", "e7e8q"},
		{promo, "e8/Q", "e7e8q"},
		{promo, "e8=q", "e7e8q"},
		{promo, "e8=N+", "e7e8n"},
		{promo, "e7e8q", "e7e8q"},
		{promo, "e7-e8=R", "e7e8r"},
		{promo, "exd8=B", "e7d8b"},
		{promo, "ed8Q", "e7d8q"},
		{ep, "exd6", "e5d6"},
		{ep, "exd6 e.p.", "e5d6"},
		{ep, "exd6e.p.", "e5d6"},
		{ep, "exd6 ep", "e5d6"},
		{ep, "exd6ep+", "e5d6"},
		{ep, "ed6", "e5d6"},
		{ep, "ed", "e5d6"},
		{ep, "exd", "e5d6"},
		{ep, "e5d6", "e5d6"},
		{ep, "e5:d6", "e5d6"},
		{bPawnOrBishop, "bxc3", "b2c3"},
		{bPawnOrBishop, "bc3", "b2c3"},
		{bPawnOrBishop, "Bxc3", "e1c3"},
		{bishopOnly, "bxc3", "e1c3"},
		{nimzo, "Bb4xNc3+", "b4c3"},
		{nimzo, "Bxc3+", "b4c3"},
		{nimzo, "Bb4xPc3", engine.ErrIllegalMove.Error()},
		{StartFEN, "Nf4", engine.ErrIllegalMove.Error()},
		{StartFEN, "O-O", engine.ErrIllegalMove.Error()},
		{StartFEN, "e5", engine.ErrIllegalMove.Error()},
		{StartFEN, "Ke2", engine.ErrIllegalMove.Error()},
		{afterNf3d6d3e6, "Nd2", engine.ErrAmbiguousMove.Error()},
		{afterNf3d6d3e6, "Nbd2", "b1d2"},
		{afterNf3d6d3e6, "Nfd2", "f3d2"},
		{promo, "e8", engine.ErrAmbiguousMove.Error()},
		{promo, "e8=K", engine.ErrBadMove.Error()},
		{StartFEN, "", engine.ErrBadMove.Error()},
		{StartFEN, "+", engine.ErrBadMove.Error()},
		{StartFEN, "xyz", engine.ErrBadMove.Error()},
		{StartFEN, "Nz9", engine.ErrBadMove.Error()},
		{StartFEN, "--", engine.ErrBadMove.Error()},
		{StartFEN, "Z0", engine.ErrBadMove.Error()},
		{StartFEN, "O-O-O-O", engine.ErrBadMove.Error()},
		{StartFEN, "Qxx4", engine.ErrBadMove.Error()},
		{StartFEN, "e9", engine.ErrBadMove.Error()},
		{StartFEN, "1-0", engine.ErrBadMove.Error()},
	}
	for _, tt := range tests {
		p := mustFEN(t, tt.fen)
		m, err := p.ParseMove(tt.tok, engine.SAN)
		got := ""
		if err != nil {
			for _, s := range []error{engine.ErrBadMove, engine.ErrIllegalMove, engine.ErrAmbiguousMove} {
				if errors.Is(err, s) {
					got = s.Error()
				}
			}
			if !strings.HasPrefix(err.Error(), "chess: ") || !strings.Contains(err.Error(), tt.tok) {
				t.Errorf("%q: error %q does not name the package and token", tt.tok, err)
			}
		} else {
			got = UCI(m)
		}
		if got != tt.want {
			t.Errorf("%s: ParseMove(%q, SAN) = %q (err %v), want %q", tt.fen, tt.tok, got, err, tt.want)
		}
	}
}

// TestNotnilNotationFixtures: notnil/chess's table, one move written in SAN,
// long algebraic and UCI, with the expected position after it.
func TestNotnilNotationFixtures(t *testing.T) {
	var cases []struct {
		Pos1, Pos2, AlgText, LongAlgText, UCIText, Description string
	}
	if err := json.Unmarshal(readShared(t, "chess/notnil-chess/valid_notation_tests.json"), &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 20 {
		t.Fatalf("read %d cases", len(cases))
	}
	for _, c := range cases {
		p := mustFEN(t, c.Pos1)
		want := mustFEN(t, c.Pos2).FEN() // normalised e.p. field
		var moves []engine.Move
		for _, in := range []struct {
			tok string
			n   engine.Notation
		}{{c.AlgText, engine.SAN}, {c.LongAlgText, engine.SAN}, {c.UCIText, engine.UCI}, {c.UCIText, engine.Auto}, {c.AlgText, engine.Auto}} {
			m, err := p.ParseMove(in.tok, in.n)
			if err != nil {
				t.Errorf("%s: ParseMove(%q, %v): %v", c.Pos1, in.tok, in.n, err)
				continue
			}
			moves = append(moves, m)
		}
		for _, m := range moves[1:] {
			if m != moves[0] {
				t.Errorf("%s: %s, %s, %s read as different moves", c.Pos1, c.AlgText, c.LongAlgText, c.UCIText)
			}
		}
		if len(moves) == 0 {
			continue
		}
		// Compared without marks: the fixture leaves out the + of Qxd1+
		// (a queen taking on d1 beside the king on e1 gives check).
		if got, want := p.FormatMove(moves[0], engine.SAN), c.AlgText; strings.TrimRight(got, "+#") != strings.TrimRight(want, "+#!?") {
			t.Errorf("%s: SAN %s, want %s", c.Pos1, got, want)
		}
		if got := p.FormatMove(moves[0], engine.UCI); got != c.UCIText {
			t.Errorf("%s: UCI %s, want %s", c.Pos1, got, c.UCIText)
		}
		p.Make(moves[0])
		if got := p.FEN(); got != want {
			t.Errorf("%s then %s: FEN %s, want %s", c.Pos1, c.AlgText, got, want)
		}
	}
}

// replayGame plays a game's tokens and checks, for every move, that the
// check and mate marks of the source agree with the position, and that the
// move's own SAN and UCI read back to it. It returns the final position.
func replayGame(t *testing.T, name string, g testGame) *Position {
	t.Helper()
	p := NewStart()
	if g.fen != "" {
		p = mustFEN(t, g.fen)
	}
	for i, tok := range g.moves {
		m, err := p.ParseMove(tok, engine.Auto)
		if err != nil {
			t.Errorf("%s ply %d: %v (position %s)", name, i+1, err, p.FEN())
			return p
		}
		for _, n := range []engine.Notation{engine.SAN, engine.UCI} {
			if back, err := p.ParseMove(p.FormatMove(m, n), n); back != m || err != nil {
				t.Errorf("%s ply %d: %s does not read back: %v", name, i+1, p.FormatMove(m, n), err)
			}
		}
		p.Make(m)
		mark := strings.TrimRight(tok, "!?")
		switch {
		case strings.HasSuffix(mark, "#") && p.Status() != engine.Checkmate:
			t.Errorf("%s ply %d: %s marked mate, but Status() = %v", name, i+1, tok, p.Status())
		case strings.HasSuffix(mark, "+") && !p.InCheck():
			t.Errorf("%s ply %d: %s marked check, but no check", name, i+1, tok)
		}
	}
	return p
}

// TestReplayFixturePGNs replays the mainlines of the chess.js, chessops and
// notnil/chess PGN fixtures.
func TestReplayFixturePGNs(t *testing.T) {
	root := enginetest.SharedData(t, "chess")
	games := 0
	for _, pattern := range []string{"chessjs/*.pgn", "chessops/*.pgn", "notnil-chess/pgns/*.pgn"} {
		files, _ := filepath.Glob(filepath.Join(root, pattern))
		if len(files) == 0 {
			t.Errorf("no files match %s", pattern)
		}
		for _, f := range files {
			rel, _ := filepath.Rel(filepath.Dir(root), f)
			for i, g := range splitGames(readShared(t, filepath.ToSlash(rel))) {
				games++
				replayGame(t, filepath.Base(f)+" game "+string(rune('1'+i)), g)
			}
		}
	}
	if games < 100 {
		t.Errorf("replayed %d games, want at least 100", games)
	}
	// chess.js 0.pgn ends 39. Re4#.
	gs := splitGames(readShared(t, "chess/chessjs/0.pgn"))
	if p := replayGame(t, "0.pgn", gs[0]); p.Status() != engine.Checkmate {
		t.Errorf("chessjs 0.pgn: final Status() = %v, want checkmate", p.Status())
	}
}
