package chtest

import (
	"os/exec"
	"syscall"
)

// dieWithTest has the kernel kill cmd when the test process dies, also
// by SIGKILL (a test binary killed at its timeout, or by whoever ran it),
// where no Cleanup runs: a server left behind keeps its ports, and every
// descriptor it inherited, such as a lock a whole-suite run holds.
func dieWithTest(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
