package cmd

import (
	"bytes"
	"io"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/load/loadtest"
)

// BenchmarkCommands5kNodes150kPods runs each command end to end on
// hack/gen-cluster's 5,000 nodes and 150,000 pods: read the 740 MB file,
// build the cache, build the view, print it (to io.Discard). These are the
// figures `kubectl schedcache <command> -f` shows, minus process start.
func BenchmarkCommands5kNodes150kPods(b *testing.B) {
	path := loadtest.GenCluster(b, b.TempDir(), loadtest.LargeNodes, loadtest.LargePods)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"dump", []string{"dump"}},
		{"dump-o-json", []string{"dump", "-o", "json"}},
		{"requested", []string{"requested", "--sort-by", "cpu%"}},
		{"next-nodes", []string{"next-nodes"}},
		{"snapshot", []string{"snapshot"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var errOut bytes.Buffer
				streams := genericiooptions.IOStreams{In: bytes.NewReader(nil), Out: io.Discard, ErrOut: &errOut}
				root := NewCmdSchedCache(streams)
				root.SetArgs(append(tc.args, "-f", path))
				if err := root.Execute(); err != nil {
					b.Fatalf("%v: %v\n%s", tc.args, err, errOut.String())
				}
			}
		})
	}
}
