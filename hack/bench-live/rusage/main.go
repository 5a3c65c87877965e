//go:build benchlive

// Command rusage runs a command (stdin, stdout and stderr passed through) and
// writes its wall time, peak RSS and CPU time as JSON to file descriptor 3:
//
//	{"wall":<ns>,"maxRSSKiB":<KiB>,"cpu":<ns>}
//
// It exits with the command's exit code. TestBenchLive runs every timed
// command through it because the peak RSS the kernel reports for a direct
// child of the test process is not the child's own: Go starts children with
// vfork (CLONE_VM), and exec records the high-water mark of the memory it
// replaces, the parent's, in the child's ru_maxrss. A child of this small
// process inherits this process's peak (a few MiB, which TestBenchLive
// measures by running /bin/true) instead of the test process's.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: rusage COMMAND [ARG...] 3>RESULT")
		os.Exit(2)
	}
	syscall.CloseOnExec(3) // for this process only, not the command
	result := os.NewFile(3, "result")
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, "rusage:", err)
		os.Exit(127)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if _, err := fmt.Fprintf(result, `{"wall":%d,"maxRSSKiB":%d,"cpu":%d}`, wall, ru.Maxrss, cpu); err != nil {
		fmt.Fprintln(os.Stderr, "rusage:", err)
		os.Exit(127)
	}
	os.Exit(cmd.ProcessState.ExitCode())
}
