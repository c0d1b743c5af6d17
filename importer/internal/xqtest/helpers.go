// Package xqtest is test support for the importer: opening shared real
// data, reading every record of a reader, and checking move tokens as
// written (CCPD, walker8088 PGN, XQF move lists) against ICCS oracles with
// the rules engine.
package xqtest

import (
	"compress/gzip"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"unicode"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/engine/xiangqi"
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
// ICCS oracle: each token, read by the rules engine in the position the
// oracle's moves reach from fen ("" is the standard start), must name the
// oracle's move. It returns the number of moves that matched. Records
// whose set-up the engine refuses (a missing general, a piece where it can
// never stand) are not compared: 0.
func CheckChinese(tb testing.TB, rec *record.Record, fen string, iccs []string) int {
	tb.Helper()
	if fen == "" {
		fen = xiangqi.StartFEN
	}
	p, err := xiangqi.ParseFEN(fen)
	if err != nil {
		return 0
	}
	for i, s := range iccs {
		if i >= len(rec.Moves) {
			tb.Errorf("%+v: %d moves, oracle has %d", rec.Source, len(rec.Moves), len(iccs))
			return i
		}
		want, ok := xiangqi.ParseICCSMove(s)
		got, err := p.ParseMoveBytes(rec.MoveText(i), engine.Auto)
		if !ok || err != nil || got != want {
			tb.Errorf("%+v: ply %d token %q reads as %v (%v), oracle %s", rec.Source, i+1, rec.MoveText(i), got, err, s)
			return i
		}
		p.Make(want)
	}
	return len(iccs)
}

// ICCSOf reads moves written in any Xiangqi notation from fen with the
// rules engine and returns them in ICCS, so tests can compare what a
// reader produced (XQF and DhtmlXQ give ICCS) with move lists written in
// Chinese.
func ICCSOf(tb testing.TB, fen string, moves []string) []string {
	tb.Helper()
	if fen == "" {
		fen = xiangqi.StartFEN
	}
	p, err := xiangqi.ParseFEN(fen)
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for i, s := range moves {
		m, err := p.ParseMove(s, engine.Auto)
		if err != nil {
			tb.Fatalf("move %d %q: %v", i+1, s, err)
		}
		out = append(out, xiangqi.ICCS(m))
		p.Make(m)
	}
	return out
}

// IsChineseName reports whether s reads as Chinese text: at least one Han
// character, and besides ASCII only CJK punctuation and full-width forms
// (not the Cyrillic, Latin or kana letters a wrong decoding gives).
func IsChineseName(s string) bool {
	han := false
	for _, r := range s {
		switch {
		case r < 0x80:
		case unicode.Is(unicode.Han, r):
			han = true
		case r >= 0x3000 && r <= 0x303F, r >= 0xFF00 && r <= 0xFFEF:
		default:
			return false
		}
	}
	return han
}
