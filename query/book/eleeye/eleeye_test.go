package eleeye_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/engine/xiangqi"
	"github.com/xqdb/xqdb/query/book/eleeye"
)

func play(t *testing.T, p *xiangqi.Position, moves string) []engine.Move {
	t.Helper()
	var ms []engine.Move
	for _, s := range strings.Fields(moves) {
		m, err := p.ParseMove(s, engine.ICCS)
		if err != nil {
			t.Fatal(err)
		}
		p.Make(m)
		ms = append(ms, m)
	}
	return ms
}

// TestKeyVectors: the table and locks SOURCES.md gives.
func TestKeyVectors(t *testing.T) {
	p := xiangqi.NewStart()
	if _, l1 := eleeye.Locks(p, false); l1 != 0x052656D5 {
		t.Errorf("start lock1 = %08x, want 052656d5", l1)
	}
	play(t, p, "h2e2 h9g7")
	if _, l1 := eleeye.Locks(p, false); l1 != 0xDF3AD30D {
		t.Errorf("lock1 after h2e2 h9g7 = %08x, want df3ad30d", l1)
	}
	m, _ := xiangqi.NewStart().ParseMove("h2e2", engine.ICCS)
	if c := eleeye.Code(m); c != 0xA7AA {
		t.Errorf("h2e2 code = %04x, want a7aa", c)
	}
	if c := eleeye.MirrorCode(0xA7AA); c != eleeye.Code(xiangqi.MirrorMove(m)) {
		t.Errorf("MirrorCode(h2e2) = %04x, want b2e2's %04x", c, eleeye.Code(xiangqi.MirrorMove(m)))
	}
}

func shipped(t *testing.T) []eleeye.Record {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(enginetest.SharedData(t, "xiangqi/books"), "eleeye-BOOK.DAT"))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := eleeye.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 12081 {
		t.Fatalf("%d records, want 12,081", len(rs))
	}
	if !bytes.Equal(eleeye.Append(nil, rs), data) {
		t.Fatal("parse/append does not round-trip the shipped book")
	}
	return rs
}

func hits(p *xiangqi.Position, hs []eleeye.Hit) string {
	var parts []string
	for _, h := range hs {
		parts = append(parts, fmt.Sprintf("%s %d", p.FormatMove(h.Move, engine.ICCS), h.Value))
	}
	return strings.Join(parts, ", ")
}

// TestShippedBookVectors: probing ElephantEye's own BOOK.DAT gives the
// vectors of SOURCES.md.
func TestShippedBookVectors(t *testing.T) {
	rs := shipped(t)
	cases := []struct{ moves, want string }{
		{"", "b2e2 1473, h2e2 1473, c3c4 546, g3g4 546, c0e2 311, g0e2 311, b0c2 89, h0g2 89, " +
			"h2d2 42, b2f2 42, b2d2 37, h2f2 37, b0a2 18, h0i2 18, h2c2 2, b2g2 2"},
		{"h2e2 h9g7", "h0g2 955, g3g4 61, c3c4 3"},
	}
	for _, c := range cases {
		p := xiangqi.NewStart()
		play(t, p, c.moves)
		got := eleeye.Probe(rs, p)
		if len(got) == 0 {
			t.Errorf("after %q: no moves", c.moves)
			continue
		}
		// Compare as sets of "move value": the order of equal values is
		// the file's move order.
		if !sameSet(hits(p, got), c.want) {
			t.Errorf("after %q:\n got %s\nwant %s", c.moves, hits(p, got), c.want)
		}
		for i := 1; i < len(got); i++ {
			if got[i].Value > got[i-1].Value {
				t.Errorf("after %q: not sorted by value: %s", c.moves, hits(p, got))
			}
		}
	}
	// The mirror of h2e2 h9g7 is b2e2 b9c7: found through the mirror, moves
	// mapped back.
	p := xiangqi.NewStart()
	play(t, p, "b2e2 b9c7")
	if got, want := hits(p, eleeye.Probe(rs, p)), "b0c2 955, c3c4 61, g3g4 3"; got != want {
		t.Errorf("mirror: got %s, want %s", got, want)
	}
}

func sameSet(a, b string) bool {
	as, bs := strings.Split(a, ", "), strings.Split(b, ", ")
	if len(as) != len(bs) {
		return false
	}
	seen := map[string]int{}
	for _, s := range as {
		seen[s]++
	}
	for _, s := range bs {
		if seen[s]--; seen[s] < 0 {
			return false
		}
	}
	return true
}

