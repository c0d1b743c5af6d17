package xiangqi

import (
	"slices"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

func TestMirror(t *testing.T) {
	p := NewStart()
	if p.Mirror().Key() != p.Key() || p.MirrorKey() != p.Key() {
		t.Fatal("the start position is symmetric; its mirror must have the same key")
	}
	m, _ := ParseICCSMove("h2e2")
	if got := ICCS(MirrorMove(m)); got != "b2e2" {
		t.Fatalf("mirror of h2e2 = %s, want b2e2", got)
	}
	p.Make(m)
	q := NewStart()
	mb, _ := ParseICCSMove("b2e2")
	q.Make(mb)
	if p.Mirror().FEN() != q.FEN() || p.MirrorKey() != q.Key() {
		t.Fatalf("mirror after h2e2 = %s, want %s", p.Mirror().FEN(), q.FEN())
	}
	// Legal moves of the mirror are the mirrors of the legal moves.
	fen := "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1"
	a, _ := ParseFEN(fen)
	var want, got []string
	for _, m := range a.AppendLegalMoves(nil) {
		want = append(want, ICCS(MirrorMove(m)))
	}
	for _, m := range a.Mirror().AppendLegalMoves(nil) {
		got = append(got, ICCS(m))
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("mirror moves differ:\n got %v\nwant %v", got, want)
	}
	if a.Mirror().Mirror().FEN() != a.FEN() || a.Mirror().SideToMove() != engine.First {
		t.Fatal("mirroring twice must give the position back")
	}
}
