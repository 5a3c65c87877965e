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

	"github.com/schedcache/kubectl-schedcache/internal/fakeapi"
	"github.com/schedcache/kubectl-schedcache/internal/load"
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

// runLive runs o as its command's RunE does (Complete with a connection
// to srv, Validate, Run).
func runLive(o runner, srv *fakeapi.Server) error {
	cmd := &cobra.Command{}
	cmd.SetContext(context.Background())
	return runCommand(o, srv.Getter(), cmd, nil)
}

// TestLiveWiring runs dump and requested against a fake API server holding
// the same objects as a file, and expects the same JSON as from the file;
// the pods are listed in pages with the scheduler's phase selector.
func TestLiveWiring(t *testing.T) {
	const path = "testdata/clusters/edge.yaml"
	srv := fakeapi.New(t, fakeClusterFrom(t, path).Tracker(), "v1.36.3")
	for _, command := range []string{"dump", "requested"} {
		t.Run(command, func(t *testing.T) {
			var out bytes.Buffer
			streams := genericiooptions.IOStreams{In: &bytes.Buffer{}, Out: &out, ErrOut: &bytes.Buffer{}}
			var err error
			switch command {
			case "dump":
				o := NewDumpOptions(streams)
				*o.Output.PrintFlags.OutputFormat = "json"
				o.Input.ChunkSize = 2 // several pages
				err = runLive(o, srv)
			case "requested":
				o := NewRequestedOptions(streams)
				*o.Output.PrintFlags.OutputFormat = "json"
				err = runLive(o, srv)
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
	var podListOpts []string
	pages := 0
	for _, r := range srv.Requests() {
		if r.Path == "/api/v1/pods" {
			podListOpts = append(podListOpts, r.Query.Get("fieldSelector"))
			if r.Query.Get("continue") != "" {
				pages++
			}
		}
	}
	if pages == 0 {
		t.Errorf("pods were listed in one page with --chunk-size 2")
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

func jsonEqual(a, b map[string]any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}
