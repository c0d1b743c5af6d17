package pgn_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/xqdb/xqdb/importer/pgn"
	"github.com/xqdb/xqdb/importer/record"
)

// FuzzPGN: no input panics or loops; every record's spans lie in its
// text, its raw bytes are the input's bytes at its offset, its main line
// is its depth-0 moves, and each move's offset points into the input.
func FuzzPGN(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "pgn", "*"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"[Event \"a\"]\n1. e4 {c} (1. d4 $1) 1-0\n",
		"1.e4 e6 2.d4 d5",
		"[A \"b\\\"\"] [B \"A]][\"]\n\n1. 炮二平五 马８进７ *",
		"{ never closed\n\n[Event \"x\"]\n1. e4",
		"((((((()))))) ) ) ( ;\n% x\n\x00\ufeff[",
		"1. e4 -- 2. Z0 0000 (2... -- $2) *",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, reuse := range []bool{false, true} {
			r := pgn.NewReader(bytes.NewReader(in), "fuzz")
			r.ReuseRecord = reuse
			r.MaxRecordSize = 1 << 16
			for n := 0; ; n++ {
				if n > len(in)+1 {
					t.Fatalf("%d records from %d bytes", n, len(in))
				}
				rec, err := r.Next()
				if err == io.EOF {
					break
				}
				var pe *record.ParseError
				if err != nil && !errors.As(err, &pe) {
					t.Fatalf("non-record error on in-memory input: %v", err)
				}
				if rec != nil {
					checkRecord(t, rec, in)
				}
			}
		}
	})
}

func checkRecord(t *testing.T, rec *record.Record, in []byte) {
	t.Helper()
	off := rec.Source.Offset
	if off < 0 || off+int64(len(rec.Raw)) > int64(len(in)) {
		t.Fatalf("raw [%d,+%d) outside the %d-byte input", off, len(rec.Raw), len(in))
	}
	if rec.Encoding != "utf-16le" && rec.Encoding != "utf-16be" && !bytes.Equal(in[off:off+int64(len(rec.Raw))], rec.Raw) {
		t.Fatalf("raw is not the input at offset %d", off)
	}
	moves := 0
	for _, e := range rec.Elements {
		if e.Start < 0 || e.End < e.Start || int(e.End) > len(rec.Text) {
			t.Fatalf("element %v [%d,%d) outside %d bytes of text", e.Kind, e.Start, e.End, len(rec.Text))
		}
		if e.Offset < off || e.Offset > off+int64(len(rec.Raw)) {
			t.Fatalf("element offset %d outside the record [%d,+%d)", e.Offset, off, len(rec.Raw))
		}
		if e.Kind == record.Move && e.Depth == 0 {
			if moves >= len(rec.Moves) || rec.Moves[moves] != e {
				t.Fatalf("main line differs from the depth-0 moves at %d", moves)
			}
			moves++
		}
	}
	if moves != len(rec.Moves) {
		t.Fatalf("%d main-line moves, %d depth-0 move elements", len(rec.Moves), moves)
	}
}

// FuzzMainLineOnly: a reader keeping only the main line returns the same
// records as a full reader: the same tags, main-line moves, result,
// encoding, set-up, sources and errors. (Its seeds, run by go test, are
// the bundled PGN files.)
func FuzzMainLineOnly(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "pgn", "*"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("[Event \"a\"]\n1. e4 {c} (1. d4 $1 (1. c4)) e5 $2 2. Nf3 1-0\n\n1. d4 ( 1-0"))
	f.Fuzz(func(t *testing.T, in []byte) {
		full := pgn.NewReader(bytes.NewReader(in), "fuzz")
		main := pgn.NewReader(bytes.NewReader(in), "fuzz")
		main.ReuseRecord, main.MainLineOnly = true, true
		full.MaxRecordSize, main.MaxRecordSize = 1<<16, 1<<16
		for n := 0; ; n++ {
			a, errA := full.Next()
			b, errB := main.Next()
			if fmt.Sprint(errA) != fmt.Sprint(errB) {
				t.Fatalf("record %d: errors %v and %v", n, errA, errB)
			}
			var pe *record.ParseError
			if errA == io.EOF || errA != nil && !errors.As(errA, &pe) || n > len(in)+1 {
				return // the end, or a sticky error
			}
			if (a == nil) != (b == nil) {
				t.Fatalf("record %d: %v and %v", n, a, b)
			}
			if a == nil {
				continue
			}
			if got, want := recordSummary(b), recordSummary(a); got != want {
				t.Fatalf("record %d main line only:\n%s\nfull:\n%s", n, got, want)
			}
			for _, e := range b.Elements {
				if e.Depth != 0 || e.Kind != record.Move && e.Kind != record.Result {
					t.Fatalf("record %d: element %+v kept", n, e)
				}
			}
		}
	})
}

func recordSummary(r *record.Record) string {
	var moves []string
	for i, m := range r.Moves {
		moves = append(moves, fmt.Sprintf("%s@%d:%d", r.MoveText(i), m.Line, m.Offset))
	}
	return fmt.Sprintf("%+v %q %v %q %q %q %v %q", r.Source, r.Tags, r.Game, r.Result, r.FEN, r.Encoding, r.NotationHint, moves)
}
