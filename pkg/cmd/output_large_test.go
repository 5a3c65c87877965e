package cmd

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	cliprinters "k8s.io/cli-runtime/pkg/printers"

	"github.com/schedcache/kubectl-schedcache/internal/load/loadtest"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// TestLargeOutputsMatchCLIRuntime checks -o json and -o yaml of dump,
// snapshot and requested --pods on a generated cluster of 300 nodes and
// 6,000 pods byte for byte against cli-runtime's JSONPrinter and
// YAMLPrinter (what the commands printed before the outputs were streamed:
// encoding/json, and sigs.k8s.io/yaml over it) applied to the same object,
// read back from the JSON output (every field of these kinds survives the
// round trip).
func TestLargeOutputsMatchCLIRuntime(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and prints a 6,000-pod cluster")
	}
	gen := loadtest.GenCluster(t, t.TempDir(), 300, 6000)
	tests := []struct {
		args []string
		obj  runtime.Object
	}{
		{args: []string{"dump"}, obj: &v1alpha1.CacheDump{}},
		{args: []string{"snapshot"}, obj: &v1alpha1.Snapshot{}},
		{args: []string{"requested", "--pods"}, obj: &v1alpha1.RequestedReport{}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			args := slices.Concat(tt.args, []string{"-f", gen, "-o"})
			got := run(t, "", append(args, "json")...)
			if got.code != 0 {
				t.Fatalf("-o json: exit %d: %s", got.code, got.stderr)
			}
			if err := json.Unmarshal([]byte(got.stdout), tt.obj); err != nil {
				t.Fatal(err)
			}
			if n := listed(tt.obj); n < 300 {
				t.Fatalf("the output lists %d items; want a large one", n)
			}
			var want bytes.Buffer
			if err := (&cliprinters.JSONPrinter{}).PrintObj(tt.obj, &want); err != nil {
				t.Fatal(err)
			}
			if got.stdout != want.String() {
				t.Errorf("-o json differs from JSONPrinter's at byte %d", firstDifference(got.stdout, want.String()))
			}
			want.Reset()
			if err := (&cliprinters.YAMLPrinter{}).PrintObj(tt.obj, &want); err != nil {
				t.Fatal(err)
			}
			got = run(t, "", append(args, "yaml")...)
			if got.stdout != want.String() {
				t.Errorf("-o yaml differs from YAMLPrinter's at byte %d", firstDifference(got.stdout, want.String()))
			}
		})
	}
}

// listed counts the elements of the list the streamed writers split.
func listed(obj runtime.Object) int {
	switch o := obj.(type) {
	case *v1alpha1.CacheDump:
		return len(o.Nodes)
	case *v1alpha1.Snapshot:
		return len(o.Nodes)
	case *v1alpha1.RequestedReport:
		return len(o.Pods)
	}
	return 0
}

func firstDifference(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}
