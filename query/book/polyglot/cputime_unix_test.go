//go:build unix

package polyglot_test

import (
	"syscall"
	"time"
)

// cpuTime is the process's CPU time (user and system, every thread): on a
// shared machine the benchmarks report it beside the wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
