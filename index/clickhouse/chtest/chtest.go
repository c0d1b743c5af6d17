// Package chtest starts real clickhouse-server processes for tests: on
// loopback, on free ports, with a configuration and a data folder the
// test writes, stopped by their PID when the test ends.
package chtest

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Binaries are where Debian's package (18.16: /usr/sbin/clickhouse-server)
// and ClickHouse's own packages (/usr/bin/clickhouse server) put the server.
var Binaries = [][]string{{"/usr/bin/clickhouse", "server"}, {"/usr/sbin/clickhouse-server"}, {"/usr/bin/clickhouse-server"}}

// Binary returns the command line that runs a server, or nil.
func Binary() []string {
	if b := os.Getenv("XQDB_CLICKHOUSE"); b != "" {
		return strings.Fields(b)
	}
	for _, b := range Binaries {
		if fi, err := os.Stat(b[0]); err == nil && !fi.IsDir() {
			return b
		}
	}
	return nil
}

// Cluster is the remote_servers cluster name of Start's shards.
const Cluster = "xqdb_test"

// Server is one running server.
type Server struct {
	HTTP, TCP int
	Dir       string
	cmd       *exec.Cmd
}

// Start starts shards servers (one shard each; with two or more, every
// server knows the cluster Cluster of all of them) and returns the
// clickhouse:// URL of database db on them. It skips the test when no
// server binary is installed, unless CI is set, where that fails it.
func Start(tb testing.TB, shards int, db string) string {
	tb.Helper()
	bin := Binary()
	if bin == nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("clickhouse-server is not installed (CI=%s): apt-get install clickhouse-server", os.Getenv("CI"))
		}
		tb.Skip("clickhouse-server is not installed; skipping (apt-get install clickhouse-server; set CI=true to make this a failure)")
	}
	servers := make([]*Server, shards)
	for i := range servers {
		servers[i] = &Server{HTTP: freePort(tb), TCP: freePort(tb), Dir: tb.TempDir()}
	}
	var remote strings.Builder
	if shards > 1 {
		remote.WriteString("<remote_servers><" + Cluster + ">")
		for _, s := range servers {
			fmt.Fprintf(&remote, "<shard><replica><host>127.0.0.1</host><port>%d</port></replica></shard>", s.TCP)
		}
		remote.WriteString("</" + Cluster + "></remote_servers>")
	}
	var hosts []string
	for _, s := range servers {
		s.start(tb, bin, freePort(tb), remote.String())
		hosts = append(hosts, fmt.Sprintf("127.0.0.1:%d", s.HTTP))
	}
	for _, s := range servers {
		s.wait(tb)
	}
	u := "clickhouse://" + strings.Join(hosts, ",") + "/" + db
	if shards > 1 {
		u += "?cluster=" + Cluster
	}
	return u
}

func freePort(tb testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// config is a minimal server configuration: loopback only, the user
// default without a password, small caches (tests run several servers on
// a small machine), logs in the data folder.
const config = `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>%[1]s/server.log</log><errorlog>%[1]s/error.log</errorlog><console>0</console></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>%[2]d</http_port>
  <tcp_port>%[3]d</tcp_port>
  <interserver_http_port>%[4]d</interserver_http_port>
  <path>%[1]s/data/</path>
  <tmp_path>%[1]s/tmp/</tmp_path>
  <user_files_path>%[1]s/user_files/</user_files_path>
  <format_schema_path>%[1]s/format_schemas/</format_schema_path>
  <mark_cache_size>67108864</mark_cache_size>
  <uncompressed_cache_size>67108864</uncompressed_cache_size>
  <max_concurrent_queries>64</max_concurrent_queries>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  %[5]s
</yandex>
`

const users = `<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>2000000000</max_memory_usage></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip><ip>::1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
`

func (s *Server) start(tb testing.TB, bin []string, interserver int, remote string) {
	tb.Helper()
	cfg := filepath.Join(s.Dir, "config.xml")
	if err := os.WriteFile(cfg, fmt.Appendf(nil, config, s.Dir, s.HTTP, s.TCP, interserver, remote), 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Dir, "users.xml"), []byte(users), 0o644); err != nil {
		tb.Fatal(err)
	}
	args := append(append([]string{}, bin[1:]...), "--config-file="+cfg)
	s.cmd = exec.Command(bin[0], args...)
	s.cmd.Dir = s.Dir
	out, err := os.Create(filepath.Join(s.Dir, "stdout.log"))
	if err != nil {
		tb.Fatal(err)
	}
	s.cmd.Stdout, s.cmd.Stderr = out, out
	if err := s.cmd.Start(); err != nil {
		tb.Fatalf("start %v: %v", bin, err)
	}
	pid := s.cmd.Process.Pid
	tb.Cleanup(func() {
		// Stopped by its PID: SIGTERM, then SIGKILL if it lingers.
		_ = syscall.Kill(pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = s.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = syscall.Kill(pid, syscall.SIGKILL)
			<-done
		}
		out.Close()
	})
}

// wait returns once the server answers on its HTTP port.
func (s *Server) wait(tb testing.TB) {
	tb.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/?query=SELECT%%201", s.HTTP))
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if s.cmd.ProcessState != nil || time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(s.Dir, "error.log"))
			tb.Fatalf("clickhouse-server on port %d did not start: %v\n%s", s.HTTP, err, log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
