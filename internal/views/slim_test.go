package views_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/load/loadtest"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/views"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// TestSlimAndShareChangeNoView builds every view twice: from ReadFiles'
// objects (slimmed of what no accounting reads, equal values shared) and
// from the whole objects decoded independently, and expects the same JSON.
func TestSlimAndShareChangeNoView(t *testing.T) {
	for _, path := range []string{
		loadtest.GenCluster(t, t.TempDir(), 30, 900),
		"../../examples/cluster.yaml",
		"../../pkg/cmd/testdata/clusters/edge.yaml",
	} {
		t.Run(path, func(t *testing.T) {
			slim, err := load.ReadFiles(load.FileOptions{Filenames: []string{path}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			full := wholeObjects(t, path)
			if len(full.Pods) != len(slim.Pods) || len(full.Nodes) != len(slim.Nodes) {
				t.Fatalf("whole: %d nodes, %d pods; ReadFiles: %d, %d", len(full.Nodes), len(full.Pods), len(slim.Nodes), len(slim.Pods))
			}
			if diff := cmp.Diff(allViews(t, full), allViews(t, slim)); diff != "" {
				t.Errorf("views (-whole objects,+ReadFiles):\n%s", diff)
			}
		})
	}
}

// allViews renders each command's view of c as JSON.
func allViews(t *testing.T, c *load.Cluster) map[string]string {
	t.Helper()
	m, err := model.Build(c, cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dump, err := views.Dump(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := views.Snapshot(m)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for name, v := range map[string]any{
		"dump":       dump,
		"requested":  views.Requested(m, views.RequestedOptions{Selector: labels.Everything()}),
		"fit":        fitReport(t, m, c.Pods[len(c.Pods)/2]),
		"snapshot":   snap,
		"next-nodes": views.NodeOrder(c.Source, c.Nodes, views.NodeOrderOptions{Cycles: 3}),
	} {
		data, err := json.MarshalIndent(v, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		out[name] = string(data)
	}
	return out
}

// fitReport is the requested report with kube-scheduler's filter verdicts
// for pod on every node (what "requested --pod" prints), evaluated over a
// model built from fresh objects (the decision is computed once per model).
func fitReport(t *testing.T, m *model.Model, pod *corev1.Pod) *v1alpha1.RequestedReport {
	t.Helper()
	snap := cache.NewEmptySnapshot()
	if err := m.Cache.UpdateSnapshot(snap); err != nil {
		t.Fatal(err)
	}
	e, err := decide.New(context.Background(), decide.Input{Snapshot: snap, Pending: m.Pending})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	p := pod.DeepCopy()
	p.Spec.NodeName = ""
	v, err := e.FilterAll(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	r := views.Requested(m, views.RequestedOptions{Selector: labels.Everything()})
	views.AttachFits(r, p, v, nil)
	return r
}

// wholeObjects decodes the nodes and pods of a YAML or JSON file with
// apimachinery alone, and prepares them only as ReadFiles documents it
// (defaults, namespace, UID, no managedFields, no terminal pods).
func wholeObjects(t *testing.T, path string) *load.Cluster {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := &load.Cluster{Source: "file " + path}
	dec := utilyaml.NewYAMLOrJSONDecoder(f, 4096)
	for {
		var u unstructured.Unstructured
		if err := dec.Decode(&u.Object); errors.Is(err, io.EOF) {
			return c
		} else if err != nil {
			t.Fatal(err)
		}
		items := []unstructured.Unstructured{u}
		if u.IsList() {
			list, err := u.ToList()
			if err != nil {
				t.Fatal(err)
			}
			items = list.Items
		}
		for _, item := range items {
			addWhole(t, c, item)
		}
	}
}

func addWhole(t *testing.T, c *load.Cluster, u unstructured.Unstructured) {
	t.Helper()
	switch u.GetKind() {
	case "Node":
		node := &corev1.Node{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, node); err != nil {
			t.Fatal(err)
		}
		node.TypeMeta, node.ManagedFields = metav1.TypeMeta{}, nil
		load.DefaultNode(node)
		c.Nodes = append(c.Nodes, node)
	case "Pod":
		pod := &corev1.Pod{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, pod); err != nil {
			t.Fatal(err)
		}
		if pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
			return
		}
		pod.TypeMeta, pod.ManagedFields = metav1.TypeMeta{}, nil
		if pod.Namespace == "" {
			pod.Namespace = metav1.NamespaceDefault
		}
		if pod.UID == "" {
			pod.UID = load.DerivedUID(pod.Namespace, pod.Name)
		}
		load.DefaultPod(pod)
		c.Pods = append(c.Pods, pod)
	}
}
