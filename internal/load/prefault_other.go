//go:build !linux

package load

// prefault does nothing where MADV_POPULATE_WRITE does not exist: the
// pages fault in at their first write.
func prefault([]byte) {}
