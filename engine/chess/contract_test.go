package chess

import (
	"encoding/binary"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

func TestPositionImplementsEngine(t *testing.T) {
	var p engine.Position = NewStart()
	if p.Game() != engine.Chess || p.SideToMove() != White || p.FEN() != StartFEN {
		t.Errorf("start: game %v side %v FEN %s", p.Game(), p.SideToMove(), p.FEN())
	}
	if p.Perft(0) != 1 || p.Perft(1) != 20 {
		t.Errorf("Perft(0), Perft(1) = %d, %d", p.Perft(0), p.Perft(1))
	}
}

// TestMoveLayoutIsPolyglots: to in bits 0–5, from in 6–11, promotion
// 1 N … 4 Q in 12–14 (ANCHORS §5).
func TestMoveLayoutIsPolyglots(t *testing.T) {
	tests := []struct {
		m    engine.Move
		want uint16
	}{
		{NewMove(E2, E4), 12<<6 | 28},
		{NewPromotion(E7, E8, Queen), 4<<12 | 52<<6 | 60},
		{NewPromotion(A2, B1, Knight), 1<<12 | 8<<6 | 1},
		{NewPromotion(A2, B1, Bishop), 2<<12 | 8<<6 | 1},
		{NewPromotion(A2, B1, Rook), 3<<12 | 8<<6 | 1},
		{NewPromotion(A2, B1, King), 8<<6 | 1},
	}
	for _, tt := range tests {
		if uint16(tt.m) != tt.want {
			t.Errorf("%s = %#04x, want %#04x", UCI(tt.m), uint16(tt.m), tt.want)
		}
	}
	m := NewPromotion(G7, H8, Rook)
	if From(m) != G7 || To(m) != H8 || Promotion(m) != Rook {
		t.Errorf("From/To/Promotion of g7h8r = %v %v %v", From(m), To(m), Promotion(m))
	}
}

func TestZeroMoveIsNeverLegal(t *testing.T) {
	for _, fen := range fuzzFENs {
		if p := mustFEN(t, fen); p.IsLegal(engine.NoMove) {
			t.Errorf("%s: NoMove legal", fen)
		}
	}
}

// TestPolyglotCastlingIsKingTakesRook: book moves write castling as the
// king taking its own rook; engine moves as the king's two-square step.
func TestPolyglotCastlingIsKingTakesRook(t *testing.T) {
	p := mustFEN(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	tests := []struct{ move, book engine.Move }{
		{NewMove(E1, G1), NewMove(E1, H1)},
		{NewMove(E1, C1), NewMove(E1, A1)},
		{NewMove(A1, B1), NewMove(A1, B1)},
		{NewMove(E1, F1), NewMove(E1, F1)},
	}
	for _, tt := range tests {
		if got := p.PolyglotMove(tt.move); got != uint16(tt.book) {
			t.Errorf("PolyglotMove(%s) = %s, want %s", UCI(tt.move), UCI(engine.Move(got)), UCI(tt.book))
		}
		if got, err := p.FromPolyglot(uint16(tt.book)); err != nil || got != tt.move {
			t.Errorf("FromPolyglot(%s) = %s, %v; want %s", UCI(tt.book), UCI(got), err, UCI(tt.move))
		}
	}
	play(t, p, "Kf1", "O-O")
	if got := p.PolyglotMove(NewMove(F1, G1)); got != uint16(NewMove(F1, G1)) {
		t.Errorf("king step f1g1 converted to %s", UCI(engine.Move(got)))
	}
	if _, err := p.FromPolyglot(uint16(NewMove(A1, A8))); err == nil {
		t.Errorf("FromPolyglot of an illegal move: no error")
	}
}

// TestPolyglotBookMainLine follows the heaviest entry of the Polyglot book
// performance.bin from the start (python-chess's test_polyglot: e2e4 first,
// ending in the position below) — keys and book moves, castling included.
func TestPolyglotBookMainLine(t *testing.T) {
	book := readShared(t, "chess/python-chess/polyglot/performance.bin")
	p := NewStart()
	for {
		var best uint16
		bestWeight := -1
		for i := 0; i+16 <= len(book); i += 16 { // linear scan: a test, 93k entries
			if binary.BigEndian.Uint64(book[i:]) != p.Key() {
				continue
			}
			if w := int(binary.BigEndian.Uint16(book[i+10:])); w > bestWeight {
				best, bestWeight = binary.BigEndian.Uint16(book[i+8:]), w
			}
		}
		if bestWeight < 0 {
			break
		}
		m, err := p.FromPolyglot(best)
		if err != nil {
			t.Fatalf("%s: %v", p.FEN(), err)
		}
		if p.Ply() == 0 && UCI(m) != "e2e4" {
			t.Errorf("first book move %s, want e2e4", UCI(m))
		}
		if p.PolyglotMove(m) != best {
			t.Errorf("%s: PolyglotMove(%s) = %#04x, book %#04x", p.FEN(), UCI(m), p.PolyglotMove(m), best)
		}
		p.Make(m)
	}
	if got, want := p.FEN(), "r2q1rk1/4bppp/p2p1n2/np5b/3BP1P1/5N1P/PPB2P2/RN1QR1K1 b - - 0 15"; got != want {
		t.Errorf("book main line ends at %s, want %s", got, want)
	}
}

func TestCloneIsIndependent(t *testing.T) {
	p := NewStart()
	play(t, p, "e4", "e5")
	c := p.Clone().(*Position)
	play(t, c, "Nf3")
	if p.FEN() == c.FEN() || p.Ply() != 2 || c.Ply() != 3 {
		t.Fatalf("clone shares state: %s / %s", p.FEN(), c.FEN())
	}
	c.Unmake()
	c.Unmake()
	c.Unmake()
	p.Unmake()
	if c.FEN() != StartFEN || p.FEN() == StartFEN {
		t.Errorf("histories not independent: %s / %s", c.FEN(), p.FEN())
	}
}

func TestResetReusesPosition(t *testing.T) {
	p := mustFEN(t, perftPositions[1])
	play(t, p, "O-O")
	p.Reset()
	if p.FEN() != StartFEN || p.Ply() != 0 || p.Key() != 0x463b96181691fc9c {
		t.Errorf("after Reset: %s ply %d", p.FEN(), p.Ply())
	}
}

func TestSetFEN(t *testing.T) {
	p := NewStart()
	play(t, p, "e4")
	if err := p.SetFEN(perftPositions[2]); err != nil || p.FEN() != perftPositions[2] || p.Ply() != 0 {
		t.Errorf("SetFEN: %v, %s ply %d", err, p.FEN(), p.Ply())
	}
	if err := p.SetFEN("bad"); err == nil || p.FEN() != perftPositions[2] {
		t.Errorf("SetFEN(bad): %v, position now %s", err, p.FEN())
	}
}

func TestHistoryAccessors(t *testing.T) {
	p := NewStart()
	play(t, p, "e4", "e5", "Nf3")
	if got := p.Moves(nil); len(got) != 3 || UCI(got[2]) != "g1f3" || p.LastMove() != got[2] {
		t.Errorf("Moves() = %v", got)
	}
	if p.PieceAt(F3) != NewPiece(White, Knight) || p.PieceAt(G1) != NoPiece {
		t.Errorf("PieceAt wrong")
	}
	if NewStart().LastMove() != engine.NoMove {
		t.Errorf("LastMove at start")
	}
}

func TestUnmakeWithoutMovePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("no panic")
		}
	}()
	NewStart().Unmake()
}

func TestMakeFromEmptySquarePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("no panic")
		}
	}()
	NewStart().Make(NewMove(E4, E5))
}

func TestFormatMoveNotations(t *testing.T) {
	p := NewStart()
	m := NewMove(G1, F3)
	for n, want := range map[engine.Notation]string{engine.SAN: "Nf3", engine.Auto: "Nf3", engine.UCI: "g1f3", engine.WXF: "g1f3"} {
		if got := p.FormatMove(m, n); got != want {
			t.Errorf("FormatMove(%v) = %s, want %s", n, got, want)
		}
	}
	if _, err := p.ParseMove("Nf3", engine.WXF); err == nil {
		t.Errorf("ParseMove with a Xiangqi notation: no error")
	}
	if _, err := p.ParseMove("Nf3", engine.UCI); err == nil {
		t.Errorf("ParseMove(Nf3, UCI): no error")
	}
	if got := p.FormatMove(NewMove(E2, E5), engine.SAN); got != "e2e5" {
		t.Errorf("illegal move in SAN = %s, want its UCI e2e5", got)
	}
}

func TestSquareNames(t *testing.T) {
	for s := Square(0); s < 64; s++ {
		if back, ok := ParseSquare(s.String()); !ok || back != s {
			t.Errorf("%v does not round-trip", s)
		}
	}
	if NoSquare.String() != "-" || A1.String() != "a1" || H8.String() != "h8" || E4 != NewSquare(4, 3) {
		t.Errorf("square names wrong")
	}
	if _, ok := ParseSquare("i1"); ok {
		t.Errorf("i1 parsed")
	}
}

// TestSliderAttacksMatchReference compares the slider attacks with the
// slow ray walk at every occupancy of every square's relevant rays (for
// bishops every entry init fills, not only those the magics' collisions
// check), and on pseudo-random occupancies of the whole board.
func TestSliderAttacksMatchReference(t *testing.T) {
	for s := Square(0); s < 64; s++ {
		// A rook's relevant rays: its file and rank without their ends.
		rookMask := (fileA<<s.File()&^(rank1|rank8) | rank1<<(8*s.Rank())&^(fileA|fileH)) &^ bit(s)
		for _, m := range []struct {
			mask    uint64
			dirs    *[4][2]int
			attacks func(Square, uint64) uint64
		}{{rookMask, &rookDirs, rookAttacks}, {bishopMagics[s].mask, &bishopDirs, bishopAttacks}} {
			for sub := uint64(0); ; {
				if got, want := m.attacks(s, sub), slideAttacks(s, sub, m.dirs); got != want {
					t.Fatalf("%v occ %016x: %016x, want %016x", s, sub, got, want)
				}
				if sub = (sub - m.mask) & m.mask; sub == 0 {
					break
				}
			}
		}
	}
	x := uint64(0x9E3779B97F4A7C15)
	for i := 0; i < 20000; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		occ := x & (x >> 3)
		s := Square(i & 63)
		if got, want := rookAttacks(s, occ), slideAttacks(s, occ, &rookDirs); got != want {
			t.Fatalf("rook %v occ %016x: %016x, want %016x", s, occ, got, want)
		}
		if got, want := bishopAttacks(s, occ), slideAttacks(s, occ, &bishopDirs); got != want {
			t.Fatalf("bishop %v occ %016x: %016x, want %016x", s, occ, got, want)
		}
	}
}
