package load

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// prefault maps the whole pages of b writable in one madvise call
// (MADV_POPULATE_WRITE, Linux 5.14+) instead of one page fault at the
// first write to each; b's contents are unchanged. On an older kernel the
// call fails and the pages fault in as before: the error is of no use.
func prefault(b []byte) {
	page := uintptr(os.Getpagesize())
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	from := (addr + page - 1) &^ (page - 1) // the first whole page
	to := (addr + uintptr(len(b))) &^ (page - 1)
	if to > from {
		_ = unix.Madvise(b[from-addr:to-addr], unix.MADV_POPULATE_WRITE)
	}
}
