package xqtest

import (
	"compress/gzip"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/importer/record"
)

// OpenShared opens a file of the shared data folder (skipping the test
// when it is absent, see enginetest.SharedData), gunzipping ".gz" files.
func OpenShared(tb testing.TB, rel string) io.Reader {
	tb.Helper()
	f, err := os.Open(enginetest.SharedData(tb, rel))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { f.Close() })
	if !strings.HasSuffix(rel, ".gz") {
		return f
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	return z
}

// ReadAll calls next until io.EOF and returns the records with the
// *ParseError that came with each (nil for a clean one). Any other error
// fails the test; records that came back nil are left out.
func ReadAll(tb testing.TB, next func() (*record.Record, error)) ([]*record.Record, []error) {
	tb.Helper()
	var recs []*record.Record
	var errs []error
	for {
		rec, err := next()
		if err == io.EOF {
			return recs, errs
		}
		var pe *record.ParseError
		if err != nil && !errors.As(err, &pe) {
			tb.Fatal(err)
		}
		if rec != nil {
			recs = append(recs, rec)
			errs = append(errs, err)
		}
	}
}

// CheckChinese compares a record's Chinese-notation move tokens with an
// ICCS oracle: each oracle move, played on a bare board from fen ("" is
// the standard start) and written in every accepted spelling, must match
// the token once normalised. It returns the number of moves that matched.
func CheckChinese(tb testing.TB, rec *record.Record, fen string, iccs []string) int {
	tb.Helper()
	if fen == "" {
		fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
	}
	b, err := FromFEN(fen)
	if err != nil {
		tb.Errorf("%+v: %v", rec.Source, err)
		return 0
	}
	for i, m := range iccs {
		forms, err := b.Chinese(m)
		if err != nil {
			tb.Errorf("%+v: ply %d: %v", rec.Source, i+1, err)
			return i
		}
		if i >= len(rec.Moves) {
			tb.Errorf("%+v: %d moves, oracle has %d", rec.Source, len(rec.Moves), len(iccs))
			return i
		}
		if got := Normalize(string(rec.MoveText(i))); !slices.Contains(forms, got) {
			tb.Errorf("%+v: ply %d token %q (%s), oracle %s = %v", rec.Source, i+1, rec.MoveText(i), got, m, forms)
			return i
		}
	}
	return len(iccs)
}
