package cmd

import (
	"os"
	"runtime/debug"
)

// decisionMemoryLimit is the soft memory limit, in bytes, of the commands
// that run kube-scheduler's framework over the model (why, simulate,
// requested --pod), unless GOMEMLIMIT is set. Beside the model they hold the
// framework's own NodeInfos and PodInfos, so at 5,000 nodes / 150,000 pods
// the live heap is above the 800 MiB limit main sets for every command: the
// collector then runs back to back for the whole evaluation (a large part
// of the CPU of "why -A", and its assists slow every cycle). A higher limit
// is not free either: each page the heap grows into is a page fault and a
// cleared page, and the 2 GiB shipped before made simulate --pending -A and
// "why -A" slower than 1400 MiB, for more peak memory
// (docs/PERFORMANCE.md#decisions).
const decisionMemoryLimit = 1400 << 20

// raiseMemoryLimitForDecisions lifts main's soft memory limit to
// decisionMemoryLimit, never lowering one; GOMEMLIMIT wins as it does in
// main.
func raiseMemoryLimitForDecisions() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	if debug.SetMemoryLimit(-1) < decisionMemoryLimit {
		debug.SetMemoryLimit(decisionMemoryLimit)
	}
}

// largeScriptSteps is the script length from which simulate collects
// garbage at kube-scheduler's own pace (GOGC=100) instead of main's
// GOGC=400: a long script holds a parsed pod per step, its events and
// their table, and at 5× that live heap a 4 MiB script of inline pods
// peaks far higher than at 2×, for about the same CPU
// (docs/PERFORMANCE.md#file-mode).
const largeScriptSteps = 10_000

// collectOftenForLargeScript lowers the GC percent to 100 for a script of
// largeScriptSteps or more, unless GOGC is set.
func collectOftenForLargeScript(steps int) {
	if steps >= largeScriptSteps && os.Getenv("GOGC") == "" {
		debug.SetGCPercent(100)
	}
}

// processMemory is the memory policy of the process (pipeline.MemoryPolicy)
// as the rules of memlimit*.go size it.
type processMemory struct{}

func (processMemory) InputBytes(n int64) { raiseMemoryLimitForInput(n) }
func (processMemory) Nodes(n int64)      { raiseMemoryLimitForNodes(n) }
func (processMemory) Decisions()         { raiseMemoryLimitForDecisions() }
func (processMemory) ScriptSteps(n int)  { collectOftenForLargeScript(n) }
