package heaplimit

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// liveHeapMetric is the heap the last completed cycle marked live, in bytes
// (runtime/metrics, Go 1.21+).
const liveHeapMetric = "/gc/heap/live:bytes"

// Limit returns the soft memory limit, in bytes, for a live heap of live
// bytes: live × num / den when that is above current, else current. It never
// lowers a limit, so a command that raised the limit for itself (pkg/cmd's
// decision commands) keeps its floor.
func Limit(current, live, num, den int64) int64 {
	if den <= 0 || live <= 0 {
		return current
	}
	want := live / den * num
	if want <= current {
		return current
	}
	return want
}

// Follow raises the soft memory limit after every garbage collection to
// num/den times the live heap (see Limit), never lowering it; the limit in
// force when Follow is called is the floor. It returns a function that stops
// following (the limit stays where it is); the process need not call it.
// num/den must be above 1: it is the headroom the collector gets over the
// live heap once the floor is passed.
func Follow(num, den int64) (stop func()) {
	f := &follower{num: num, den: den, sample: []metrics.Sample{{Name: liveHeapMetric}}}
	f.arm()
	return f.stop
}

// follower holds what the cleanup chain needs; cleanups may run on more than
// one goroutine, so a mutex serialises reading and raising the limit.
type follower struct {
	num, den int64
	mu       sync.Mutex
	stopped  bool
	sample   []metrics.Sample
}

// stop ends the chain; under the mutex, so that no cleanup already past its
// check raises the limit after stop returns.
func (f *follower) stop() {
	f.mu.Lock()
	f.stopped = true
	f.mu.Unlock()
}

// sentinel is the object whose collection marks the end of a cycle; it has
// a pointer-free field so that it is heap-allocated and has its own address
// (a zero-size object may share one and never be collected).
type sentinel struct{ _ [16]byte }

// arm registers a cleanup that runs once the next cycle has found a new
// sentinel unreachable.
func (f *follower) arm() {
	runtime.AddCleanup(new(sentinel), func(f *follower) { f.afterCycle() }, f)
}

// afterCycle raises the limit for the live heap just measured, then arms the
// next cleanup.
func (f *follower) afterCycle() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return
	}
	metrics.Read(f.sample)
	if f.sample[0].Value.Kind() == metrics.KindUint64 {
		live := int64(f.sample[0].Value.Uint64())
		current := debug.SetMemoryLimit(-1)
		if next := Limit(current, live, f.num, f.den); next != current {
			debug.SetMemoryLimit(next)
		}
	}
	f.arm()
}
