package cmd

import (
	"os"
	"runtime/debug"
)

// memoryLimitPerInputByte scales the soft memory limit with the size of
// the files read, in bytes of limit per byte of input, so that a cluster
// three times as large is collected as often per object as the published
// 5,000 nodes / 150,000 pods: main's 800 MiB floor over the 742 MB
// kubectl get -o json List of that cluster. Below that size the floor
// rules and nothing changes; above it, a floor that only followed the live
// heap (internal/heaplimit) left the collector running more often per
// object the larger the input, which made file mode superlinear
// (docs/PERFORMANCE.md, "File mode, session of 2026-11-27 evening").
const (
	memoryLimitPerInputNum = 800 << 20
	memoryLimitPerInputDen = 742_000_000
)

// memoryLimitPerNodesNum / memoryLimitPerNodesDen is the same scaling for a live listing, whose size is
// known from the first node page: main's 800 MiB floor over the published
// 5,000 nodes (with their 150,000 pods).
const (
	memoryLimitPerNodesNum = 800 << 20
	memoryLimitPerNodesDen = 5000
)

// raiseMemoryLimitForNodes lifts the soft memory limit to
// nodes × memoryLimitPerNodesNum / memoryLimitPerNodesDen, never lowering
// one; GOMEMLIMIT wins.
func raiseMemoryLimitForNodes(nodes int64) {
	raiseMemoryLimitTo(nodes * memoryLimitPerNodesNum / memoryLimitPerNodesDen)
}

// inputBytes is the total size of the regular files named (directories,
// globs, URLs and stdin count for nothing: their size is not known before
// they are read).
func inputBytes(names []string) int64 {
	var n int64
	for _, name := range names {
		if fi, err := os.Stat(name); err == nil && fi.Mode().IsRegular() {
			n += fi.Size()
		}
	}
	return n
}

// raiseMemoryLimitForInput lifts the soft memory limit to
// memoryLimitPerInput × the input's bytes, never lowering one; GOMEMLIMIT
// wins as it does in main.
func raiseMemoryLimitForInput(bytes int64) {
	if bytes <= 0 {
		return
	}
	want := bytes / memoryLimitPerInputDen * memoryLimitPerInputNum
	raiseMemoryLimitTo(want + bytes%memoryLimitPerInputDen*memoryLimitPerInputNum/memoryLimitPerInputDen)
}

// raiseMemoryLimitTo sets the soft memory limit to want bytes when that is
// higher, unless GOMEMLIMIT is set.
func raiseMemoryLimitTo(want int64) {
	if os.Getenv("GOMEMLIMIT") != "" || want <= 0 {
		return
	}
	if debug.SetMemoryLimit(-1) < want {
		debug.SetMemoryLimit(want)
	}
}
