package heaplimit

import (
	"os"
	"runtime/debug"
	"sync/atomic"
)

// Policy is the process's one memory policy: the garbage collector's
// settings main installs (Install), and the raises of the soft memory
// limit the commands ask for once they know what they are about to hold
// (pipeline.MemoryPolicy). main installs it; a program that embeds
// pkg/cmd without it keeps its own settings. GOGC and GOMEMLIMIT, when
// set, win over every rule. The zero value is ready to use (main holds
// one and hands its address to the commands); its methods may be called
// from any goroutine.
//
// The plugin is short-lived and allocates mostly what it keeps (the
// cluster's objects) plus short-lived decoding garbage, so it trades
// memory for CPU within a budget: collecting at 5× the live heap
// (GOGC=400) instead of 2× halves the CPU the collector takes on a live
// listing, and the soft limit of MemoryLimit keeps the process under 1 GB
// at 5,000 nodes / 150,000 pods. Larger clusters get a larger floor before
// the read starts (InputBytes, Nodes), or, for files, as their nodes are
// read (Nodes: a file of small objects holds more than its bytes say), so
// that the collector keeps the same pace per object at any size; and in
// case an input holds more per byte or per node than those rules expect,
// the limit also follows the live heap (Follow). While files are read the
// collector waits for the soft limit (Reading). Measurements:
// docs/PERFORMANCE.md, "File mode, session of 2026-11-27 evening" and
// "session of 2026-11-29".
type Policy struct {
	// decisions is set once a command said it will run the framework
	// (Decisions): its read keeps the collector's pace (Reading).
	decisions atomic.Bool
}

const (
	// GCPercent is the collector's pace (GOGC) of every command but --watch.
	GCPercent = 400
	// MemoryLimit is the soft memory limit, in bytes, of every command.
	MemoryLimit = 800 << 20
	// The limit is at least 5/4 of the live heap: a safety net only, the
	// size-based floors do the scaling. Twice the live heap took a live
	// 5,000-node listing (≈ 600 MiB live) above 1 GB (docs/PERFORMANCE.md).
	liveHeapNum, liveHeapDen = 5, 4
)

// Install sets the collector's pace and the soft memory limit, and makes
// the limit follow the live heap; stop ends the following.
func (*Policy) Install() (stop func()) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(GCPercent)
	}
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	debug.SetMemoryLimit(MemoryLimit)
	return Follow(liveHeapNum, liveHeapDen)
}

// decisionMemoryLimit is the soft memory limit, in bytes, of the commands
// that run kube-scheduler's framework over the model (why, simulate,
// requested --pod, drain, report). Beside the model they hold the
// framework's own NodeInfos and PodInfos, so at 5,000 nodes / 150,000 pods
// the live heap is above MemoryLimit: the collector then runs back to back
// for the whole evaluation (a large part of the CPU of "why -A", and its
// assists slow every cycle). A higher limit is not free either: each page
// the heap grows into is a page fault and a cleared page, and the 2 GiB
// shipped before made simulate --pending -A and "why -A" slower than 1400
// MiB, for more peak memory (docs/PERFORMANCE.md#decisions).
const decisionMemoryLimit = 1400 << 20

// Decisions lifts the soft memory limit to decisionMemoryLimit, never
// lowering one.
func (p *Policy) Decisions() {
	p.decisions.Store(true)
	raiseTo(decisionMemoryLimit)
}

// largeScriptSteps is the script length from which simulate collects
// garbage at kube-scheduler's own pace (GOGC=100) instead of GCPercent: a
// long script holds a parsed pod per step, its events and their table,
// and at 5× that live heap a 4 MiB script of inline pods peaks far higher
// than at 2×, for about the same CPU (docs/PERFORMANCE.md#file-mode).
const largeScriptSteps = 10_000

// ScriptSteps lowers the GC percent to 100 for a script of
// largeScriptSteps steps or more.
func (*Policy) ScriptSteps(steps int) {
	if steps >= largeScriptSteps && os.Getenv("GOGC") == "" {
		debug.SetGCPercent(100)
	}
}

// Watch sets the collector's default pace (GOGC=100): GCPercent suits a
// listing, which allocates mostly what it keeps and then ends; a watch
// runs on, allocating per batch.
func (*Policy) Watch() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(100)
	}
}

// memoryLimitPerInputNum / memoryLimitPerInputDen scales the soft memory
// limit with the size of the files read, in bytes of limit per byte of
// input, so that a cluster three times as large is collected as often per
// object as the published 5,000 nodes / 150,000 pods: MemoryLimit over
// the 742 MB kubectl get -o json List of that cluster. Below that size
// the floor rules and nothing changes; above it, a floor that only
// followed the live heap (Follow) left the collector running more often
// per object the larger the input, which made file mode superlinear
// (docs/PERFORMANCE.md, "File mode, session of 2026-11-27 evening").
const (
	memoryLimitPerInputNum = MemoryLimit
	memoryLimitPerInputDen = 742_000_000
)

// memoryLimitPerNodesNum / memoryLimitPerNodesDen is the same scaling for
// a live listing, whose size is known from the first node page:
// MemoryLimit over the published 5,000 nodes (with their 150,000 pods).
const (
	memoryLimitPerNodesNum = MemoryLimit
	memoryLimitPerNodesDen = 5000
)

// InputBytes lifts the soft memory limit to the input's bytes ×
// memoryLimitPerInputNum / memoryLimitPerInputDen, never lowering one.
func (*Policy) InputBytes(bytes int64) {
	if bytes <= 0 {
		return
	}
	want := bytes / memoryLimitPerInputDen * memoryLimitPerInputNum
	raiseTo(want + bytes%memoryLimitPerInputDen*memoryLimitPerInputNum/memoryLimitPerInputDen)
}

// Nodes lifts the soft memory limit to nodes × memoryLimitPerNodesNum /
// memoryLimitPerNodesDen, never lowering one: the nodes a live listing
// announces, or those read from files so far.
func (*Policy) Nodes(nodes int64) {
	raiseTo(nodes * memoryLimitPerNodesNum / memoryLimitPerNodesDen)
}

// raiseTo sets the soft memory limit to want bytes when that is higher,
// unless GOMEMLIMIT is set.
func raiseTo(want int64) {
	if os.Getenv("GOMEMLIMIT") != "" || want <= 0 {
		return
	}
	if debug.SetMemoryLimit(-1) < want {
		debug.SetMemoryLimit(want)
	}
}
