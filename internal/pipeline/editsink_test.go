package pipeline

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

const everyEdit = "testdata/whatif-every-edit.yaml"

// everyEditRequest is a what-if run of every edit kind on everyEdit (its
// header works out the edited cluster by hand); version is --kube-version
// (nil: decided from the kubelets at the first pod). observer counts the
// pods the cache adds.
func everyEditRequest(version *cache.Version, added *int) Request {
	return Request{
		Source:  Source{Files: []string{everyEdit}, Objects: true},
		Version: VersionSpec{Given: version},
		Edits: &Edits{Edits: EditList{
			Cordon: []string{"n2"}, Uncordon: []string{"n3"}, RemoveNodes: []string{"n4"},
			AddNodes: []NodeCopies{{Template: "n1", Count: 2}},
			Evict:    []types.NamespacedName{{Namespace: "default", Name: "web-1"}, {Namespace: "kube-system", Name: "proxy-n2"}},
		}},
		Options: cache.Options{Observer: func(tr cache.Transition) {
			if tr.To == cache.StateAdded {
				*added++
			}
		}},
	}
}

// TestWhatIfStreams: a what-if run builds its model while reading (the
// editingSink's model is the one returned, each pod added to the cache
// once: no second build), and that model is the one the whole-cluster
// path (editLoaded) builds: same nodes in the same order, same requested
// cpu, same pods, same notes. Both with the version from the kubelets
// (v1.36: the unedited nodes' kubelets differ, decided at the first pod) and given (--kube-version v1.35).
func TestWhatIfStreams(t *testing.T) {
	for _, given := range []*cache.Version{nil, {Minor: 35}} {
		t.Run(fmt.Sprint(given), func(t *testing.T) {
			ctx := context.Background()
			added := 0
			req := everyEditRequest(given, &added)
			var notes Notes
			chooser, err := newChooser(ctx, req, &notes)
			if err != nil {
				t.Fatal(err)
			}
			if !chooser.streams() {
				t.Fatal("the chooser does not stream")
			}
			sink := newEditingSink(req.Edits, chooser.builder)
			orig, err := req.Source.Load(ctx, sink, &notes)
			if err != nil {
				t.Fatal(err)
			}
			in, ok, err := finishStreamed(req, chooser, sink, orig, &notes)
			if err != nil || !ok {
				t.Fatalf("streamed: %v, error %v; want the model built while reading", ok, err)
			}
			// Bound pods: proxy-n1, proxy-n2 (recreated in place) and
			// proxy-n1's 2 copies, each added once.
			if added != 4 {
				t.Errorf("the cache added %d pods, want 4, once each", added)
			}

			oldAdded := 0
			oldReq := everyEditRequest(given, &oldAdded)
			var oldNotes Notes
			oldChooser, err := newChooser(ctx, oldReq, &oldNotes)
			if err != nil {
				t.Fatal(err)
			}
			oldOrig, err := oldReq.Source.Load(ctx, nil, &oldNotes)
			if err != nil {
				t.Fatal(err)
			}
			old, err := editLoaded(oldReq, oldChooser, oldOrig, &oldNotes)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := describe(in.Model), describe(old.Model); got != want {
				t.Errorf("streamed model\n%s\nwant (the whole-cluster path's)\n%s", got, want)
			}
			if !reflect.DeepEqual(notes.Lines(), oldNotes.Lines()) {
				t.Errorf("notes %q, want %q", notes.Lines(), oldNotes.Lines())
			}
			if in.Choice.Version() != old.Choice.Version() || !reflect.DeepEqual(in.Applied, old.Applied) || !reflect.DeepEqual(names(in.Cluster), names(old.Cluster)) {
				t.Errorf("choice %s, applied %+v, cluster %v; want %s, %+v, %v", in.Choice.Version(), in.Applied, names(in.Cluster), old.Choice.Version(), old.Applied, names(old.Cluster))
			}
			for _, n := range in.Cluster.Nodes {
				if ni, _ := in.Model.Cache.GetNodeInfo(n.Name); ni == nil || ni.Node() != n {
					t.Errorf("node %s: the edited cluster's is not the cache's", n.Name)
				}
			}
			if in.Original != orig || len(in.Original.Nodes) != 4 {
				t.Errorf("Original is not the unedited cluster")
			}
		})
	}
}

// TestWhatIfStreamsByHand: the streamed model against the fixture's
// header, worked out by hand.
func TestWhatIfStreamsByHand(t *testing.T) {
	added := 0
	var notes Notes
	in, err := Open(context.Background(), everyEditRequest(nil, &added), &notes)
	if err != nil {
		t.Fatal(err)
	}
	want := `v1.36
node n1 cpu=200m unschedulable=false
node n2 cpu=300m unschedulable=true
node n3 cpu=0m unschedulable=false
node n1-whatif-1 cpu=200m unschedulable=false
node n1-whatif-2 cpu=200m unschedulable=false
pods kube-system/proxy-n1 kube-system/proxy-n2 default/job-a default/web-1-replacement default/api-1-replacement kube-system/proxy-n1-n1-whatif-1 kube-system/proxy-n1-n1-whatif-2
pending default/job-a default/web-1-replacement default/api-1-replacement`
	if got := describe(in.Model); got != want {
		t.Errorf("model\n%s\nwant\n%s", got, want)
	}
}

// describe is what the comparison looks at: the version, the nodes in
// NodeTree order with their requested cpu and cordon, the pods and the
// pending ones in order.
func describe(m *model.Model) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", m.Cache.Profile().Version)
	for _, n := range m.Nodes {
		s, _ := m.Cache.GetNodeSummary(n.Name)
		fmt.Fprintf(&b, "node %s cpu=%dm unschedulable=%v\n", n.Name, s.Requested.MilliCPU, n.Spec.Unschedulable)
	}
	b.WriteString("pods")
	for _, p := range m.Pods {
		fmt.Fprintf(&b, " %s/%s", p.Namespace, p.Name)
	}
	b.WriteString("\npending")
	for _, p := range m.Pending {
		fmt.Fprintf(&b, " %s/%s", p.Namespace, p.Name)
	}
	return b.String()
}

// names are the cluster's nodes and pods, in order.
func names(c *load.Cluster) []string {
	var out []string
	for _, n := range c.Nodes {
		out = append(out, n.Name)
	}
	for _, p := range c.Pods {
		out = append(out, p.Namespace+"/"+p.Name)
	}
	return out
}
