package load

import (
	"errors"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// TestPrefaultMapsThePages writes every page of fresh anonymous memory
// after prefault: the writes take no page fault of their own (without
// prefault, one a page).
func TestPrefaultMapsThePages(t *testing.T) {
	const pages = 1024
	page := unix.Getpagesize()
	b, err := unix.Mmap(-1, 0, pages*page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := unix.Munmap(b); err != nil {
			t.Error(err)
		}
	}()
	if err := unix.Madvise(b[:page], unix.MADV_POPULATE_WRITE); errors.Is(err, unix.EINVAL) {
		t.Skip("this kernel has no MADV_POPULATE_WRITE (Linux 5.14+): prefault does nothing here")
	}
	runtime.LockOSThread() // the fault counts are the thread's
	defer runtime.UnlockOSThread()
	prefault(b)
	before := threadFaults(t)
	for i := 0; i < len(b); i += page {
		b[i] = 1
	}
	if faults := threadFaults(t) - before; faults > pages/10 {
		t.Fatalf("%d page faults writing %d prefaulted pages", faults, pages)
	}
}

func threadFaults(t *testing.T) int64 {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		t.Fatal(err)
	}
	return ru.Minflt + ru.Majflt
}
