package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/importer"
)

// The examples of the help texts and of the README run as a person types
// them (issue 14): each line goes to sh, in a working folder that is also
// $HOME, with xqdb on the PATH being this test binary (TestMain runs main
// under XQDB_TEST_MAIN=1), so pipes, redirections, &&, ~ and globs work as
// printed. The folder holds the files
// the examples name, made from the bundled games (examplesWorkspace):
//
//	testdata/        the repository's testdata (xqdb demo reads it from the working folder)
//	games.pgn        the bundled chess games (1,425; one illegal)
//	games/           importer/testdata/xqf/*.xqf and *.XQF (real XQF records, four broken) and
//	                 ccpd-300.pgn, the first 300 bundled CCPD games, and new.pgn, the first 20 chess games
//	archive/         the bundled CCPD games (.pgn.gz) and wrong-file.tar.gz, a tarball of wrong-file.pgn
//	wrong-file.pgn   the 49 Capablanca–Alekhine games of the chess fixture again, each dated ten
//	                 years late: a file imported by mistake, whose games twins pairs with the real ones
//	xqdb-data/       the default --db: the bundled games imported as xqdb demo imports them (ids
//	                 1–4,424), then wrong-file.pgn (ids 4,425–4,473)
//	games.xqdb       the same database under another name (a symbolic link)
//	a.bin, b.bin     Polyglot books of the Capablanca and of the Fischer games
//	performance.bin  a Polyglot book of all the bundled chess games
//	BOOK.DAT         an ElephantEye book of the bundled CCPD games
//
// What the test changes in a line is only what cannot run here as printed,
// each documented where it is done (exampleLimits): a smaller --games,
// --nodes and --depth for selfplay, the address of the ClickHouse servers
// the test starts, and a free port for serve.

// atExit holds the removal of folders the tests of this package share;
// TestMain runs it after the tests.
var (
	atExitMu sync.Mutex
	atExit   []func()
)

func onExit(f func()) {
	atExitMu.Lock()
	defer atExitMu.Unlock()
	atExit = append(atExit, f)
}

func runAtExit() {
	atExitMu.Lock()
	defer atExitMu.Unlock()
	for _, f := range atExit {
		f()
	}
	atExit = nil
}

// exampleWorkspace is the folder the examples run in: always the same
// path, because a database keeps the absolute path of each file it
// imported (delete --source names wrong-file.pgn by it); reset restores it
// from a pristine copy before each group of examples.
type exampleWorkspace struct {
	dir, pristine string
}

var (
	workspaceOnce sync.Once
	workspace     *exampleWorkspace
	workspaceErr  error
)

// examplesWorkspace builds the examples' folder once per test binary.
func examplesWorkspace(t *testing.T) *exampleWorkspace {
	t.Helper()
	workspaceOnce.Do(func() {
		tmp, err := os.MkdirTemp("", "xqdb-examples-")
		if err != nil {
			workspaceErr = err
			return
		}
		onExit(func() { os.RemoveAll(tmp) })
		w := &exampleWorkspace{dir: filepath.Join(tmp, "work"), pristine: filepath.Join(tmp, "pristine")}
		if workspaceErr = buildWorkspace(w.dir); workspaceErr == nil {
			workspaceErr = copyTree(w.dir, w.pristine, false)
		}
		workspace = w
	})
	if workspaceErr != nil {
		t.Fatalf("example workspace: %v", workspaceErr)
	}
	return workspace
}

// reset restores the workspace as it was built, and returns its folder.
func (w *exampleWorkspace) reset(t *testing.T) string {
	t.Helper()
	if err := os.RemoveAll(w.dir); err != nil {
		t.Fatal(err)
	}
	if err := copyTree(w.pristine, w.dir, true); err != nil {
		t.Fatal(err)
	}
	return w.dir
}

