package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/schedcache/kubectl-schedcache/pkg/load"
)

// fakeClusterFrom loads a test cluster file into a fake clientset.
func fakeClusterFrom(t *testing.T, path string) *fake.Clientset {
	t.Helper()
	c, err := load.ReadFiles(load.FileOptions{Filenames: []string{path}}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	var objs []runtime.Object
	for _, n := range c.Nodes {
		objs = append(objs, n)
	}
	for _, p := range c.Pods {
		objs = append(objs, p)
	}
	return fake.NewSimpleClientset(objs...)
}

// comparable drops what legitimately differs between a fake-clientset run
// and a file run: the top-level "source", and the generations, which depend
// on the order objects are added and the fake clientset lists in its own
// order (the real e2e live=file test compares generations too).
func comparable(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, data)
	}
	delete(m, "source")
	dropKey(m, "generation")
	return m
}

func dropKey(v any, key string) {
	switch x := v.(type) {
	case map[string]any:
		delete(x, key)
		for _, e := range x {
			dropKey(e, key)
		}
	case []any:
		for _, e := range x {
			dropKey(e, key)
		}
	}
}

// TestLiveWiring runs dump and requested against a fake clientset holding
// the same objects as a file, and expects the same JSON as from the file.
func TestLiveWiring(t *testing.T) {
	const path = "testdata/clusters/edge.yaml"
	cs := fakeClusterFrom(t, path)
	var podListOpts []string
	cs.PrependReactor("list", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		la := a.(k8stesting.ListAction)
		podListOpts = append(podListOpts, la.GetListRestrictions().Fields.String())
		return false, nil, nil
	})
	for _, command := range []string{"dump", "requested"} {
		t.Run(command, func(t *testing.T) {
			var out bytes.Buffer
			streams := genericiooptions.IOStreams{In: &bytes.Buffer{}, Out: &out, ErrOut: &bytes.Buffer{}}
			cmd := &cobra.Command{}
			cmd.SetContext(context.Background())
			var err error
			switch command {
			case "dump":
				o := NewDumpOptions(streams)
				o.Input.clientForTest = cs
				*o.Output.PrintFlags.OutputFormat = "json"
				err = o.Run(cmd)
			case "requested":
				o := NewRequestedOptions(streams)
				o.Input.clientForTest = cs
				*o.Output.PrintFlags.OutputFormat = "json"
				mustValidate(t, o.Validate())
				err = o.Run(cmd)
			}
			if err != nil {
				t.Fatal(err)
			}
			fromFile := run(t, "", command, "-f", path, "-o", "json")
			if !jsonEqual(comparable(t, out.Bytes()), comparable(t, []byte(fromFile.stdout))) {
				t.Errorf("live output differs from file output\nlive:\n%s\nfile:\n%s", out.String(), fromFile.stdout)
			}
		})
	}
	for _, fs := range podListOpts {
		if fs != "status.phase!=Failed,status.phase!=Succeeded" && fs != "status.phase!=Succeeded,status.phase!=Failed" {
			t.Errorf("pods listed with field selector %q, want the scheduler's phase selector", fs)
		}
	}
	if len(podListOpts) == 0 {
		t.Errorf("pods were never listed")
	}
}

func mustValidate(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func jsonEqual(a, b map[string]any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}
