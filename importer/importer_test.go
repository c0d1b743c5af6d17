package importer_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/importer"
)

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func TestSniff(t *testing.T) {
	xqfData, err := os.ReadFile(filepath.Join("testdata", "xqf", "test1.xqf"))
	if err != nil {
		t.Fatal(err)
	}
	cbrData, err := os.ReadFile(filepath.Join("testdata", "cbl", "test2.cbr"))
	if err != nil {
		t.Fatal(err)
	}
	pgnData := []byte("[Event \"a\"]\n1. e4 e5 *\n")
	html := []byte("<html><body><div>[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]</div></body></html>")
	tests := []struct {
		name       string
		file       string
		data       []byte
		wantFormat string
		wantRecs   int
		wantErr    error
	}{
		{"pgn", "a.pgn", pgnData, importer.FormatPGN, 1, nil},
		{"pgn without extension", "stdin", pgnData, importer.FormatPGN, 1, nil},
		{"gzipped pgn", "a.pgn.gz", gzipped(pgnData), importer.FormatPGN, 1, nil},
		{"gzip found by magic, not name", "a.dat", gzipped(pgnData), importer.FormatPGN, 1, nil},
		{"xqf by magic", "game.bin", xqfData, importer.FormatXQF, 1, nil},
		{"gzipped xqf", "game.xqf.gz", gzipped(xqfData), importer.FormatXQF, 1, nil},
		{"xqf name without magic", "BAD.XQF", []byte("not an xqf file"), importer.FormatXQF, 0, importer.ErrBadMagic},
		{"dhtmlxq in a text file", "page.txt", html, importer.FormatDhtmlXQ, 1, nil},
		{"html without a block", "index.HTM", []byte("<html></html>"), importer.FormatDhtmlXQ, 0, importer.ErrNoGames},
		{"ccbridge record by magic", "game.bin", cbrData, importer.FormatCBL, 1, nil},
		{"ccbridge name without magic", "games.CBL", []byte{0, 1, 2}, importer.FormatCBL, 0, importer.ErrBadMagic},
		{"older compressed ccbridge", "old.CBL", []byte("CCBridge\x15\x00\x00\x00\x03\x00\x00\x00\x5d\xcf\x01\x00\x78\xda"), importer.FormatUnsupported, 0, importer.ErrUnsupportedFormat},
		{"unsupported MXQ", "x.mxq", []byte("whatever"), importer.FormatUnsupported, 0, importer.ErrUnsupportedFormat},
		{"prose text file", "readme.txt", []byte("各位棋友：\n    你们好！\n"), importer.FormatPGN, 0, importer.ErrNoGames},
		{"empty", "empty.pgn", nil, "", 0, importer.ErrEmptyFile},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := importer.NewReader(bytes.NewReader(tt.data), tt.file)
			var recs int
			var firstErr error
			for {
				rec, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if rec != nil {
					recs++
					if rec.Format != tt.wantFormat || rec.Source.File != tt.file {
						t.Errorf("record format %s file %s", rec.Format, rec.Source.File)
					}
				}
				if err != nil && !errors.As(err, new(*importer.ParseError)) {
					break
				}
			}
			if r.Format != tt.wantFormat || recs != tt.wantRecs {
				t.Errorf("format %s, %d records; want %s, %d", r.Format, recs, tt.wantFormat, tt.wantRecs)
			}
			if (tt.wantErr == nil) != (firstErr == nil) || tt.wantErr != nil && !errors.Is(firstErr, tt.wantErr) {
				t.Errorf("err %v, want %v", firstErr, tt.wantErr)
			}
		})
	}
}

func TestCorruptGzipIsSticky(t *testing.T) {
	data := gzipped([]byte("[Event \"a\"]\n1. e4 *\n"))
	data = data[:len(data)/2]
	r := importer.NewReader(bytes.NewReader(data), "cut.pgn.gz")
	var err error
	for i := 0; i < 5 && err != io.EOF; i++ {
		_, err = r.Next()
		if err != nil && err != io.EOF && errors.As(err, new(*importer.ParseError)) {
			t.Fatalf("a corrupt gzip stream is an I/O error, not a record error: %v", err)
		}
	}
	if err == nil || err == io.EOF {
		t.Fatalf("err = %v, want the gzip error", err)
	}
	if _, err2 := r.Next(); err2 != err {
		t.Errorf("second call: %v, want the same sticky error", err2)
	}
}