func buildWorkspace(dir string) error {
	root := enginetest.RepoRoot()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.Symlink(filepath.Join(root, "testdata"), filepath.Join(dir, "testdata")); err != nil {
		return err
	}
	chess, err := gunzip(fixture("pgnmentor-capablanca-fischer.pgn.gz"))
	if err != nil {
		return err
	}
	xq, err := gunzip(fixture("ccpd-masters-3001.pgn.gz"))
	if err != nil {
		return err
	}
	chessRecs, xqRecs := splitRecords(chess, "[Event "), splitRecords(xq, "[Game ")
	if len(chessRecs) != 1425 || len(xqRecs) != 3001 {
		return fmt.Errorf("fixtures split into %d and %d records", len(chessRecs), len(xqRecs))
	}
	var capa, fischer, wrong [][]byte
	late := regexp.MustCompile(`\[Date "(\d{4})`)
	for _, r := range chessRecs {
		if bytes.Contains(r, []byte(`[White "Fischer`)) || bytes.Contains(r, []byte(`[Black "Fischer`)) {
			fischer = append(fischer, r)
		} else {
			capa = append(capa, r)
		}
		if bytes.Contains(r, []byte("Capablanca")) && bytes.Contains(r, []byte("Alekhine")) {
			wrong = append(wrong, late.ReplaceAllFunc(r, func(m []byte) []byte {
				var y int
				fmt.Sscanf(string(m[7:]), "%d", &y)
				return fmt.Appendf(nil, `[Date "%d`, y+10)
			}))
		}
	}
	if len(wrong) != 49 {
		return fmt.Errorf("%d Capablanca–Alekhine games; want 49", len(wrong))
	}
	files := map[string][]byte{
		"games.pgn":          chess,
		"wrong-file.pgn":     bytes.Join(wrong, nil),
		"games/ccpd-300.pgn": bytes.Join(xqRecs[:300], nil),
		"games/new.pgn":      bytes.Join(chessRecs[:20], nil),
		"capablanca.pgn":     bytes.Join(capa, nil),
		"fischer.pgn":        bytes.Join(fischer, nil),
	}
	for name, b := range files {
		if err := writeFileAll(filepath.Join(dir, name), b); err != nil {
			return err
		}
	}
	xqfs, err := filepath.Glob(filepath.Join(root, "importer", "testdata", "xqf", "*.[xX][qQ][fF]"))
	if err != nil || len(xqfs) < 5 {
		return fmt.Errorf("XQF fixtures: %v (%d)", err, len(xqfs))
	}
	for _, f := range xqfs {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if err := writeFileAll(filepath.Join(dir, "games", filepath.Base(f)), b); err != nil {
			return err
		}
	}
	if err := writeTarGzFiles(filepath.Join(dir, "archive", "wrong-file.tar.gz"), map[string][]byte{"wrong-file.pgn": files["wrong-file.pgn"]}); err != nil {
		return err
	}
	b, err := os.ReadFile(fixture("ccpd-masters-3001.pgn.gz"))
	if err != nil {
		return err
	}
	if err := writeFileAll(filepath.Join(dir, "archive", "ccpd.pgn.gz"), b); err != nil {
		return err
	}
	// The database, as demo imports the bundled games, then the wrong file;
	// the books.
	steps := [][]string{
		append([]string{"import", "--progress=never", "--db", "xqdb-data"}, fixture(demoFiles[0]), fixture(demoFiles[1])),
		{"import", "--progress=never", "--db", "xqdb-data", "wrong-file.pgn"},
		{"book", "build", "--progress=never", "--game", "chess", "-o", "a.bin", "capablanca.pgn"},
		{"book", "build", "--progress=never", "--game", "chess", "-o", "b.bin", "fischer.pgn"},
		{"book", "build", "--progress=never", "--game", "chess", "-o", "performance.bin", "games.pgn"},
		{"book", "build", "--progress=never", "-o", "BOOK.DAT", "games/ccpd-300.pgn"},
	}
	sh := &shell{dir: dir}
	for _, args := range steps {
		code, _, stderr, err := sh.xqdb(args...)
		if err != nil || code != exitOK {
			return fmt.Errorf("xqdb %s: exit %d, %v: %s", strings.Join(args, " "), code, err, stderr)
		}
	}
	for _, f := range []string{"capablanca.pgn", "fischer.pgn"} {
		os.Remove(filepath.Join(dir, f))
	}
	return os.Symlink("xqdb-data", filepath.Join(dir, "games.xqdb"))
}

func gunzip(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(z)
}

// splitRecords cuts a PGN file's bytes before each line starting with
// first (its records' first tag).
func splitRecords(b []byte, first string) [][]byte {
	var out [][]byte
	start := 0
	for i := 0; i < len(b); {
		j := bytes.Index(b[i:], []byte("\n"+first))
		if j < 0 {
			break
		}
		cut := i + j + 1
		if cut > start && len(bytes.TrimSpace(b[start:cut])) > 0 {
			out = append(out, b[start:cut])
		}
		start, i = cut, cut
	}
	if len(bytes.TrimSpace(b[start:])) > 0 {
		out = append(out, b[start:])
	}
	return out
}

