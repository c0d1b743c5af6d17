// Package chtest starts real clickhouse-server processes for tests: on
// loopback, on free ports, with a configuration and a data folder the
// test writes, stopped by their PID when the test ends.
package chtest

import (
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
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

// ZooKeeperJar is where Debian's zookeeper package (libzookeeper-java)
// puts the server; its manifest names the jars it needs.
var ZooKeeperJar = "/usr/share/java/zookeeper.jar"

// ZooKeeper starts a standalone ZooKeeper on a free loopback port, with a
// configuration and data folder the test writes, stopped by its PID when
// the test ends, and returns its port. It skips the test when ZooKeeper
// or Java is not installed, unless CI is set, where that fails it.
func ZooKeeper(tb testing.TB) int {
	tb.Helper()
	java, err := exec.LookPath("java")
	if _, jerr := os.Stat(ZooKeeperJar); err != nil || jerr != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("zookeeper is not installed (CI=%s): apt-get install zookeeper", os.Getenv("CI"))
		}
		tb.Skip("zookeeper (and java) are not installed; skipping (apt-get install zookeeper; set CI=true to make this a failure)")
	}
	dir, port := tb.TempDir(), freePort(tb)
	cfg := filepath.Join(dir, "zoo.cfg")
	conf := fmt.Sprintf("tickTime=500\ndataDir=%s/data\nclientPort=%d\nclientPortAddress=127.0.0.1\nadmin.enableServer=false\n4lw.commands.whitelist=ruok\n", dir, port)
	if err := os.WriteFile(cfg, []byte(conf), 0o644); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(java, "-Xmx256m", "-Dzookeeper.log.dir="+dir, "-cp", ZooKeeperJar, "org.apache.zookeeper.server.quorum.QuorumPeerMain", cfg)
	cmd.Dir = dir
	out, err := os.Create(filepath.Join(dir, "stdout.log"))
	if err != nil {
		tb.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = out, out
	dieWithTest(cmd)
	if err := cmd.Start(); err != nil {
		tb.Fatalf("start zookeeper: %v", err)
	}
	stopByPID(tb, cmd, out)
	deadline := time.Now().Add(90 * time.Second)
	for {
		// "ruok" answers "imok" once the server serves.
		if c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second); err == nil {
			_ = c.SetDeadline(time.Now().Add(2 * time.Second))
			_, _ = c.Write([]byte("ruok"))
			b := make([]byte, 4)
			n, _ := c.Read(b)
			c.Close()
			if string(b[:n]) == "imok" {
				return port
			}
		}
		if cmd.ProcessState != nil || time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "stdout.log"))
			tb.Fatalf("zookeeper on port %d did not start:\n%s", port, log)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// needBinary returns Binary, or skips the test when no server is
// installed, unless CI is set, where that fails it.
func needBinary(tb testing.TB) []string {
	tb.Helper()
	bin := Binary()
	if bin == nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("clickhouse-server is not installed (CI=%s): apt-get install clickhouse-server", os.Getenv("CI"))
		}
		tb.Skip("clickhouse-server is not installed; skipping (apt-get install clickhouse-server; set CI=true to make this a failure)")
	}
	return bin
}

// StartReplicas starts replicas servers of one shard that replicate
// through the ZooKeeper on zkPort: each has the macros shard=01 and
// replica=r1, r2, … (which the README's replicated tables read), and the
// cluster cluster of that shard with internal replication. It returns
// the clickhouse:// URL of database db on each.
func StartReplicas(tb testing.TB, zkPort, replicas int, db, cluster string) []string {
	tb.Helper()
	bin := needBinary(tb)
	servers := make([]*Server, replicas)
	var shard strings.Builder
	shard.WriteString("<shard><internal_replication>true</internal_replication>")
	for i := range servers {
		servers[i] = &Server{HTTP: freePort(tb), TCP: freePort(tb), Dir: tb.TempDir()}
		fmt.Fprintf(&shard, "<replica><host>127.0.0.1</host><port>%d</port></replica>", servers[i].TCP)
	}
	shard.WriteString("</shard>")
	var urls []string
	for i, s := range servers {
		extra := fmt.Sprintf("<remote_servers><%[1]s>%[2]s</%[1]s></remote_servers>"+
			"<zookeeper><node><host>127.0.0.1</host><port>%[3]d</port></node></zookeeper>"+
			"<macros><shard>01</shard><replica>r%[4]d</replica></macros>", cluster, shard.String(), zkPort, i+1)
		s.start(tb, bin, freePort(tb), extra)
		urls = append(urls, fmt.Sprintf("clickhouse://127.0.0.1:%d/%s?cluster=%s", s.HTTP, db, cluster))
	}
	for _, s := range servers {
		s.wait(tb)
		s.waitZooKeeper(tb)
	}
	return urls
}

// Start starts shards servers (one shard each; with two or more, every
// server knows the cluster Cluster of all of them) and returns the
// clickhouse:// URL of database db on them. It skips the test when no
// server binary is installed, unless CI is set, where that fails it.
func Start(tb testing.TB, shards int, db string) string {
	tb.Helper()
	bin := needBinary(tb)
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

// freePort picks a free loopback port for a server to bind later. It is
// drawn below Linux's ephemeral range (32768 and up): a port the kernel
// hands out for ":0" or for an outgoing connection — the tests make
// thousands — could be taken again before the server binds it, which made
// a server fail with "Address already in use". A port is never given
// twice in one test binary.
func freePort(tb testing.TB) int {
	portsMu.Lock()
	defer portsMu.Unlock()
	for range 1000 {
		port := 20000 + rand.IntN(12000)
		if portsGiven[port] {
			continue
		}
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			continue
		}
		l.Close()
		portsGiven[port] = true
		return port
	}
	tb.Fatal("no free loopback port between 20000 and 32000")
	return 0
}

var (
	portsMu    sync.Mutex
	portsGiven = map[int]bool{}
)

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
  <interserver_http_host>127.0.0.1</interserver_http_host>
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
	dieWithTest(s.cmd)
	if err := s.cmd.Start(); err != nil {
		tb.Fatalf("start %v: %v", bin, err)
	}
	stopByPID(tb, s.cmd, out)
}

// stopByPID stops cmd when the test ends: SIGTERM to its PID, then
// SIGKILL if it lingers.
func stopByPID(tb testing.TB, cmd *exec.Cmd, out *os.File) {
	pid := cmd.Process.Pid
	tb.Cleanup(func() {
		_ = syscall.Kill(pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
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

// waitZooKeeper returns once the server reads ZooKeeper: its session is
// made on first use, and the first DDL of a replicated table failed with
// "Connection loss" when ZooKeeper had only just started.
func (s *Server) waitZooKeeper(tb testing.TB) {
	tb.Helper()
	deadline := time.Now().Add(90 * time.Second)
	q := "SELECT%20count()%20FROM%20system.zookeeper%20WHERE%20path%20%3D%20'%2F'"
	for {
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/?query=%s", s.HTTP, q))
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			tb.Fatalf("clickhouse-server on port %d never reached ZooKeeper (last: %v)", s.HTTP, err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}
