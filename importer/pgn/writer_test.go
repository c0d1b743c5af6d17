package pgn

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

func TestWriteRecordRoundTrip(t *testing.T) {
	in := "[Event \"Test \\\"quoted\\\"\"]\n[Result \"1-0\"]\n\n1. e4 {best by test} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 1-0\n"
	r := NewReader(strings.NewReader(in), "t.pgn")
	rec, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.WriteRecord(rec)
	w.Flush()
	want := "[Event \"Test \\\"quoted\\\"\"]\n[Result \"1-0\"]\n\n1. e4 {best by test} e5 ( 1... c5 2. Nf3 ) 2. Nf3 $1 Nc6 1-0\n\n"
	if buf.String() != want {
		t.Fatalf("got\n%q\nwant\n%q", buf.String(), want)
	}
	// What was written reads back as the same game.
	back, err := NewReader(&buf, "out.pgn").Next()
	if err != nil || len(back.Moves) != len(rec.Moves) || back.Tag("Event") != `Test "quoted"` {
		t.Fatalf("read back: %+v, %v", back, err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("want EOF, got %v", err)
	}
}

func TestWriterWrapsLongMovetext(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.WriteTags(nil)
	for i := 0; i < 100; i++ {
		w.Word("h2e2")
	}
	w.EndGame("*")
	w.Flush()
	for _, l := range strings.Split(buf.String(), "\n") {
		if len(l) > lineWidth {
			t.Fatalf("line of %d bytes: %q", len(l), l)
		}
	}
}
