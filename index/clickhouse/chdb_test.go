package clickhouse

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/index"
)

// chdbNode is a node answered by chDB (npm chdb: the engine of a current
// ClickHouse release as a library, 26.7 when this was written) through
// testdata/chdb-shim.js, which node runs. XQDB_CHDB names the
// node_modules folder that holds chdb (.ci/run installs it there); the
// test skips without it.
func chdbNode(t *testing.T) *node {
	t.Helper()
	mods := os.Getenv("XQDB_CHDB")
	nodejs, err := exec.LookPath("node")
	if mods == "" || err != nil {
		t.Skip("XQDB_CHDB (a node_modules folder with npm chdb) or node is missing; skipping the current ClickHouse engine (.ci/run installs it)")
	}
	dir := t.TempDir()
	cmd := exec.Command(nodejs, filepath.Join("testdata", "chdb-shim.js"), dir)
	cmd.Env = append(os.Environ(), "NODE_PATH="+mods)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = syscall.Kill(pid, syscall.SIGKILL)
			<-done
		}
	})
	answers := bufio.NewReader(out)
	var mu sync.Mutex
	seq := 0
	via := func(sql string, body io.Reader) ([]byte, error) {
		mu.Lock()
		defer mu.Unlock()
		req := map[string]string{"sql": sql}
		if body != nil {
			seq++
			f := filepath.Join(dir, fmt.Sprintf("body%d", seq))
			b, err := io.ReadAll(body)
			if err == nil {
				err = os.WriteFile(f, b, 0o644)
			}
			if err != nil {
				return nil, err
			}
			defer os.Remove(f)
			req["in"] = f
		}
		line, _ := json.Marshal(req)
		if _, err := in.Write(append(line, '\n')); err != nil {
			return nil, err
		}
		ans, err := answers.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("chdb: %w", err)
		}
		var a struct{ Out, Err string }
		if err := json.Unmarshal(ans, &a); err != nil {
			return nil, err
		}
		if a.Err != "" {
			return nil, errors.New("chdb: " + a.Err)
		}
		return base64.StdEncoding.DecodeString(a.Out)
	}
	return &node{addr: "chdb", via: via}
}

// TestOnCurrentClickHouse: the SQL this backend sends (tables, Native
// inserts, trees in one request, searches over terms and dict, stats,
// the deletion of an interrupted import) runs on the engine of a current
// ClickHouse release as it runs on Debian's 18.16, with the same answers
// (issue 19). Distributed tables need servers: they are tested on 18.16
// only.
func TestOnCurrentClickHouse(t *testing.T) {
	n := chdbNode(t)
	rr, err := n.rows("SELECT version()")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("chDB: ClickHouse %s", rr.str())
	t.Run("killed import", func(t *testing.T) {
		killedImportEndsExact(t, func(o index.Options) (*DB, error) { return open("clickhouse://chdb/killed", o, []*node{n}) })
	})
	t.Run("tree", func(t *testing.T) {
		g1 := game(t, engine.FirstWins, "Hu Ronghua", "Lü Qin", "h2e2", "h9g7")
		g2 := game(t, engine.Draw, "Xu Yinchuan", "Lü Qin", "h2e2", "b9c7", "b0c2")
		g3 := game(t, engine.SecondWins, "Zhao Guorong", "Liu Dahua", "c3c4", "g6g5")
		treeReadsLittle(t, func(o index.Options) (*DB, error) { return open("clickhouse://chdb/tree", o, []*node{n}) }, g1, g2, g3)
	})
}
