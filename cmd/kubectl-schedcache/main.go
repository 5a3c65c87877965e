// Command kubectl-schedcache is a kubectl plugin that shows a cluster the way
// kube-scheduler's internal cache sees it. All logic lives in pkg/cmd; main only
// wires the process streams and turns an error into an exit code.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"

	"github.com/go-logr/logr"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/klog/v2"

	"github.com/schedcache/kubectl-schedcache/internal/heaplimit"
	"github.com/schedcache/kubectl-schedcache/pkg/cmd"
)

// The garbage collector's settings, unless GOGC or GOMEMLIMIT are set. The
// plugin is short-lived and allocates mostly what it keeps (the cluster's
// objects) plus short-lived decoding garbage, so it trades memory for CPU
// within a budget: collecting at 5× the live heap (GOGC=400) instead of 2×
// halves the CPU the collector takes on a live listing, and the soft limit
// of memoryLimit keeps the process under 1 GB at 5,000 nodes / 150,000
// pods. Larger clusters get a larger floor before the read starts
// (pkg/cmd/memlimit_input.go: from the files' size, or the number of nodes
// the first node page announces), so that the collector keeps the same
// pace per object at any size; and in case an input holds more per byte or
// per node than those rules expect, the limit also follows the live heap:
// after each cycle it is raised to liveHeapNum/liveHeapDen of the heap
// found live, never lowered (internal/heaplimit), so the collector never
// runs back to back. why, simulate and requested --pod raise the floor
// (pkg/cmd/memlimit.go). Measurements: docs/PERFORMANCE.md, "File mode,
// session of 2026-11-27 evening".
const (
	gcPercent   = 400
	memoryLimit = 800 << 20 // bytes
	// The limit is at least 5/4 of the live heap: a safety net only, the
	// size-based floors do the scaling. Twice the live heap took a live
	// 5,000-node listing (≈ 600 MiB live) above 1 GB (docs/PERFORMANCE.md).
	liveHeapNum, liveHeapDen = 5, 4
)

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
		heaplimit.Follow(liveHeapNum, liveHeapDen)
	}
	// client-go logs through klog to stderr, e.g. when a listing is cancelled
	// after the other one failed; the plugin reports errors itself, once.
	klog.SetLogger(logr.Discard())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	// The first Ctrl-C cancels the listing; once it has, a second one kills
	// the process the default way (e.g. while a large output is written).
	go func() { <-ctx.Done(); stop() }()
	streams := genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	err := cmd.NewCmdSchedCache(streams).ExecuteContext(ctx)
	msg, code := cmd.Outcome(ctx, err) // before stop(), which cancels ctx
	stop()
	if msg != "" {
		fmt.Fprintln(os.Stderr, msg)
	}
	os.Exit(code)
}
