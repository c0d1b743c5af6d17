package main

import (
	"context"
	"errors"
	"testing"
	"unsafe"

	"github.com/xqdb/xqdb/importer"
)

// The pipeline hands records over in bundles (bundleSize); the sink still
// sees every record once, in file order, whatever the number of workers,
// the last bundle partly filled included (1,425 games: 89 bundles and 1).
func TestPipelineSinksEveryRecordInOrder(t *testing.T) {
	f := fixture("pgnmentor-capablanca-fischer.pgn.gz")
	for _, jobs := range []int{1, 2, 5} {
		p := &pipeline{files: []string{f}, jobs: jobs}
		var plies []int // each record's replayed plies, as the sink saw them
		var lines []int // each record's first line
		err := p.run(context.Background(), func(it *item) error {
			if it.readErr != nil || it.n != len(plies) {
				t.Fatalf("jobs %d: game %d (place %d): %v", jobs, len(plies)+1, it.n, it.readErr)
			}
			plies = append(plies, len(it.game.Moves))
			lines = append(lines, it.rec.Source.Line)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(plies) != 1425 || 1425%bundleSize == 0 {
			t.Fatalf("jobs %d: %d records, want 1425 (and a last bundle partly filled)", jobs, len(plies))
		}
		// The last game has an illegal 61st ply (testdata/SOURCES.md).
		if plies[1424] != 60 {
			t.Fatalf("jobs %d: the last game replayed %d plies, want 60", jobs, plies[1424])
		}
		for i := 1; i < len(lines); i++ {
			if lines[i] <= lines[i-1] {
				t.Fatalf("jobs %d: record %d (line %d) sunk after line %d", jobs, i+1, lines[i], lines[i-1])
			}
		}
	}
}

// A sink's error stops the pipeline: run returns it, and no record is
// sunk after it.
func TestPipelineStopsAtSinkError(t *testing.T) {
	stop := errors.New("stop")
	p := &pipeline{files: []string{fixture("pgnmentor-capablanca-fischer.pgn.gz")}, jobs: 2}
	n := 0
	err := p.run(context.Background(), func(it *item) error {
		n++
		if n == bundleSize+3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != bundleSize+3 {
		t.Fatalf("run: %v after %d records, want %v after %d", err, n, stop, bundleSize+3)
	}
}

// Marking repeats, the reader names each record's first copy by its
// place: the second of two copies of an archive repeats the first, record
// for record (but the games the archive holds twice, which repeat their
// first copy in the archive itself).
func TestPipelineMarksRepeatsByPlace(t *testing.T) {
	f := fixture("pgnmentor-capablanca-fischer.pgn.gz")
	p := &pipeline{files: []string{f, f}, jobs: 2, markRepeats: true}
	var firstOf []int // each record's first copy, by place
	err := p.run(context.Background(), func(it *item) error {
		first := it.n
		if it.repeat {
			first = it.repeatOf
			if first >= it.n || firstOf[first] != first {
				t.Fatalf("record %d repeats %d, itself a repeat or not earlier", it.n, first)
			}
		}
		firstOf = append(firstOf, first)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(firstOf) != 2*1425 {
		t.Fatalf("%d records, want %d", len(firstOf), 2*1425)
	}
	for i := 1425; i < len(firstOf); i++ {
		if firstOf[i] != firstOf[i-1425] {
			t.Fatalf("record %d: first copy %d, want %d (as record %d)", i, firstOf[i], firstOf[i-1425], i-1425)
		}
	}
}

// copyRecord copies a UTF-8 record's text once (its Text is its Raw), and
// a record reusing that copy for converted text leaves its Raw intact.
func TestCopyRecordSharesUTF8Text(t *testing.T) {
	utf8Rec := func(s string) *importer.Record {
		b := []byte(s)
		return &importer.Record{Raw: b, Text: b}
	}
	converted := &importer.Record{Raw: []byte("\xc5\xda\xb6\xfe"), Text: []byte("炮二")}
	var dst importer.Record
	for i, src := range []*importer.Record{utf8Rec("1. e4 e5"), converted, utf8Rec("1. d4"), converted} {
		copyRecord(&dst, src)
		if string(dst.Raw) != string(src.Raw) || string(dst.Text) != string(src.Text) {
			t.Fatalf("copy %d: raw %q text %q, want %q %q", i, dst.Raw, dst.Text, src.Raw, src.Text)
		}
		shared := unsafe.SliceData(dst.Text) == unsafe.SliceData(dst.Raw)
		if want := src != converted; shared != want {
			t.Fatalf("copy %d: text shares raw: %v, want %v", i, shared, want)
		}
	}
}
