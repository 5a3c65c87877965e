package cmd

import (
	"bytes"
	"io"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/load/loadtest"
)

// BenchmarkWhyAll5kNodes150kPods runs "why -A -f" end to end on
// hack/gen-cluster's 5,000 nodes and 150,000 pods (read, cache, every
// pending pod's cycle, print): the one-row-per-pod table, and -o json with
// each pod's diagnosis (nodes rejected per plugin, top scored nodes, five
// near misses of each unschedulable pod) instead of every node's result.
// It reports the output's size. Targets (issue #29, 2 cores): -o json
// ≤ 60 s, ≤ 1.5 GB peak RSS (measured with the binary), output ≤ 50 MB.
func BenchmarkWhyAll5kNodes150kPods(b *testing.B) {
	path := loadtest.GenCluster(b, b.TempDir(), loadtest.LargeNodes, loadtest.LargePods)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"table", []string{"why", "-A"}},
		{"json", []string{"why", "-A", "-o", "json"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			out := countingWriter{w: io.Discard}
			for b.Loop() {
				out.n = 0
				var errOut bytes.Buffer
				root := NewCmdSchedCache(genericiooptions.IOStreams{In: bytes.NewReader(nil), Out: &out, ErrOut: &errOut})
				root.SetArgs(append(tc.args, "-f", path))
				if err := root.Execute(); err != nil && ExitCode(err) != ExitError {
					b.Fatalf("%v: %v\n%s", tc.args, err, errOut.String())
				}
			}
			b.ReportMetric(float64(out.n)/1e6, "MB-out")
		})
	}
}
