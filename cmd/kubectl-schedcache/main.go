// Command kubectl-schedcache is a kubectl plugin that shows a cluster the way
// kube-scheduler's internal cache sees it. All logic lives in pkg/cmd; main
// only installs the memory policy (internal/heaplimit.Policy), wires the
// process streams and turns an error into an exit code.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/go-logr/logr"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/klog/v2"

	"github.com/schedcache/kubectl-schedcache/internal/heaplimit"
	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	_ "github.com/schedcache/kubectl-schedcache/internal/startup" // before the Kubernetes packages initialize
	"github.com/schedcache/kubectl-schedcache/pkg/cmd"
)

func main() {
	// The process's one memory policy (GC pace, soft memory limit and its
	// raises): installed here, and carried to the commands by the
	// context, so that a program embedding pkg/cmd keeps its own.
	var memory heaplimit.Policy
	memory.Install()
	// client-go logs through klog to stderr, e.g. when a listing is cancelled
	// after the other one failed; the plugin reports errors itself, once.
	klog.SetLogger(logr.Discard())
	ctx, stop := signal.NotifyContext(pipeline.WithMemory(context.Background(), &memory), os.Interrupt)
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
