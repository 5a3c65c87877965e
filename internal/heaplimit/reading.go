package heaplimit

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// heapObjectsMetric is the memory occupied by heap objects, in bytes: the
// live ones and the dead ones not yet swept (runtime/metrics).
const heapObjectsMetric = "/memory/classes/heap/objects:bytes"

// Reading turns the collector's pace off while files are read, until done
// is called: in between it collects only when the heap reaches the soft
// memory limit (MemoryLimit, or the floors of InputBytes and Nodes).
//
// A file read allocates mostly what it keeps (the decoders reuse their
// scratch memory), so the collections GCPercent would run on the way (at
// 5× the few megabytes live at the start, then at 5× that, …) each mark a
// heap that is nearly all live; the last one often marks the whole model
// just before the read ends (docs/PERFORMANCE.md, "Session 10"). done sets
// the pace a collection would have set had it found the heap it sees
// live: the next collection runs at 1+GCPercent/100 times that heap, or
// at the soft limit, and from there the pace is GCPercent again.
//
// The read of a command that said Decisions keeps GCPercent: under the
// decisions' higher limit the read's garbage would stay until the
// framework's copies join it, for a higher peak, and a collection in the
// read marks less than one more in the decisions would. With GOGC set,
// Reading changes nothing either.
func (p *Policy) Reading() (done func()) {
	if os.Getenv("GOGC") != "" || p.decisions.Load() {
		return func() {}
	}
	debug.SetGCPercent(-1)
	return func() {
		s := []metrics.Sample{{Name: liveHeapMetric}, {Name: heapObjectsMetric}}
		metrics.Read(s)
		paced := GCPercent
		if s[0].Value.Kind() == metrics.KindUint64 && s[1].Value.Kind() == metrics.KindUint64 {
			paced = paceFor(GCPercent, s[0].Value.Uint64(), s[1].Value.Uint64())
		}
		debug.SetGCPercent(paced)
		if paced != GCPercent {
			runtime.AddCleanup(new(sentinel), restorePace, paced)
		}
	}
}

// paceFor returns the GC percent that puts the next collection at
// (100+percent)/100 times heap bytes, given the live bytes the last
// collection marked: percent itself when live is not known or heap is
// not above it. The runtime sets a collection's goal from the heap the
// last one marked; right after a read that ran none, that is the few
// megabytes live at the start.
func paceFor(percent int, live, heap uint64) int {
	if live == 0 || heap <= live {
		return percent
	}
	goal := heap / 100 * uint64(100+percent)
	return int(min(goal/live*100-100, 1<<30))
}

// gcPercentMetric is the GC percent in force (runtime/metrics): read
// without setting it, so that a pace set since is never replaced, even
// for a moment.
const gcPercentMetric = "/gc/gogc:percent"

// restorePace sets the pace back to GCPercent after the collection that
// ran at the pace Reading set, unless the pace was changed since (Watch,
// ScriptSteps).
func restorePace(paced int) {
	s := []metrics.Sample{{Name: gcPercentMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 && s[0].Value.Uint64() == uint64(paced) {
		debug.SetGCPercent(GCPercent)
	}
}
