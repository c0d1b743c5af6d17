package importer_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/importer"
)

// member is a file of a test archive.
type member struct{ name, body string }

func tarOf(t *testing.T, members ...member) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, m := range members {
		typ := byte(tar.TypeReg)
		if strings.HasSuffix(m.name, "/") {
			typ = tar.TypeDir
		}
		if err := tw.WriteHeader(&tar.Header{Name: m.name, Typeflag: typ, Mode: 0o644, Size: int64(len(m.body))}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(m.body))
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func zipOf(t *testing.T, members ...member) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range members {
		w, err := zw.Create(m.name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(m.body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readAll reads every record and error of r, as "file#game" and
// "file:ERR kind".
func readAll(t *testing.T, r *importer.Reader) []string {
	t.Helper()
	var got []string
	for n := 0; ; n++ {
		if n > 1000 {
			t.Fatal("no end")
		}
		rec, err := r.Next()
		if err == io.EOF {
			return got
		}
		var ue *importer.UnreadableError
		var re *importer.ReadError
		switch {
		case errors.As(err, &ue):
			got = append(got, ue.File+":unreadable")
		case errors.As(err, &re):
			got = append(got, re.Source.File+":read")
		case err != nil && rec == nil:
			got = append(got, "ERR "+err.Error())
		default:
			got = append(got, rec.Source.File+"#"+string(rec.MoveText(0)))
		}
		if r.Err() != nil {
			return got // sticky: the file is done
		}
	}
}

// TestArchives: the members of .zip, .tar and .tar.gz/.tgz files are read
// as files of a folder, each by its own format (by content and name),
// named "archive!member"; nested archives too. Members of no game format
// are left out as in a folder, except binary game files found by their
// magic; a member that cannot be read is reported and the next is read.
func TestArchives(t *testing.T) {
	xqfData, err := os.ReadFile(filepath.Join("testdata", "xqf", "test1.xqf"))
	if err != nil {
		t.Fatal(err)
	}
	games := []member{
		{"dir/", ""},
		{"dir/a.pgn", "1. e4 *\n\n1. d4 *\n"},
		{"dir/b.xqf", string(xqfData)},
		{"README.md", "# not a game\n"},
		{"noext", string(xqfData)},
		{"c.html", "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]"},
		{"d.mxq", "whatever"},
		{"cut.xqf", string(xqfData[:len(xqfData)-5])},
		{"e.pgn.gz", string(gzipped([]byte("1. c4 *\n")))},
		{"empty.pgn", ""},
	}
	want := func(arc string) string {
		return strings.Join([]string{arc + "!dir/a.pgn#e4", arc + "!dir/a.pgn#d4", arc + "!dir/b.xqf#c3c4", arc + "!noext#c3c4",
			arc + "!c.html#h2e2", arc + "!d.mxq:unreadable", arc + "!cut.xqf:read", arc + "!e.pgn.gz#c4", arc + "!empty.pgn:unreadable"}, " ")
	}
	nested := tarOf(t, member{"inner.zip", string(zipOf(t, member{"x.pgn", "1. f4 *\n"}))}, member{"y.pgn", "1. g3 *\n"})
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"games.tar", tarOf(t, games...), want("games.tar")},
		{"games.tar.gz", gzipped(tarOf(t, games...)), want("games.tar.gz")},
		{"games.tgz", gzipped(tarOf(t, games...)), want("games.tgz")},
		{"games.zip", zipOf(t, games[1:]...), want("games.zip")},
		{"nested.tar", nested, "nested.tar!inner.zip!x.pgn#f4 nested.tar!y.pgn#g3"},
		// By content whatever the name.
		{"games.bin", tarOf(t, member{"a.pgn", "1. e4 *\n"}), "games.bin!a.pgn#e4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// From a stream, and from a file (a zip is then read in place).
			path := filepath.Join(t.TempDir(), tt.name)
			if err := os.WriteFile(path, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			fr, err := importer.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer fr.Close()
			for _, r := range []*importer.Reader{importer.NewReader(bytes.NewReader(tt.data), tt.name), fr} {
				got := strings.ReplaceAll(strings.Join(readAll(t, r), " "), filepath.Dir(path)+string(filepath.Separator), "")
				if got != tt.want {
					t.Errorf("got\n %s\nwant\n %s", got, tt.want)
				}
				if r.Format != importer.FormatArchive {
					t.Errorf("format %q, want %q", r.Format, importer.FormatArchive)
				}
			}
		})
	}
}

// TestUnreadable: a file that gives no game says so once, as an
// UnreadableError naming it and why, and ends: empty, garbage, a format
// xqdb does not read, an archive that cannot be read, text with no game.
func TestUnreadable(t *testing.T) {
	tests := []struct {
		name, file string
		data       []byte
		reason     string
	}{
		{"empty file", "a.pgn", nil, "empty file"},
		{"empty gzip", "a.pgn.gz", gzipped(nil), "empty file"},
		{"binary garbage", "a.pgn", []byte("\x00\x01\x02\x03\xff\xfe\x00\x00\x10\x11garbage\x00\x00\x00\x00\x00\x00\x00\x00\x05\x06\x07\x08\x0e\x0f"), "binary"},
		{"text with no game", "notes.txt", []byte("These are my notes about the tournament.\nNothing else.\n"), "no game"},
		{"only a comment", "a.pgn", []byte("{ just a comment }\n"), "no game"},
		{"unsupported format", "x.mxq", []byte("whatever"), "象棋魔法师"},
		{"ChessBase", "x.cbh", []byte("whatever"), "ChessBase"},
		{"corrupt gzip", "a.pgn.gz", []byte{0x1f, 0x8b, 0, 0, 1, 2, 3}, "gzip"},
		{"corrupt zip", "a.zip", append([]byte("PK\x03\x04"), bytes.Repeat([]byte{7}, 100)...), "zip"},
		{"corrupt tar", "a.tar", bytes.Repeat([]byte("x"), 1024), "tar"},
		{"archive with no game files", "a.tar", tarOf(t, member{"README.md", "hello"}, member{"pic.jpg", "\xff\xd8"}), "no game"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := importer.NewReader(bytes.NewReader(tt.data), tt.file)
			rec, err := r.Next()
			var ue *importer.UnreadableError
			if rec != nil || !errors.As(err, &ue) {
				t.Fatalf("record %v, error %v; want an UnreadableError", rec != nil, err)
			}
			if ue.File != tt.file || !strings.Contains(ue.Reason, tt.reason) || !strings.HasPrefix(err.Error(), tt.file+": unreadable: ") {
				t.Errorf("%+v (%q), want file %s and a reason with %q", ue, err, tt.file, tt.reason)
			}
			if r.Err() != err {
				t.Errorf("Err() = %v, want the sticky %v", r.Err(), err)
			}
		})
	}
}