// A truncated .pgn.gz ends with a ReadError that names the game it cut
// off, where that game starts, after every complete game before it.
func TestTruncatedGzipNamesTheCutGame(t *testing.T) {
	var text strings.Builder
	for i := 1; i <= 400; i++ {
		fmt.Fprintf(&text, "[Event \"game %d\"]\n[Round \"%d\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 %d. O-O *\n\n", i, i*7919%1000, 5)
	}
	data := gzipped([]byte(text.String()))
	r := importer.NewReader(bytes.NewReader(data[:len(data)*3/5]), "cut.pgn.gz")
	n := 0
	var err error
	for {
		var rec *importer.Record
		if rec, err = r.Next(); err != nil {
			break
		}
		n++
		if rec.Tag("Event") != fmt.Sprintf("game %d", n) {
			t.Fatalf("record %d is %q", n, rec.Tag("Event"))
		}
	}
	var re *importer.ReadError
	if !errors.As(err, &re) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("after %d games: %v, want a ReadError wrapping io.ErrUnexpectedEOF", n, err)
	}
	wantLine := 1 + n*5 // five lines a game
	if !re.Cut || re.Source.Game != n+1 || re.Source.Line != wantLine || re.Source.File != "cut.pgn.gz" {
		t.Errorf("after %d games: %+v, want game %d cut at line %d", n, re, n+1, wantLine)
	}
	if want := fmt.Sprintf("cut.pgn.gz:%d: game %d is cut off: unexpected EOF", wantLine, n+1); err.Error() != want {
		t.Errorf("message %q, want %q", err.Error(), want)
	}
	if _, err2 := r.Next(); err2 != err {
		t.Errorf("second call: %v, want the same sticky error", err2)
	}
}

func TestReuseRecord(t *testing.T) {
	in := "[Event \"a\"]\n1. e4 *\n\n[Event \"b\"]\n1. d4 *\n"
	r := importer.NewReader(strings.NewReader(in), "x.pgn")
	r.ReuseRecord = true
	a, _ := r.Next()
	b, _ := r.Next()
	if a != b || b.Tag("Event") != "b" {
		t.Errorf("ReuseRecord: records %p %p, event %q", a, b, b.Tag("Event"))
	}
	r = importer.NewReader(strings.NewReader(in), "x.pgn")
	a, _ = r.Next()
	b, _ = r.Next()
	if a == b || a.Tag("Event") != "a" || string(a.MoveText(0)) != "e4" {
		t.Errorf("without ReuseRecord the first record changed: %q %q", a.Tag("Event"), a.MoveText(0))
	}
}

func TestAll(t *testing.T) {
	r := importer.NewReader(strings.NewReader("1. e4 *\n\n1. d4 *\n"), "x.pgn")
	var moves []string
	for rec, err := range r.All() {
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, string(rec.MoveText(0)))
	}
	if strings.Join(moves, ",") != "e4,d4" {
		t.Errorf("moves %v", moves)
	}
}

// TestWalkTestdata walks importer/testdata: every readable file, each
// format, and the expected record and error counts.
func TestWalkTestdata(t *testing.T) {
	counts := map[string]int{}
	var parseErrs, games int
	err := importer.Walk([]string{"testdata"}, func(rec *importer.Record, err error) error {
		if err != nil {
			var pe *importer.ParseError
			if !errors.As(err, &pe) {
				return err
			}
			parseErrs++
		}
		if rec != nil {
			counts[rec.Format]++
			if rec.Game != engine.UnknownGame {
				games++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// 16 PGN files with 31 records, 11 XQF files, 1 page; walker8088's
	// two *_move.txt lists read as header-less Chinese movetext. Only
	// pathological-headers.pgn tells no game. Two .cbr records and a
	// CCBridge library of 36 game records and 2 section titles (the two
	// parse errors, ErrNotAGame).
	if counts["pgn"] != 33 || counts["xqf"] != 11 || counts["dhtmlxq"] != 1 || counts["cbl"] != 2+36 || parseErrs != 2 || games != 44+38 {
		t.Errorf("records %v, parse errors %d, with a game %d", counts, parseErrs, games)
	}
}

func TestWalkSkipFileAndStop(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"a.pgn": "1. e4 *\n\n1. d4 *\n\n1. c4 *\n", "b.pgn": "1. Nf3 *\n", "c.cbr": "x", "d.jpg": "x", "sub/e.PGN": "1. b3 *\n",
	} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var seen []string
	err := importer.Walk([]string{dir}, func(rec *importer.Record, err error) error {
		if err != nil {
			seen = append(seen, filepath.Base(err.(*importer.UnreadableError).File)+":unsupported")
			return nil
		}
		seen = append(seen, filepath.Base(rec.Source.File)+":"+string(rec.MoveText(0)))
		if rec.Source.File == filepath.Join(dir, "a.pgn") && rec.Source.Game == 2 {
			return importer.SkipFile
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(seen, " "), "a.pgn:e4 a.pgn:d4 b.pgn:Nf3 c.cbr:unsupported e.PGN:b3"; got != want {
		t.Errorf("walk\n got %s\nwant %s", got, want)
	}
	stop := errors.New("stop")
	if err := importer.Walk([]string{dir}, func(*importer.Record, error) error { return stop }); err != stop {
		t.Errorf("Walk returned %v, want the callback's error", err)
	}
}
