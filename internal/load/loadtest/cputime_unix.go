//go:build unix

package loadtest

import (
	"syscall"
	"time"
)

// ProcessCPU is the CPU time (user + system) the process has used so far,
// for benchmarks on a shared machine, where wall time depends on the load.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