// TestProbeDropsIllegal: a record whose lock matches but whose move is not
// legal in the real position (a lock collision) is not offered.
func TestProbeDropsIllegal(t *testing.T) {
	p := xiangqi.NewStart()
	_, l1 := eleeye.Locks(p, false)
	legal, _ := p.ParseMove("h2e2", engine.ICCS)
	rs := []eleeye.Record{
		{Lock: l1, Move: eleeye.Code(legal), Value: 5},
		{Lock: l1, Move: eleeye.Code(xiangqi.NewMove(xiangqi.Square(4, 4), xiangqi.Square(4, 5))), Value: 9}, // no piece on e4
		{Lock: l1, Move: 0xFFFF, Value: 9},                                                                   // off the board
	}
	if got := hits(p, eleeye.Probe(rs, p)); got != "h2e2 5" {
		t.Errorf("got %s, want only h2e2 5", got)
	}
}

// TestBuilderMatchesMakeBook works MAKEBOOK's arithmetic by hand on three
// games: values 3/1/−1 from the mover's view summed per (position, move),
// divided by 4, dropped below 4; the start position is symmetric, so each
// first move is stored with its mirror too, and the middle-file move
// e3e4 twice.
func TestBuilderMatchesMakeBook(t *testing.T) {
	b := eleeye.NewBuilder(0)
	add := func(moves string, r engine.Result) {
		p := xiangqi.NewStart()
		ms := play(t, p, moves)
		if err := b.AddGame("", ms, r); err != nil {
			t.Fatal(err)
		}
	}
	add("h2e2 h9g7", engine.FirstWins)  // h2e2 +3 (and b2e2 +3), h9g7 −1
	add("h2e2 h9g7", engine.FirstWins)  // h2e2 6, h9g7 −2
	add("e3e4", engine.Draw)            // e3e4 stored twice: 2
	add("e3e4 h9g7", engine.FirstWins)  // e3e4 2+6 = 8
	add("h2e2 b9c7", engine.SecondWins) // h2e2 6−1 = 5; b9c7 +3
	rs := b.Records()
	start := xiangqi.NewStart()
	got := hits(start, eleeye.Probe(rs, start))
	if !sameSet(got, "h2e2 1, b2e2 1, e3e4 2") {
		t.Errorf("start: %s, want h2e2 1, b2e2 1, e3e4 2 (5/4, 5/4, 8/4)", got)
	}
	// The whole file: three records of the start's lock1, by move code
	// (e3e4 0x8797, b2e2 0xA7A4, h2e2 0xA7AA), values 8/4, 5/4, 5/4.
	_, l1 := eleeye.Locks(start, false)
	want := eleeye.Append(nil, []eleeye.Record{{l1, 0x8797, 2}, {l1, 0xA7A4, 1}, {l1, 0xA7AA, 1}})
	if got := eleeye.Append(nil, rs); !bytes.Equal(got, want) {
		t.Errorf("file %x\nwant %x", got, want)
	}
	// Nothing after h2e2 reaches 4: −2 for h9g7, 3 for b9c7.
	p := xiangqi.NewStart()
	play(t, p, "h2e2")
	if got := eleeye.Probe(rs, p); len(got) != 0 {
		t.Errorf("after h2e2: %s, want nothing below the threshold", hits(p, got))
	}
	// --max-ply 1 keeps only the first ply of each game.
	b1 := eleeye.NewBuilder(1)
	p = xiangqi.NewStart()
	ms := play(t, p, "h2e2 h9g7 h0g2")
	for range 4 {
		b1.AddGame("", ms, engine.SecondWins) // Black's moves would score 3 each
	}
	if n := b1.Occurrences(); n != 8 {
		t.Errorf("max-ply 1: %d occurrences, want 8 (h2e2 and b2e2 per game)", n)
	}
}

func TestParseRejects(t *testing.T) {
	if _, err := eleeye.Parse(make([]byte, 9)); !errors.Is(err, eleeye.ErrBadSize) {
		t.Errorf("9 bytes: %v", err)
	}
	if _, err := eleeye.Parse(eleeye.Append(nil, []eleeye.Record{{Lock: 2}, {Lock: 1}})); !errors.Is(err, eleeye.ErrUnsorted) {
		t.Errorf("unsorted: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(eleeye.Append(nil, []eleeye.Record{{Lock: 0x052656D5, Move: 0xA7AA, Value: 3}}))
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF})
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := eleeye.Parse(data)
		if err != nil {
			return
		}
		if !bytes.Equal(eleeye.Append(nil, rs), data) {
			t.Fatal("parse/append does not round-trip")
		}
		p := xiangqi.NewStart()
		for _, h := range eleeye.Probe(rs, p) {
			if !p.IsLegal(h.Move) {
				t.Fatalf("illegal move offered: %v", h.Move)
			}
		}
	})
}
