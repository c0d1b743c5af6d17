package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine/enginetest"
)

func fixture(name string) string { return filepath.Join(enginetest.RepoRoot(), "testdata", name) }

func readReport(t *testing.T, path string) []reportLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []reportLine
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l reportLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("bad report line %q: %v", sc.Text(), err)
		}
		out = append(out, l)
	}
	return out
}

func TestCleanSortsGamesAndReports(t *testing.T) {
	dir := t.TempDir()
	out, rej, rep := filepath.Join(dir, "good.pgn"), filepath.Join(dir, "bad.pgn"), filepath.Join(dir, "r.jsonl")
	code, stdout, stderr := runCLI(t, "clean", "--out", out, "--rejects", rej, "--report", rep, "--json",
		fixture("ccpd-masters-3001.pgn.gz"), fixture("pgnmentor-capablanca-fischer.pgn.gz"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var sum cleanSummary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatal(err)
	}
	// CCPD: one empty record and the illegal 士６進５; pgnmentor: Gelfand's
	// Qxe1. Three CCPD games recorded as draws end in a perpetual chase (2)
	// or a mate (1): kept, and reported.
	want := cleanSummary{Files: 2, Games: 4426, Valid: 4423, Rejected: 3, Empty: 1, Mismatches: 3}
	sum.Plies, sum.Seconds = 0, 0
	if sum != want {
		t.Fatalf("summary %+v, want %+v", sum, want)
	}
	var lines []reportLine
	kinds := map[string]int{}
	for _, l := range readReport(t, rep) {
		kinds[l.Kind]++
		if l.Kind != "result_mismatch" {
			lines = append(lines, l)
		}
	}
	if len(lines) != 3 || kinds["result_mismatch"] != 3 {
		t.Fatalf("report kinds %v, want 3 rejections and 3 result mismatches", kinds)
	}
	ill := lines[1]
	if ill.Kind != "illegal" || ill.Ply != 70 || ill.Move != "士６進５" || ill.Game != 3001 || ill.Line == 0 || ill.Offset == 0 {
		t.Errorf("CCPD illegal game reported as %+v", ill)
	}
	if l := lines[2]; l.Kind != "illegal" || l.Move != "Qxe1" || l.Ply != 61 || !strings.HasSuffix(l.File, "pgnmentor-capablanca-fischer.pgn.gz") {
		t.Errorf("Gelfand–Gareev reported as %+v", l)
	}
	bad, _ := os.ReadFile(rej)
	if !bytes.Contains(bad, []byte("xqdb: rejected")) || !bytes.Contains(bad, []byte("31. Qxe1")) && !bytes.Contains(bad, []byte("31.Qxe1")) {
		t.Errorf("rejects file lacks the verbatim Gelfand game or the reason:\n%.500s", bad)
	}
	// The kept games read back as valid: cleaning the output rejects nothing.
	code, stdout, _ = runCLI(t, "clean", "--json", out)
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil || code != exitOK || sum.Valid != 4423 || sum.Rejected != 0 || sum.Mismatches != 3 {
		t.Fatalf("re-clean of the output: %+v (exit %d)", sum, code)
	}
}

func TestCleanOutputOrderDoesNotDependOnJobs(t *testing.T) {
	dir := t.TempDir()
	var outs [][]byte
	for _, jobs := range []string{"1", "2", "4"} {
		out := filepath.Join(dir, "out"+jobs+".pgn")
		if code, _, stderr := runCLI(t, "clean", "--jobs", jobs, "--out", out, fixture("pgnmentor-capablanca-fischer.pgn.gz")); code != exitOK {
			t.Fatalf("jobs %s: exit %d: %s", jobs, code, stderr)
		}
		b, _ := os.ReadFile(out)
		outs = append(outs, b)
	}
	if !bytes.Equal(outs[0], outs[1]) || !bytes.Equal(outs[0], outs[2]) {
		t.Fatal("output differs with the number of jobs")
	}
}

func TestCleanDedupeAndStrict(t *testing.T) {
	dir := t.TempDir()
	rep := filepath.Join(dir, "r.jsonl")
	f := fixture("pgnmentor-capablanca-fischer.pgn.gz")
	code, stdout, _ := runCLI(t, "clean", "--dedupe", "--report", rep, "--json", f, f)
	var sum cleanSummary
	_ = json.Unmarshal([]byte(stdout), &sum)
	if code != exitOK || sum.Duplicates < 1424 || sum.Valid+sum.Duplicates+sum.Rejected != sum.Games {
		t.Fatalf("dedupe of a file read twice: %+v", sum)
	}
	var dup *reportLine
	for _, l := range readReport(t, rep) {
		if l.Kind == "duplicate" {
			dup = &l
			break
		}
	}
	if dup == nil || dup.DuplicateOf == nil || dup.DuplicateOf.Game == 0 {
		t.Fatalf("duplicate line lacks duplicate_of: %+v", dup)
	}
	if code, _, _ := runCLI(t, "clean", "--strict", f); code != exitFailure {
		t.Fatalf("--strict with a rejected game: exit %d, want 1", code)
	}
}

func TestCleanKeepBrokenKeepsLegalPrefix(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.pgn")
	os.WriteFile(in, []byte("[Game \"Chinese Chess\"]\n[Result \"1-0\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一进二 车８进七 1-0\n"), 0o644)
	out := filepath.Join(dir, "out.pgn")
	if code, _, stderr := runCLI(t, "clean", "--keep-broken", "--out", out, in); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(out)
	s := string(b)
	if !strings.Contains(s, "3. 车一进二") || strings.Contains(s, "3. 车一进二 车８进七") || !strings.Contains(s, "cut before ply 6") || !strings.HasSuffix(strings.TrimSpace(s), "*") {
		t.Fatalf("kept prefix:\n%s", s)
	}
}

func TestConvertToWXF(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.pgn")
	os.WriteFile(in, []byte("[Game \"Chinese Chess\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\n"), 0o644)
	out := filepath.Join(dir, "out.pgn")
	if code, _, stderr := runCLI(t, "convert", "--notation", "wxf", "-o", out, in); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(out)
	if !strings.Contains(string(b), "1. C2.5 H8+7 2. H2+3 R9.8 *") {
		t.Fatalf("converted:\n%s", b)
	}
	if code, _, _ := runCLI(t, "convert", in); code != exitUsage {
		t.Fatalf("convert without -o: exit %d, want 2", code)
	}
}

func TestCleanStrictResultsRejectsMismatches(t *testing.T) {
	rep := filepath.Join(t.TempDir(), "r.jsonl")
	code, stdout, _ := runCLI(t, "clean", "--strict-results", "--report", rep, "--json", fixture("ccpd-masters-3001.pgn.gz"))
	var sum cleanSummary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil || code != exitOK || sum.Rejected != 5 || sum.Mismatches != 0 {
		t.Fatalf("--strict-results: %+v", sum)
	}
	// Under the asian profile the same chases are caught at the third
	// repetition: still mismatches, possibly more.
	code, stdout, _ = runCLI(t, "clean", "--rules", "asian", "--json", fixture("ccpd-masters-3001.pgn.gz"))
	_ = json.Unmarshal([]byte(stdout), &sum)
	if code != exitOK || sum.Mismatches < 3 {
		t.Fatalf("--rules asian: %+v", sum)
	}
	if code, _, _ := runCLI(t, "clean", "--rules", "fide", fixture("ccpd-masters-3001.pgn.gz")); code != exitUsage {
		t.Fatalf("--rules fide: exit %d, want 2", code)
	}
}

// A truncated archive: every complete game before the cut is kept, and the
// report names the game cut off, where it starts, as kind "read".
func TestCleanReportsTruncatedArchive(t *testing.T) {
	data, err := os.ReadFile(fixture("ccpd-masters-3001.pgn.gz"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cut, rep := filepath.Join(dir, "cut.pgn.gz"), filepath.Join(dir, "r.jsonl")
	if err := os.WriteFile(cut, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "clean", "--report", rep, "--json", cut, fixture("pgnmentor-capablanca-fischer.pgn.gz"))
	var sum cleanSummary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil || code != exitOK {
		t.Fatalf("exit %d: %s %v", code, stderr, err)
	}
	var reads []reportLine
	for _, l := range readReport(t, rep) {
		if l.Kind == "read" {
			reads = append(reads, l)
		}
	}
	if len(reads) != 1 || reads[0].File != cut || reads[0].Game < 1000 || reads[0].Line < 10000 || !strings.Contains(reads[0].Reason, "cut off") {
		t.Fatalf("read errors %+v, want one naming the game cut off in %s", reads, cut)
	}
	// Every game before it was read, and the next file too.
	if sum.Games != reads[0].Game-1+1+1425 {
		t.Errorf("%d games counted, want the %d before the cut, the cut one and the 1,425 of the next file", sum.Games, reads[0].Game-1)
	}
}

// A truncated XQF file is reported as kind "read" naming its game and the
// offset where the file ends, not stored as a shorter game.
func TestCleanReportsTruncatedXQF(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(enginetest.RepoRoot(), "importer", "testdata", "xqf", "test1.xqf"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cut, rep := filepath.Join(dir, "cut.xqf"), filepath.Join(dir, "r.jsonl")
	if err := os.WriteFile(cut, data[:len(data)-10], 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "clean", "--report", rep, "--json", cut)
	var sum cleanSummary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil || code != exitOK {
		t.Fatalf("exit %d: %s %v", code, stderr, err)
	}
	lines := readReport(t, rep)
	if sum.Valid != 0 || len(lines) != 1 || lines[0].Kind != "read" || lines[0].Game != 1 || lines[0].Offset != int64(len(data)-10) ||
		!strings.Contains(lines[0].Reason, "cut off") {
		t.Fatalf("%d valid, report %+v; want no game and one read error at offset %d", sum.Valid, lines, len(data)-10)
	}
}

// --encoding decodes files that are not what detection thinks (a GBK
// name that is valid UTF-8); clean, convert and import take it, and an
// unknown name is a usage error.
func TestEncodingFlag(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.pgn")
	// 谢小然 in GBK: D0BB D0A1 C8BB, also valid UTF-8 ("лСȻ").
	game := "[Game \"Chinese Chess\"]\n[Red \"\xd0\xbb\xd0\xa1\xc8\xbb\"]\n[Black \"x\"]\n\n1. h2e2 h9g7 *\n"
	if err := os.WriteFile(in, []byte(game), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		enc, want string
	}{{"auto", "лСȻ"}, {"gbk", "谢小然"}, {"GB18030", "谢小然"}} {
		out := filepath.Join(dir, tt.enc+".pgn")
		if code, _, stderr := runCLI(t, "clean", "--encoding", tt.enc, "-o", out, in); code != exitOK {
			t.Fatalf("clean --encoding %s: exit %d: %s", tt.enc, code, stderr)
		}
		got, err := os.ReadFile(out)
		if err != nil || !strings.Contains(string(got), "[Red \""+tt.want+"\"]") {
			t.Errorf("clean --encoding %s wrote %q, want Red %q", tt.enc, got, tt.want)
		}
		conv := filepath.Join(dir, "conv-"+tt.enc+".pgn")
		if code, _, stderr := runCLI(t, "convert", "--encoding", tt.enc, "-o", conv, in); code != exitOK {
			t.Fatalf("convert --encoding %s: exit %d: %s", tt.enc, code, stderr)
		}
		if got, err := os.ReadFile(conv); err != nil || !strings.Contains(string(got), "[Red \""+tt.want+"\"]") {
			t.Errorf("convert --encoding %s wrote %q, want Red %q", tt.enc, got, tt.want)
		}
	}
	db := filepath.Join(dir, "db")
	if code, _, stderr := runCLI(t, "import", "--db", db, "--encoding", "gbk", in); code != exitOK {
		t.Fatalf("import --encoding gbk: exit %d: %s", code, stderr)
	}
	if code, stdout, stderr := runCLI(t, "games", "--db", db, "--json", "--query", "red:谢小然"); code != exitOK || !strings.Contains(stdout, "谢小然") {
		t.Errorf("games red:谢小然 after import --encoding gbk: exit %d: %s %s", code, stdout, stderr)
	}
	for _, cmd := range []string{"clean", "convert", "import"} {
		args := []string{cmd, "--encoding", "ebcdic"}
		if cmd == "convert" {
			args = append(args, "-o", filepath.Join(dir, "x.pgn"))
		}
		if cmd == "import" {
			args = append(args, "--db", filepath.Join(dir, "db2"))
		}
		if code, _, stderr := runCLI(t, append(args, in)...); code != exitUsage || !strings.Contains(stderr, "ebcdic") {
			t.Errorf("%s --encoding ebcdic: exit %d (%s), want %d naming it", cmd, code, stderr, exitUsage)
		}
	}
}

// Files that give no game (empty, garbage, a format xqdb does not read, a
// broken archive, text without a game) get one stderr line and one report
// line of kind "unreadable" each, and count as files, not rejected games;
// the members of an archive are read as files, named "archive!member".
func TestUnreadableFilesAndArchives(t *testing.T) {
	dir := t.TempDir()
	var tgz bytes.Buffer
	zw := gzip.NewWriter(&tgz)
	tw := tar.NewWriter(zw)
	for _, m := range []struct{ name, body string }{{"m/a.pgn", "1. e4 e5 *\n"}, {"m/b.mxq", "x"}, {"m/c.pgn", "1. d4 Ke7 *\n"}} {
		tw.WriteHeader(&tar.Header{Name: m.name, Mode: 0o644, Size: int64(len(m.body)), Typeflag: tar.TypeReg})
		tw.Write([]byte(m.body))
	}
	tw.Close()
	zw.Close()
	files := map[string][]byte{
		"good.pgn": []byte("1. e4 *\n"), "empty.pgn": nil, "garbage.pgn": bytes.Repeat([]byte{0, 1, 2, 3}, 64),
		"x.mxq": []byte("x"), "bad.zip": []byte("PK\x03\x04 broken"), "notes.txt": []byte("no game here\n"),
		"games.tar.gz": tgz.Bytes(),
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep := filepath.Join(t.TempDir(), "r.jsonl")
	code, stdout, stderr := runCLI(t, "clean", "--json", "--report", rep, dir)
	var sum cleanSummary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil || code != exitOK {
		t.Fatalf("exit %d: %s %v", code, stderr, err)
	}
	arc := filepath.Join(dir, "games.tar.gz")
	wantUnreadable := []string{filepath.Join(dir, "bad.zip"), filepath.Join(dir, "empty.pgn"), arc + "!m/b.mxq", filepath.Join(dir, "garbage.pgn"),
		filepath.Join(dir, "notes.txt"), filepath.Join(dir, "x.mxq")}
	if sum.Files != 7 || sum.Unreadable != len(wantUnreadable) || sum.Games != 3 || sum.Valid != 2 || sum.Rejected != 1 {
		t.Errorf("summary %+v: want 7 files, %d unreadable, 3 games (2 valid, 1 rejected)", sum, len(wantUnreadable))
	}
	var got []string
	for _, l := range readReport(t, rep) {
		switch l.Kind {
		case "unreadable":
			if l.Reason == "" {
				t.Errorf("%s: no reason", l.File)
			}
			got = append(got, l.File)
		case "illegal":
			if l.File != arc+"!m/c.pgn" {
				t.Errorf("illegal move reported in %s, want %s", l.File, arc+"!m/c.pgn")
			}
		default:
			t.Errorf("report line %+v", l)
		}
	}
	if strings.Join(got, " ") != strings.Join(wantUnreadable, " ") {
		t.Errorf("unreadable\n got %v\nwant %v", got, wantUnreadable)
	}
	if n := strings.Count(stderr, ": unreadable: "); n != len(wantUnreadable) {
		t.Errorf("%d stderr lines say unreadable, want %d:\n%s", n, len(wantUnreadable), stderr)
	}
	// import says the same in its summary.
	code, stdout, stderr = runCLI(t, "import", "--json", "--db", filepath.Join(t.TempDir(), "db"), dir)
	var isum importSummary
	if err := json.Unmarshal([]byte(stdout), &isum); err != nil || code != exitOK {
		t.Fatalf("import: exit %d: %s %v", code, stderr, err)
	}
	if isum.Unreadable != len(wantUnreadable) || isum.Games != 3 || isum.Added != 2 || isum.Rejected != 1 {
		t.Errorf("import summary %+v", isum)
	}
}
