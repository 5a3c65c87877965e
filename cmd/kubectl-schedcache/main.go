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
// pods. A fixed limit would make the collector run back to back once the
// live heap nears it (at 15,000 nodes / 450,000 pods the live heap alone
// is above it), so the limit follows the live heap: after each cycle it is
// raised to liveHeapNum/liveHeapDen of the heap found live, never lowered
// (internal/heaplimit). why, simulate and requested --pod raise the floor
// (pkg/cmd/memlimit.go). Measurements: docs/PERFORMANCE.md, "File mode,
// session of 2026-11-27 evening".
const (
	gcPercent   = 400
	memoryLimit = 800 << 20 // bytes
	// The limit is at least twice the live heap (GOGC=100's heap goal, once
	// the floor is passed): 3/2 made 15,000 nodes / 450,000 pods take 4× the
	// CPU of 5,000 / 150,000, 2× about 3.5× (docs/PERFORMANCE.md); more would
	// take a 5,000-node read above 1 GB.
	liveHeapNum, liveHeapDen = 2, 1
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
