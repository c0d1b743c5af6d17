package importer_test

import (
	"encoding/binary"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/xqdb/xqdb/importer"
	"github.com/xqdb/xqdb/importer/record"
)

// patternReader streams head, unit repeated n times, then tail, without
// holding the input: the test measures the reader's memory, not the
// input's.
type patternReader struct {
	head, unit, tail []byte
	n, off           int
}

// pattern returns a stream of about size bytes.
func pattern(head, unit, tail string, size int) *patternReader {
	return &patternReader{head: []byte(head), unit: []byte(unit), tail: []byte(tail), n: (size - len(head) - len(tail)) / len(unit)}
}

func (p *patternReader) Read(b []byte) (int, error) {
	w := 0
	for w < len(b) {
		switch {
		case len(p.head) > 0:
			c := copy(b[w:], p.head)
			w, p.head = w+c, p.head[c:]
		case p.n > 0:
			c := copy(b[w:], p.unit[p.off:])
			w, p.off = w+c, p.off+c
			if p.off == len(p.unit) {
				p.off, p.n = 0, p.n-1
			}
		case len(p.tail) > 0:
			c := copy(b[w:], p.tail)
			w, p.tail = w+c, p.tail[c:]
		default:
			if w == 0 {
				return 0, io.EOF
			}
			return w, nil
		}
	}
	return w, nil
}

// xqfHead is an XQF 1.0 header (no encryption) of the standard start.
func xqfHead() string {
	h := make([]byte, 0x400)
	h[0], h[1], h[2] = 'X', 'Q', 10
	sq := [32]byte{0, 10, 20, 30, 40, 50, 60, 70, 80, 12, 72, 3, 23, 43, 63, 83,
		9, 19, 29, 39, 49, 59, 69, 79, 89, 17, 77, 6, 26, 46, 66, 86}
	copy(h[0x10:], sq[:])
	return string(h)
}

// xqfMove is an XQF 1.0 move record with "has next" and an empty comment.
func xqfMove(src, dst byte) string {
	return string(binary.LittleEndian.AppendUint32([]byte{src + 0x18, dst + 0x20, 0xF0, 0}, 0))
}

// cblLibraryHead is a CCBridge library header of 128 index slots with
// its first record's magic at the first record slot.
func cblLibraryHead() string {
	h := make([]byte, 66624+128*276)
	copy(h, "CCBridgeLibrary\x00")
	binary.LittleEndian.PutUint32(h[0x3C:], 128)
	return string(h) + "CCBridge Record\x00"
}

// cbrHead is a CCBridge record up to its move stream, whose start node
// announces moves.
func cbrHead() string {
	h := make([]byte, 0x8A6+4)
	copy(h, "CCBridge Record\x00")
	return string(h)
}