// writeTarGzFiles writes a .tar.gz archive of files (name → content).
func writeTarGzFiles(path string, files map[string][]byte) error {
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	tw := tar.NewWriter(z)
	names := slices.Sorted(maps.Keys(files))
	for _, name := range names {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(files[name])), Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		if _, err := tw.Write(files[name]); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := z.Close(); err != nil {
		return err
	}
	return writeFileAll(path, buf.Bytes())
}

func writeFileAll(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// copyTree copies folder src to dst, keeping symbolic links as links
// (games.xqdb names xqdb-data of its own folder). With link, files
// outside databases are hard links: the examples only read them, and
// write their outputs to new files.
func copyTree(src, dst string, link bool) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			l, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(l, to)
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case link && !strings.HasPrefix(rel, "xqdb-data"+string(filepath.Separator)):
			return os.Link(p, to)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
}

// shell runs command lines with sh in dir, with xqdb on the PATH.
type shell struct {
	dir string
	bg  []*exec.Cmd // started by start, stopped by stop
}

var (
	xqdbBinOnce sync.Once
	xqdbBinDir  string
	xqdbBinErr  error
)

// xqdbOnPath returns a folder holding an xqdb that runs this test binary's
// main.
func xqdbOnPath() (string, error) {
	xqdbBinOnce.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			xqdbBinErr = err
			return
		}
		dir, err := os.MkdirTemp("", "xqdb-bin-")
		if err != nil {
			xqdbBinErr = err
			return
		}
		onExit(func() { os.RemoveAll(dir) })
		script := "#!/bin/sh\nXQDB_TEST_MAIN=1 exec '" + strings.ReplaceAll(exe, "'", `'\''`) + "' \"$@\"\n"
		xqdbBinErr = os.WriteFile(filepath.Join(dir, "xqdb"), []byte(script), 0o755)
		xqdbBinDir = dir
	})
	return xqdbBinDir, xqdbBinErr
}

// command is sh -c line in the shell's folder, in a process group of its
// own (a timeout kills every process of the line), with HOME the folder.
func (s *shell) command(ctx context.Context, line string) (*exec.Cmd, error) {
	bin, err := xqdbOnPath()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", line)
	cmd.Dir = s.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var env []string
	for _, e := range os.Environ() {
		switch k, _, _ := strings.Cut(e, "="); k {
		case "HOME", "PATH", "XQDB_STORE", "XQDB_TEST_MAIN", "PWD":
			continue
		}
		env = append(env, e)
	}
	cmd.Env = append(env, "HOME="+s.dir, "PWD="+s.dir, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return cmd, nil
}

// exampleTimeout bounds one example line: each runs in seconds.
const exampleTimeout = 3 * time.Minute

// run runs line and returns its exit code and output.
func (s *shell) run(line string) (code int, stdout, stderr string, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), exampleTimeout)
	defer cancel()
	cmd, err := s.command(ctx, line)
	if err != nil {
		return 0, "", "", err
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ctx.Err() == nil:
		code, err = ee.ExitCode(), nil
	case ctx.Err() != nil:
		err = fmt.Errorf("did not finish in %v", exampleTimeout)
	}
	return code, out.String(), errb.String(), err
}

// xqdb runs xqdb with args (no shell words involved).
func (s *shell) xqdb(args ...string) (code int, stdout, stderr string, err error) {
	q := []string{"xqdb"}
	for _, a := range args {
		q = append(q, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	return s.run(strings.Join(q, " "))
}

// start runs line in the background (xqdb serve) until stop; its output
// goes to the files out and errOut in the shell's folder's parent.
func (s *shell) start(t *testing.T, line string) (stdout, stderr *os.File) {
	t.Helper()
	cmd, err := s.command(context.Background(), line)
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr = tempOutput(t, t.TempDir(), "stdout"), tempOutput(t, t.TempDir(), "stderr")
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.bg = append(s.bg, cmd)
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			_ = cmd.Wait()
		}
	})
	return stdout, stderr
}

// stop ends the background lines with SIGTERM, as Ctrl-C would, and
// checks that each exits 0.
func (s *shell) stop(t *testing.T) {
	t.Helper()
	for _, cmd := range s.bg {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%s: stopped by SIGTERM: %v", strings.Join(cmd.Args, " "), err)
			}
		case <-time.After(time.Minute):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
			t.Errorf("%s: did not stop on SIGTERM", strings.Join(cmd.Args, " "))
		}
	}
	s.bg = nil
}

