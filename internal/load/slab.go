package load

import "unsafe"

// slabLen is how many values a slab holds: 256 pods are about 300 KB, a
// large object of their own pages. Measured against 64 and 1,024 in
// docs/PERFORMANCE.md ("Session 11 (issue #39): pods from slabs").
const slabLen = 256

// slab hands out new values of T from arrays of slabLen, each made at
// once and its pages mapped at once (prefault), instead of one allocation
// per value: a file's pods are half of what its read allocates, and the
// first write to each of their pages, made by the allocator's header or
// the pod's copy, was a page fault of its own. A value handed out keeps
// its whole array alive, so slabs suit values that live as long as each
// other (a file's pods, kept by the model to the end). Not safe for
// concurrent use: each decoder takes one from a pool.
type slab[T any] struct{ free []T }

// next returns a zeroed *T not handed out before.
func (s *slab[T]) next() *T {
	if len(s.free) == 0 {
		s.free = make([]T, slabLen)
		prefaultSlice(s.free)
	}
	v := &s.free[0]
	s.free = s.free[1:]
	return v
}

// prefaultSlice maps the whole pages s spans (prefault); its contents are
// unchanged.
func prefaultSlice[T any](s []T) {
	if len(s) == 0 {
		return
	}
	n := uintptr(len(s)) * unsafe.Sizeof(s[0])
	prefault(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), n))
}

// newOf is a new T, allocated alone (writtenFirst's alloc for values that
// are few, such as nodes).
func newOf[T any]() *T { return new(T) }
