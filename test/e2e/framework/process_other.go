//go:build unix && !linux

package framework

import "syscall"

// sysProcAttr puts the child in its own process group so stop can signal it
// and anything it forked by group ID.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
