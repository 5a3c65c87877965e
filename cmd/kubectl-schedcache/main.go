// Command kubectl-schedcache is a kubectl plugin that shows a cluster the way
// kube-scheduler's internal cache sees it. All logic lives in pkg/cmd; main only
// wires the process streams and turns an error into an exit code.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/go-logr/logr"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/klog/v2"

	"github.com/schedcache/kubectl-schedcache/pkg/cmd"
)

func main() {
	// client-go logs through klog to stderr, e.g. when a listing is cancelled
	// after the other one failed; the plugin reports errors itself, once.
	klog.SetLogger(logr.Discard())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	streams := genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	err := cmd.NewCmdSchedCache(streams).ExecuteContext(ctx)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
	}
	os.Exit(cmd.ExitCode(err))
}
