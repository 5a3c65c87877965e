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

	"github.com/schedcache/kubectl-schedcache/pkg/cmd"
)

// The garbage collector's settings, unless GOGC or GOMEMLIMIT are set. The
// plugin is short-lived and allocates mostly what it keeps (the cluster's
// objects) plus short-lived decoding garbage, so it trades memory for CPU
// within a budget: collecting at 5× the live heap (GOGC=400) instead of 2×
// cuts the CPU the collector takes on a live listing, and the soft limit
// keeps the process within the 1 GB budget on the largest clusters, where
// the collector runs more often near the end instead, for a little more
// CPU than a higher limit. why, simulate and requested --pod raise it
// (pkg/cmd/memlimit.go). The measurements: docs/PERFORMANCE.md#file-mode
// and docs/PERFORMANCE.md#live-mode.
const (
	gcPercent   = 400
	memoryLimit = 800 << 20 // bytes
)

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
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
