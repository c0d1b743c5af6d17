package clickhouse

import (
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/index"
)

// pipeWriter is a started Writer of blocks of rows rows and batches of
// batch games, whose inserts go to a node that reads and drops them (no
// server); inserts counts them.
func pipeWriter(rows, batch int, inserts *atomic.Int64) *Writer {
	return viaWriter(rows, batch, func(sql string, body []byte) { inserts.Add(1) })
}

// viaWriter is pipeWriter with the inserts handed to insert (it may be
// called from several goroutines at once).
func viaWriter(rows, batch int, insert func(sql string, body []byte)) *Writer {
	n := &node{via: func(sql string, body io.Reader) ([]byte, error) {
		if body == nil {
			return nil, nil // the manifest's commits, the lock
		}
		b, err := io.ReadAll(body)
		insert(sql, b)
		return nil, err
	}}
	d := &DB{name: "x", nodes: []*node{n}, opts: index.Options{RunGames: batch}}
	d.next.Store(1)
	w := d.writer(rows)
	w.start()
	return w
}

// TestWriterReusesBlocks: after the first blocks are made, a writer fills
// the same blocks again and again (each handed back after its insert),
// and no column grows: the blocks are made with room for a full block
// (issue 19: growing them from empty for every block was a sixth of a
// copy's CPU time). The games fill many blocks of positions and terms and
// many batches (games and dict blocks).
func TestWriterReusesBlocks(t *testing.T) {
	var inserts atomic.Int64
	w := pipeWriter(256, 40, &inserts)
	moves := walk(t, 60) // 61 position rows a game: a block every 4 games
	add := func(from, to int) {
		for i := from; i < to; i++ {
			if res, err := w.AddPrepared(gameOn(t, i, engine.Result(i%3), moves)); err != nil || res.Duplicate {
				t.Fatalf("game %d: %+v, %v", i, res, err)
			}
		}
	}
	add(0, 330) // gameOn has 336 dates
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	made := 0
	for name, p := range w.pools {
		made += p.made
		if p.made > p.limit {
			t.Errorf("%s: %d blocks made, at most %d allowed", name, p.made, p.limit)
		}
		fresh := presized(p.local, p.table, p.rows)
		for _, b := range p.all {
			if cap(b.items) != cap(fresh.items) {
				t.Errorf("%s: the items grew from %d to %d", name, cap(fresh.items), cap(b.items))
			}
			for i, c := range b.data {
				if cap(c) != cap(fresh.data[i]) {
					t.Errorf("%s.%s grew from %d to %d bytes", name, b.cols[i].name, cap(fresh.data[i]), cap(c))
				}
			}
		}
	}
	t.Logf("%d inserts, %d blocks made", inserts.Load(), made)
	if n := inserts.Load(); n < 4*int64(made) {
		t.Errorf("%d inserts of %d blocks, want many inserts a block", n, made)
	}
	if w.next != 331 {
		t.Errorf("next gid %d, want 331", w.next)
	}
}

// readNative reads a Native block of fixed-width columns (what inserts of
// positions and terms send): its rows, each value printed as a number.
func readNative(t *testing.T, body []byte) []string {
	t.Helper()
	d := bytesReader{b: body}
	ncols, nrows := int(d.uvarint()), int(d.uvarint())
	rows := make([]string, nrows)
	for range ncols {
		d.string() // the name
		w := fixedWidth(d.string())
		if w == 0 {
			t.Fatal("a String column")
		}
		for i := range rows {
			rows[i] += fmt.Sprintf("%d ", value(d.next(w), 0, w))
		}
	}
	if len(d.b) != 0 || d.short {
		t.Fatalf("a Native block of %d columns and %d rows: %d bytes left, short %v", ncols, nrows, len(d.b), d.short)
	}
	return rows
}

type bytesReader struct {
	b     []byte
	short bool
}

func (r *bytesReader) next(n int) []byte {
	if len(r.b) < n {
		r.short = true
		return make([]byte, n)
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *bytesReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.short = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *bytesReader) string() string { return string(r.next(int(r.uvarint()))) }

// TestWriterInsertsTheGamesRows: the position and terms rows a writer
// inserts (packed as sort items, sorted, written out as columns: sort.go)
// are the games' rows, each block in the order of its table's ORDER BY:
// a position row per distinct position a game reached (key, game, gid,
// first ply, move code, result, date, rating), a terms row per term of
// its metadata (the term's id, gid, position).
func TestWriterInsertsTheGamesRows(t *testing.T) {
	var mu sync.Mutex
	got := map[string][]string{}
	w := viaWriter(100, 7, func(sql string, body []byte) {
		table := strings.Fields(sql)[2]
		if table != "x.positions" && table != "x.terms" {
			return
		}
		rows := readNative(t, body)
		for i := 1; i < len(rows); i++ {
			if !ordered(rows[i-1], rows[i], table) {
				t.Errorf("%s: rows %q and %q out of order", table, rows[i-1], rows[i])
			}
		}
		mu.Lock()
		got[table] = append(got[table], rows...)
		mu.Unlock()
	})
	want := map[string][]string{}
	for i := range 30 {
		moves := walk(t, 4+i%9)
		p := gameOn(t, i, engine.Result(i%3), moves)
		res, err := w.AddPrepared(p)
		if err != nil || res.Duplicate {
			t.Fatalf("game %d: %+v, %v", i, res, err)
		}
		a := p.Attrs()
		p.EachOccurrence(func(key uint64, ply, code uint16) {
			want["x.positions"] = append(want["x.positions"], fmt.Sprintf("%d %d %d %d %d %d %d %d ", key, a.Game, res.Gid, ply, code, a.Result, a.Date, a.Rating))
		})
		p.EachTerm(func(field, term string, pos uint32) {
			want["x.terms"] = append(want["x.terms"], fmt.Sprintf("%d %d %d ", termID(field, term), res.Gid, pos))
		})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for table, rows := range want {
		if g := sortedCopy(got[table]); !slices.Equal(g, sortedCopy(rows)) {
			t.Errorf("%s: %d rows inserted\n%v\nwant %d\n%v", table, len(g), g, len(rows), sortedCopy(rows))
		}
	}
}

// ordered reports whether row a may come before row b in table (rows as
// readNative prints them): by key, game, gid for positions, by tid, gid
// for terms.
func ordered(a, b, table string) bool {
	var x, y [8]uint64
	fmt.Sscan(a, &x[0], &x[1], &x[2])
	fmt.Sscan(b, &y[0], &y[1], &y[2])
	n := 3
	if table == "x.terms" {
		n = 2
	}
	for i := range n {
		if x[i] != y[i] {
			return x[i] < y[i]
		}
	}
	return true
}
