package cmd

import (
	"bytes"
	"context"
	"path/filepath"
	"runtime/debug"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/heaplimit"
	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
)

// runWith runs the command tree with ctx, as main does with its own.
func runWith(ctx context.Context, args ...string) {
	var out, errOut bytes.Buffer
	root := NewCmdSchedCache(genericiooptions.IOStreams{In: &bytes.Buffer{}, Out: &out, ErrOut: &errOut})
	root.SetArgs(args)
	_ = root.ExecuteContext(ctx)
}

// TestEmbedderKeepsItsGCSettings: the commands change neither the GC
// percent nor the soft memory limit of a program that embeds pkg/cmd
// without installing the memory policy (issue 37: nine call sites in
// pkg/cmd set them); with main's policy in the context, why raises the
// limit to the decisions' 1400 MiB and a --watch-free run keeps GOGC.
func TestEmbedderKeepsItsGCSettings(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	prevPercent, prevLimit := debug.SetGCPercent(77), debug.SetMemoryLimit(123<<20)
	t.Cleanup(func() { debug.SetGCPercent(prevPercent); debug.SetMemoryLimit(prevLimit) })
	example := filepath.Join("..", "..", "examples", "cluster.yaml")
	for _, args := range [][]string{
		{"why", "-A", "-f", example}, {"simulate", "--pending", "-A", "-f", example}, {"report", "-f", example},
		{"dump", "-f", example}, {"requested", "--pod", "ml/llama-finetune-worker-0", "-f", example}, {"drain", "gpu-b-1", "-f", example},
	} {
		runWith(context.Background(), args...)
		if p, l := debug.SetGCPercent(77), debug.SetMemoryLimit(-1); p != 77 || l != 123<<20 {
			t.Errorf("%v: GOGC %d, limit %d MiB; want the embedder's 77 and 123 MiB", args, p, l>>20)
		}
	}
	runWith(pipeline.WithMemory(context.Background(), new(heaplimit.Policy)), "why", "-A", "-f", example)
	if l := debug.SetMemoryLimit(-1); l != 1400<<20 {
		t.Errorf("with the policy: limit %d MiB, want 1400", l>>20)
	}
}