// waitServing waits until the xqdb serve started in the background prints
// its URL, and returns it.
func waitServing(t *testing.T, stdout, stderr *os.File) string {
	t.Helper()
	url := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if u := url.FindString(readAll(stdout)); u != "" {
			return u
		}
	}
	t.Fatalf("xqdb serve printed no URL: %s %s", readAll(stdout), readAll(stderr))
	return ""
}

// exampleLimits is every change the tests make to an example line before
// running it, so that it runs here and in seconds: selfplay plays 2 games
// of 300 nodes or depth 2 a move, ClickHouse is the servers the test
// started (hosts and the test cluster's name), serve listens on a free
// port. clickhouse maps a URL's "host:port,…/db?cluster=c" as printed to
// the test's.
func exampleLimits(line string, clickhouse map[string]string) string {
	if strings.Contains(line, "xqdb selfplay") {
		for flag, v := range map[string]string{"--games": "2", "--nodes": "300", "--depth": "2"} {
			line = regexp.MustCompile(flag+` \d+`).ReplaceAllString(line, flag+" "+v)
		}
	}
	for from, to := range clickhouse {
		line = strings.ReplaceAll(line, from, to)
	}
	if strings.HasPrefix(line, "xqdb serve") {
		// exec: the shell becomes xqdb, which SIGTERM then stops.
		line = "exec xqdb serve --addr 127.0.0.1:0" + strings.TrimPrefix(line, "xqdb serve")
	}
	return line
}

// outputArgs are the flags whose value is a file a command writes.
var outputArgs = map[string]bool{"-o": true, "--out": true, "--data": true, "--report": true, "--rejects": true, ">": true}

// checkExampleOutputs checks what an example wrote: each file it names after an
// output flag (or a > redirection) exists, is not empty and reads as what
// its name says — PGN games, JSON lines, a book with entries, training
// data; stdout is JSON under --json. It returns a line per defect.
func checkExampleOutputs(t *testing.T, dir, line, stdout string) []string {
	t.Helper()
	var bad []string
	words := shellWords(line)
	for i := 1; i < len(words); i++ {
		if !outputArgs[words[i-1]] {
			continue
		}
		name := words[i]
		path := filepath.Join(dir, name)
		b, err := os.ReadFile(path)
		if err != nil || len(b) == 0 {
			bad = append(bad, fmt.Sprintf("%s: missing or empty (%v)", name, err))
			continue
		}
		switch ext := strings.ToLower(filepath.Ext(name)); ext {
		case ".pgn":
			if n, err := countRecords(path); err != nil || n == 0 {
				bad = append(bad, fmt.Sprintf("%s: %d games (%v)", name, n, err))
			}
		case ".jsonl":
			for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				if !json.Valid([]byte(l)) {
					bad = append(bad, fmt.Sprintf("%s: line %q is not JSON", name, l))
					break
				}
			}
		case ".bin", ".obk", ".dat":
			code, out, stderr := runCLI(t, "book", "info", "--json", path)
			var info struct{ Entries int }
			if err := json.Unmarshal([]byte(out), &info); code != exitOK || err != nil || info.Entries == 0 {
				bad = append(bad, fmt.Sprintf("%s: book info: exit %d, %s %s", name, code, out, stderr))
			}
		case ".plain":
			if !strings.HasPrefix(string(b), "fen ") || !strings.Contains(string(b), "\nmove ") || !strings.Contains(string(b), "\ne\n") {
				bad = append(bad, fmt.Sprintf("%s: not training data: %.200s", name, b))
			}
		default:
			bad = append(bad, fmt.Sprintf("%s: no check for files named so", name))
		}
	}
	if strings.Contains(line, "--json") && !slices.ContainsFunc(words, func(w string) bool { return w == ">" || w == "-o" || w == "--out" }) {
		dec := json.NewDecoder(strings.NewReader(stdout))
		n := 0
		for {
			var v any
			if err := dec.Decode(&v); err == io.EOF {
				break
			} else if err != nil {
				bad = append(bad, fmt.Sprintf("--json: stdout is not JSON: %v: %.300s", err, stdout))
				break
			}
			n++
		}
		if n == 0 {
			bad = append(bad, "--json: nothing on stdout")
		}
	}
	return bad
}

// countRecords reads a PGN file through the importer: its games, or the
// first error.
func countRecords(path string) (int, error) {
	r, err := importer.Open(path)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	n := 0
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		if rec != nil {
			n++
		}
	}
}
