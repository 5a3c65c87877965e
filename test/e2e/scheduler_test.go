//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedcache/kubectl-schedcache/internal/schedlog"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

// agreementTimeout bounds the wait for the scheduler to bind the pending
// pods and for its cache to agree with the plugin.
const agreementTimeout = 90 * time.Second

// TestAgreementWithRealScheduler runs the real kube-scheduler, lets it bind
// pending pods next to pods bound by hand (sidecars, init containers,
// overhead, pod-level resources, resize status, a terminating pod, a pod on
// a missing node), and requires the plugin's live dump to agree with the
// scheduler's own cache dump (SIGUSR2) on every NodeInfo: Requested,
// Allocatable, the pods (namespace/name/uid/phase) and placeholders.
func TestAgreementWithRealScheduler(t *testing.T) {
	t.Parallel() // each test starts its own cluster; make e2e sets -parallel
	if testing.Short() {
		t.Skip("e2e: starts a real control plane; skipped with -short")
	}
	c := framework.Start(t, framework.Options{})
	ctx, cancel := context.WithTimeout(t.Context(), agreementTimeout+testTimeout)
	defer cancel()
	cs := c.AdminClient()
	r := framework.Resources

	rc := &nodev1.RuntimeClass{
		ObjectMeta: metav1.ObjectMeta{Name: runtimeClassKata},
		Handler:    "kata",
		Overhead:   &nodev1.Overhead{PodFixed: r("cpu", "250m", "memory", "120Mi")},
	}
	if _, err := cs.NodeV1().RuntimeClasses().Create(ctx, rc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	alloc := func(extra ...string) corev1.ResourceList {
		return r(append([]string{"cpu", "4", "memory", "8Gi", "ephemeral-storage", "20Gi", "pods", "110"}, extra...)...)
	}
	nodes := []*corev1.Node{
		zoneNode("s-1", "eu-west-a", alloc("example.com/gpu", "4", "hugepages-2Mi", "0")),
		zoneNode("s-2", "eu-west-b", alloc("hugepages-2Mi", "128Mi")),
		framework.NewNode("s-3", alloc()),
		// Deleted once the scheduler has seen it, while a pod is still on it.
		zoneNode("s-4", "eu-west-c", alloc()),
	}

	// Bound by hand before the scheduler starts (it sees them in its initial
	// list); reuses the rich fixture's shapes.
	var bound []*corev1.Pod
	byName := map[string]*corev1.Pod{}
	for _, p := range richPods() {
		byName[p.Namespace+"/"+p.Name] = p
	}
	place := func(key, node string) *corev1.Pod {
		p := byName[key].DeepCopy()
		p.Spec.NodeName = node
		bound = append(bound, p)
		return p
	}
	place(nsA+"/sidecar", "s-1")
	place(nsA+"/big-init", "s-1")
	gpu := place(nsA+"/gpu", "s-2") // example.com/gpu 2 on a node without it: bound by hand anyway
	gpu.Spec.Containers[0].Resources.Limits = r("example.com/gpu", "2", "hugepages-2Mi", "64Mi", "memory", "512Mi")
	place(nsA+"/overhead", "s-2")
	place(nsA+"/pod-level", "s-2")
	place(nsA+"/ports", "s-3")
	place(nsA+"/resize", "s-3")
	place(nsA+"/resize-infeasible", "s-3")
	place(nsB+"/pvc", "s-1")
	place(nsB+"/anti", "s-1")
	place(nsB+"/terminating", "s-2")
	place(nsB+"/succeeded", "s-2")
	place(nsB+"/besteffort", "s-3")
	place(nsB+"/zero-cpu", "s-3")
	place(nsA+"/orphan", "s-gone")
	place(nsB+"/legacy", "s-4")
	if err := framework.LoadObjects(ctx, cs, nodes, bound, 4); err != nil {
		t.Fatal(err)
	}
	grace := int64(30)
	if err := cs.CoreV1().Pods(nsB).Delete(ctx, "terminating", metav1.DeleteOptions{GracePeriodSeconds: &grace}); err != nil {
		t.Fatal(err)
	}

	sched := framework.StartScheduler(t, c)
	// The scheduler synced with s-4 and its pod; removing the node leaves a
	// ghost NodeInfo in its cache (Deleted: true, pod kept), which the
	// plugin, rebuilding from the API, can only show as a placeholder.
	if err := cs.CoreV1().Nodes().Delete(ctx, "s-4", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}

	// Pending pods for the scheduler to place, created after it synced.
	var pending []*corev1.Pod
	for i, req := range [][]string{
		{"cpu", "500m", "memory", "512Mi"},
		{"cpu", "1", "memory", "1Gi", "ephemeral-storage", "1Gi"},
		{}, // best effort
		{"cpu", "200m", "hugepages-2Mi", "32Mi", "memory", "64Mi"}, // fits s-2 only
		{"cpu", "300m", "example.com/gpu", "1"},                    // fits s-1 only
		{"cpu", "100m", "memory", "100Mi"},
	} {
		p := framework.NewPod("sched", fmt.Sprintf("pending-%d", i), "", r(req...))
		if req := p.Spec.Containers[0].Resources.Requests; req != nil {
			lim := corev1.ResourceList{}
			for name, q := range req {
				if strings.Contains(string(name), "/") || strings.HasPrefix(string(name), "hugepages-") {
					lim[name] = q // extended resources and hugepages need limits
				}
			}
			if len(lim) > 0 {
				if _, ok := req["memory"]; ok {
					lim["memory"] = req["memory"]
				}
				p.Spec.Containers[0].Resources.Limits = lim
			}
		}
		pending = append(pending, p)
	}
	withSidecar := framework.NewPod("sched", "pending-sidecar", "", r("cpu", "100m", "memory", "64Mi"))
	withSidecar.Spec.InitContainers = []corev1.Container{sidecar("log", "cpu", "50m", "memory", "32Mi"), container("init", "cpu", "400m")}
	pending = append(pending, withSidecar)
	if err := framework.LoadObjects(ctx, cs, nil, pending, 4); err != nil {
		t.Fatal(err)
	}
	waitCtx, waitCancel := context.WithTimeout(ctx, agreementTimeout)
	defer waitCancel()
	waitUntil(waitCtx, t, "the scheduler to bind every pending pod", func() (bool, string) {
		list, err := cs.CoreV1().Pods("sched").List(waitCtx, metav1.ListOptions{})
		if err != nil {
			return false, err.Error()
		}
		var unbound []string
		for _, p := range list.Items {
			if p.Spec.NodeName == "" {
				unbound = append(unbound, p.Name)
			}
		}
		return len(list.Items) == len(pending) && len(unbound) == 0, fmt.Sprintf("unbound: %v", unbound)
	})

	// What the scheduler's cache must hold: every bound, non-terminal pod.
	want := map[string]string{} // uid → namespace/name
	all, err := cs.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range all.Items {
		if p.Spec.NodeName != "" && p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed {
			want[string(p.UID)] = p.Namespace + "/" + p.Name
		}
	}
	if len(want) != 15+len(pending) { // 16 bound by hand minus succeeded
		t.Fatalf("%d bound non-terminal pods, want %d", len(want), 15+len(pending))
	}

	// The scheduler learns of bindings through its informers; poll its dump
	// (and the plugin) until the cache holds exactly the bound pods and both
	// agree, or the deadline passes with the last difference.
	kc := "--kubeconfig=" + c.Kubeconfig(framework.UserReader)
	var schedDump map[string]schedlog.Node
	var plugin *v1alpha1.CacheDump
	waitUntil(waitCtx, t, "the scheduler's cache to hold every bound pod and agree with the plugin", func() (bool, string) {
		dump, err := sched.DumpCache(waitCtx)
		if err != nil {
			return false, err.Error()
		}
		schedDump = map[string]schedlog.Node{}
		for _, n := range dump.Nodes {
			schedDump[n.Name] = n
		}
		got := map[string]string{}
		for _, n := range schedDump {
			for _, p := range n.Pods {
				got[p.UID] = p.Namespace + "/" + p.Name
			}
		}
		if !maps.Equal(got, want) {
			return false, fmt.Sprintf("scheduler cache pods %v, want %v", slices.Sorted(maps.Values(got)), slices.Sorted(maps.Values(want)))
		}
		r := runPlugin(t, nil, "dump", kc, "-o", "json")
		if r.code != 0 {
			t.Fatalf("%v", r)
		}
		plugin = decodeKind[v1alpha1.CacheDump](t, "CacheDump", r.stdout)
		diffs := compareWithScheduler(schedDump, plugin, map[string]bool{"s-4": true})
		return len(diffs) == 0, strings.Join(diffs, "\n")
	})

	// Sanity on what was compared: the placeholder, the terminating pod and
	// a resize-driven request are all in the scheduler's own view.
	if g, ok := schedDump["s-gone"]; !ok || !g.Deleted || len(g.Pods) != 1 {
		t.Errorf("scheduler dump: s-gone should be a Deleted NodeInfo with the orphan: %+v", g)
	}
	if g, ok := schedDump["s-4"]; !ok || !g.Deleted || len(g.Pods) != 1 {
		t.Errorf("scheduler dump: s-4 should be a Deleted (ghost) NodeInfo with team-b/legacy: %+v", g)
	}
	if len(schedDump) != 5 || len(plugin.Nodes) != 5 {
		t.Errorf("dumps have %d (scheduler) and %d (plugin) NodeInfos, want 5", len(schedDump), len(plugin.Nodes))
	}
	t.Logf("scheduler and plugin agree on %d NodeInfos and %d pods", len(schedDump), len(want))
}

// compareWithScheduler lists every difference between the scheduler's dump
// and the plugin's for the fields the scheduler prints. ghosts are nodes
// deleted while the scheduler ran: its NodeInfo keeps the last Allocatable
// (NodeInfo.RemoveNode only drops the node object), which no API object
// holds any more, so their Allocatable is not compared.
func compareWithScheduler(sched map[string]schedlog.Node, plugin *v1alpha1.CacheDump, ghosts map[string]bool) []string {
	var diffs []string
	mine := map[string]*v1alpha1.NodeDump{}
	for i := range plugin.Nodes {
		mine[plugin.Nodes[i].Name] = &plugin.Nodes[i]
	}
	for _, name := range slices.Sorted(maps.Keys(sched)) {
		s := sched[name]
		p, ok := mine[name]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("%s: in the scheduler's cache, not in the plugin's dump", name))
			continue
		}
		if s.Deleted != (p.Placeholder || p.Ghost) {
			diffs = append(diffs, fmt.Sprintf("%s: scheduler Deleted=%v, plugin placeholder=%v ghost=%v", name, s.Deleted, p.Placeholder, p.Ghost))
		}
		if sr, pr := schedResource(s.Requested), pluginResource(p.Requested); !reflect.DeepEqual(sr, pr) {
			diffs = append(diffs, fmt.Sprintf("%s: requested: scheduler %+v, plugin %+v", name, sr, pr))
		}
		if sa, pa := schedResource(s.Allocatable), pluginResource(p.Allocatable); !ghosts[name] && !reflect.DeepEqual(sa, pa) {
			diffs = append(diffs, fmt.Sprintf("%s: allocatable: scheduler %+v, plugin %+v", name, sa, pa))
		}
		var sp, pp []string
		for _, x := range s.Pods {
			sp = append(sp, fmt.Sprintf("%s/%s uid=%s phase=%s", x.Namespace, x.Name, x.UID, x.Phase))
		}
		for _, x := range p.Pods {
			pp = append(pp, fmt.Sprintf("%s/%s uid=%s phase=%s", x.Namespace, x.Name, x.UID, x.Phase))
		}
		sort.Strings(sp)
		sort.Strings(pp)
		if !slices.Equal(sp, pp) {
			diffs = append(diffs, fmt.Sprintf("%s: pods: scheduler %v, plugin %v", name, sp, pp))
		}
	}
	for name := range mine {
		if _, ok := sched[name]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: in the plugin's dump, not in the scheduler's cache", name))
		}
	}
	return diffs
}

// schedResource normalises a scheduler resource for comparison: an empty
// scalar map is nil (zero-valued entries are kept: the scheduler prints
// e.g. hugepages-2Mi:0 from allocatable).
func schedResource(r schedlog.Resource) schedlog.Resource {
	if len(r.ScalarResources) == 0 {
		r.ScalarResources = nil
	}
	return r
}

func pluginResource(r v1alpha1.Resource) schedlog.Resource {
	out := schedlog.Resource{
		MilliCPU: r.MilliCPU, Memory: r.Memory, EphemeralStorage: r.EphemeralStorage,
		AllowedPodNumber: r.AllowedPodNumber, ScalarResources: r.ScalarResources,
	}
	if len(out.ScalarResources) == 0 {
		out.ScalarResources = nil
	}
	return out
}