// TestMemoryStaysNearRecordLimit: a pathological input of 49 MB (one line,
// one record, one huge tag, comment or move list; in every format) is
// rejected, or read, with memory near the 32 MiB record limit, not in
// proportion to the input. Measured with runtime.MemStats: the bytes
// allocated while reading bound the peak heap.
func TestMemoryStaysNearRecordLimit(t *testing.T) {
	if raceEnabled {
		t.Skip("memory budgets are not measured under the race detector")
	}
	const size = 49 << 20
	const budget = 4 * record.DefaultMaxRecordSize       // 128 MiB in use at the peak
	const allocBudget = 10 * record.DefaultMaxRecordSize // 320 MiB allocated in all (before: up to 5 GiB)
	tests := []struct {
		name string
		file string
		in   func() io.Reader
	}{
		{"PGN movetext on one line", "a.pgn", func() io.Reader { return pattern("[Event \"x\"]\n\n1. ", "e4 e5 ", "*\n", size) }},
		{"PGN header-less movetext on one line", "a.pgn", func() io.Reader { return pattern("", "e4 e5 ", "", size) }},
		{"Chinese moves on one line", "a.txt", func() io.Reader { return pattern("1. ", "炮二平五 马８进７ ", "", size) }},
		{"PGN tag value", "a.pgn", func() io.Reader { return pattern("[Event \"", "x", "\"]\n\n1. e4 *\n", size) }},
		{"PGN comment", "a.pgn", func() io.Reader { return pattern("1. e4 {", "x ", "} *\n", size) }},
		{"PGN variations", "a.pgn", func() io.Reader { return pattern("1. e4 ", "(e4 ", "", size) }},
		{"PGN many records", "a.pgn", func() io.Reader { return pattern("", "[Event \"x\"]\n\n1. e4 e5 2. Nf3 *\n\n", "", size) }},
		{"DhtmlXQ move list", "a.html", func() io.Reader {
			return pattern("[DhtmlXQ][DhtmlXQ_movelist]", "7747", "[/DhtmlXQ_movelist][/DhtmlXQ]", size)
		}},
		{"DhtmlXQ variation list", "a.html", func() io.Reader {
			return pattern("[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]", "[DhtmlXQ_move_0_1_1]7747[/DhtmlXQ_move_0_1_1]", "[/DhtmlXQ]", size)
		}},
		{"DhtmlXQ many blocks", "a.html", func() io.Reader {
			return pattern("", "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]\n", "", size)
		}},
		{"XQF move tree", "a.xqf", func() io.Reader { return pattern(xqfHead(), xqfMove(72, 42)+xqfMove(42, 72), "", size) }},
		{"CCBridge library record of many slots", "a.cbl", func() io.Reader { return pattern(cblLibraryHead(), strings.Repeat("\x00", 4096), "", size) }},
		{"CCBridge record move tree", "a.cbr", func() io.Reader { return pattern(cbrHead(), "\x00\x00\x46\x43\x00\x00\x43\x46", "", size) }},
		// Files read whole are held to the record limit; just under it,
		// the moves are bounded too.
		{"DhtmlXQ move list under the file limit", "a.html", func() io.Reader {
			return pattern("[DhtmlXQ][DhtmlXQ_movelist]", "7747", "[/DhtmlXQ_movelist][/DhtmlXQ]", 30<<20)
		}},
		{"XQF move tree under the file limit", "a.xqf", func() io.Reader { return pattern(xqfHead(), xqfMove(72, 42)+xqfMove(42, 72), "", 30<<20) }},
		{"CCBridge record move tree under the limit", "a.cbr", func() io.Reader {
			return pattern(cbrHead(), "\x00\x00\x46\x43\x00\x00\x43\x46", "", 30<<20)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in()
			// A low GOGC makes the heap in use follow the live heap.
			defer debug.SetGCPercent(debug.SetGCPercent(10))
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			peak := make(chan uint64)
			stop := make(chan struct{})
			go func() { // sample the heap in use while reading
				var m runtime.MemStats
				var top uint64
				for {
					runtime.ReadMemStats(&m)
					top = max(top, m.HeapInuse)
					select {
					case <-stop:
						peak <- top
						return
					case <-time.After(time.Millisecond):
					}
				}
			}()
			r := importer.NewReader(in, tt.file)
			r.ReuseRecord = true
			records, tooLarge := 0, 0
			for {
				rec, err := r.Next()
				if err == io.EOF || err != nil && r.Err() != nil {
					break
				}
				if err != nil && strings.Contains(err.Error(), record.ErrRecordTooLarge.Error()) {
					tooLarge++
				}
				if rec != nil {
					records++
				}
			}
			close(stop)
			inuse := <-peak - before.HeapInuse
			runtime.ReadMemStats(&after)
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("%d records, %d too large; peak heap in use +%d MiB, %d MiB allocated", records, tooLarge, inuse>>20, alloc>>20)
			if inuse > budget || alloc > allocBudget {
				t.Errorf("reading %d MiB: peak heap in use +%d MiB, %d MiB allocated; want at most %d and %d MiB", size>>20, inuse>>20, alloc>>20, budget>>20, allocBudget>>20)
			}
			if records == 0 && tooLarge == 0 {
				t.Errorf("nothing read and nothing rejected")
			}
		})
	}
}
