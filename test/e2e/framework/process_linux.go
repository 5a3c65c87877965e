package framework

import "syscall"

// sysProcAttr puts the child in its own process group (so stop can signal
// it and anything it forked by group ID) and asks the kernel to kill it if
// the test binary dies without running its cleanups (e.g. a -timeout panic).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
