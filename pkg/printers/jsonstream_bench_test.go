package printers

import (
	"fmt"
	"io"
	"testing"

	cliprinters "k8s.io/cli-runtime/pkg/printers"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// BenchmarkJSONOutput prints the dump of 1,000 nodes with 30 pods each
// (about 37 MB of JSON): cli-runtime's JSONPrinter (MarshalIndent, what
// -o json did before) against StreamJSON.
func BenchmarkJSONOutput(b *testing.B) {
	d := &v1alpha1.CacheDump{Source: "bench", Nodes: make([]v1alpha1.NodeDump, 1000)}
	v1alpha1.SetKind(d, "CacheDump")
	for i := range d.Nodes {
		n := &d.Nodes[i]
		n.Name, n.Zone = fmt.Sprintf("node-%04d", i), "us-east-1/us-east-1a"
		n.Allocatable = v1alpha1.Resource{MilliCPU: 3920, Memory: 15401910272, AllowedPodNumber: 110}
		for j := range 30 {
			n.Pods = append(n.Pods, v1alpha1.PodDump{
				Namespace: "ads-05", Name: fmt.Sprintf("router-15610-chs7bctgwc-%05d", j), UID: "d71aabe0-711e-4c08-865b-e2448ca866ea",
				State: "Added", Phase: "Running",
				Requested:        v1alpha1.Resource{MilliCPU: 5, Memory: 134217728},
				NonZeroRequested: v1alpha1.NonZeroResource{MilliCPU: 100, Memory: 209715200},
			})
		}
	}
	p := &cliprinters.JSONPrinter{}
	b.Run("JSONPrinter", func(b *testing.B) {
		for b.Loop() {
			if err := p.PrintObj(d, io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("StreamJSON", func(b *testing.B) {
		for b.Loop() {
			if err := StreamJSON(io.Discard, d, p.PrintObj); err != nil {
				b.Fatal(err)
			}
		}
	})
}
