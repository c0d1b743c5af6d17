package clickhouse

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/index"
)

// TestNativeBlockLayout: a block is the Native format the HTTP interface
// reads (as 18.16 writes it for SELECT … FORMAT Native): columns, rows,
// then per column its name, type and values.
func TestNativeBlockLayout(t *testing.T) {
	b := newBlock("db.t", parseColumns("key UInt64, s String"))
	b.data[0] = le.AppendUint64(le.AppendUint64(nil, 1), 0x0102)
	b.data[1] = appendString(appendString(nil, "ab"), "")
	b.rows = 2
	want := []byte("\x02\x02" + "\x03key\x06UInt64" + "\x01\x00\x00\x00\x00\x00\x00\x00\x02\x01\x00\x00\x00\x00\x00\x00" + "\x01s\x06String" + "\x02ab\x00")
	if got := b.bodyBytes(); !bytes.Equal(got, want) {
		t.Errorf("body\n%q\nwant\n%q", got, want)
	}
	if got := b.insert(); got != "INSERT INTO db.t (key, s) FORMAT Native" {
		t.Errorf("insert = %s", got)
	}
}

// offlineWriter is a Writer whose blocks fill but are never sent (no
// server: its batches and blocks are larger than the games added).
func offlineWriter() *Writer {
	d := &DB{name: "x", nodes: []*node{newNode("127.0.0.1:1", "")}, opts: index.Options{RunGames: 1 << 30}}
	d.next.Store(1)
	return d.writer(1 << 16)
}

// TestAddPreparedAllocatesPerGameNotPerRow: the rows of a game are
// appended to the blocks' columns without allocating, so a game of 60
// positions costs no more allocations than a game of 4 (issue 19: encode
// rows without per-row allocations).
func TestAddPreparedAllocatesPerGameNotPerRow(t *testing.T) {
	short := []string{"h2e2", "h9g7", "h0g2"}
	long := walk(t, 60)
	allocs := func(moves []string) float64 {
		w := offlineWriter()
		// Warm: blocks and maps grown, every field value analysed; then
		// the same dates with another result, which are other games.
		for i := range 100 {
			if _, err := w.AddPrepared(gameOn(t, i, engine.FirstWins, moves)); err != nil {
				t.Fatal(err)
			}
		}
		ps := make([]*index.Prepared, 60)
		for i := range ps {
			ps[i] = gameOn(t, i, engine.Draw, moves)
		}
		i := 0
		n := testing.AllocsPerRun(50, func() {
			res, err := w.AddPrepared(ps[i])
			if err != nil || res.Duplicate {
				t.Fatalf("game %d: %+v, %v", i, res, err)
			}
			i++
		})
		return n
	}
	s, l := allocs(short), allocs(long)
	if l > s {
		t.Errorf("AddPrepared: %.1f allocations for a game of %d plies, %.1f for one of %d", l, len(long), s, len(short))
	}
}

// walk plays n plies from the start, to positions not reached before, and
// returns them in ICCS.
func walk(t *testing.T, n int) []string {
	p, _ := games.New(engine.Xiangqi, "")
	seen := map[uint64]bool{p.Key(): true}
	var out []string
	for len(out) < n {
		moved := false
		for _, m := range p.AppendLegalMoves(nil) {
			p.Make(m)
			if !seen[p.Key()] {
				seen[p.Key()] = true
				p.Unmake()
				out = append(out, p.FormatMove(m, engine.ICCS))
				p.Make(m)
				moved = true
				break
			}
			p.Unmake()
		}
		if !moved {
			t.Fatalf("walk: stuck after %v", out)
		}
	}
	return out
}

// gameOn is a game of moves on the i-th day of 1990.
func gameOn(t testing.TB, i int, result engine.Result, moves []string) *index.Prepared {
	p, _ := games.New(engine.Xiangqi, "")
	g := &index.Game{Record: index.Record{Game: engine.Xiangqi, Result: result,
		Tags: []index.Tag{{Name: "Red", Value: "Hu Ronghua"}, {Name: "Black", Value: "Lü Qin"}, {Name: "Date", Value: fmt.Sprintf("1990.%02d.%02d", 1+i/28%12, 1+i%28)}}}}
	g.Keys = append(g.Keys, p.Key())
	for _, s := range moves {
		m, err := p.ParseMove(s, engine.ICCS)
		if err != nil {
			t.Fatal(err)
		}
		p.Make(m)
		g.Moves = append(g.Moves, m)
		g.Keys = append(g.Keys, p.Key())
	}
	pr, err := index.Prepare(g)
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

// BenchmarkAddPrepared: a game of 60 plies into the blocks (rows made,
// nothing sent).
func BenchmarkAddPrepared(b *testing.B) {
	t := &testing.T{}
	moves := walk(t, 60)
	ps := make([]*index.Prepared, 300)
	for i := range ps {
		ps[i] = gameOn(b, i, engine.Result(i%3), moves)
	}
	w := offlineWriter()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i%len(ps) == 0 {
			b.StopTimer()
			w = offlineWriter()
			b.StartTimer()
		}
		if _, err := w.AddPrepared(ps[i%len(ps)]); err != nil {
			b.Fatal(err)
		}
	}
}
