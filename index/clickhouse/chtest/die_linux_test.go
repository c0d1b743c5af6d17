package chtest

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestServersDieWithTheTest runs this test binary as a child that starts
// a long-lived process as the servers are started (dieWithTest), kills
// the child with SIGKILL, as a timeout or a killed suite does, and checks
// that the process it started is gone too.
func TestServersDieWithTheTest(t *testing.T) {
	if os.Getenv("CHTEST_DIE_CHILD") != "" {
		cmd := exec.Command("sleep", "600")
		dieWithTest(cmd)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		os.Stdout.WriteString(strconv.Itoa(cmd.Process.Pid) + "\n")
		time.Sleep(10 * time.Minute)
		return
	}
	child := exec.Command(os.Args[0], "-test.run=^TestServersDieWithTheTest$")
	child.Env = append(os.Environ(), "CHTEST_DIE_CHILD=1")
	stdout, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		_ = child.Process.Kill()
		t.Fatalf("the child printed no pid: %v", err)
	}
	pid, err := strconv.Atoi(line[:len(line)-1])
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	if err := child.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = child.Wait()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		// Signal 0 finds a process that exists; a zombie of ours would
		// too, but sleep's parent was the child, so init reaps it.
		if err := syscall.Kill(pid, 0); err != nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d outlived the test that started it by 10 s", pid)
		}
	}
}
