//go:build linux

// Package ptytest opens pseudo-terminals for tests that need the plugin's
// stderr to be a terminal (the progress line is written only to one).
package ptytest

import (
	"fmt"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// Open opens a new pseudo-terminal pair: posix_openpt, unlockpt, ptsname
// and open, the ioctls through x/sys/unix.
func Open() (ptm, pts *os.File, err error) {
	ptm, err = os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, err
	}
	var n uint32
	err = withFd(ptm, func(fd int) error {
		if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
			return fmt.Errorf("unlockpt: %w", err)
		}
		var err error
		if n, err = unix.IoctlGetUint32(fd, unix.TIOCGPTN); err != nil {
			return fmt.Errorf("ptsname: %w", err)
		}
		return nil
	})
	if err == nil {
		pts, err = os.OpenFile("/dev/pts/"+strconv.FormatUint(uint64(n), 10), os.O_RDWR|syscall.O_NOCTTY, 0)
	}
	if err != nil {
		ptm.Close()
		return nil, nil, err
	}
	return ptm, pts, nil
}

// withFd calls fn with f's descriptor without putting f in blocking mode (as
// f.Fd() would), so that Close still interrupts a pending Read.
func withFd(f *os.File, fn func(int) error) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var fnErr error
	if err := rc.Control(func(fd uintptr) { fnErr = fn(int(fd)) }); err != nil {
		return err
	}
	return fnErr
}
