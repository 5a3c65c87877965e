package simulate

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/simulate/script"
)

// scriptCluster: zones z-a = [a-1, a-2], z-b = [b-1]; run-a1 and run-b1
// bound; web-1, web-2 and batch-1 pending.
func scriptCluster() *load.Cluster {
	return cluster([]*v1.Node{
		node("a-1", "z-a", "2", "4Gi", "10"),
		node("b-1", "z-b", "2", "4Gi", "2"),
		node("a-2", "z-a", "4", "8Gi", "10"),
	},
		pod("apps", "run-a1", "a-1", "1500m", "1Gi"),
		pod("apps", "run-b1", "b-1", "500m", "512Mi"),
		pod("apps", "web-1", "", "400m", "256Mi"),
		pod("apps", "web-2", "", "400m", "256Mi"),
		pod("apps", "batch-1", "", "3", "1Gi"),
	)
}

func runScript(t *testing.T, src string, opts Options) (*Simulator, *Result) {
	t.Helper()
	steps, err := script.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := newSim(t, scriptCluster(), opts)
	res, err := s.RunScript(steps, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, res
}

// TestRunScriptEveryCacheError runs every pod operation into every error
// the cache can return for it, and the successful paths in between.
func TestRunScriptEveryCacheError(t *testing.T) {
	_, res := runScript(t, `
- {op: assume, pod: apps/web-1, node: a-1}
- {op: assume, pod: apps/web-1, node: a-2}
- {op: update, pod: apps/web-1, requests: {cpu: 200m}}
- {op: forget, pod: apps/web-1, node: a-2}
- {op: finishBinding, pod: apps/web-1}
- {op: cleanup}
- {op: advance, duration: 31s}
- {op: cleanup}
- {op: cleanup}
- {op: finishBinding, pod: apps/web-1}
- {op: forget, pod: apps/web-1}
- {op: assume, pod: apps/web-2, node: b-1}
- {op: bind, pod: apps/web-2, outcome: fail}
- {op: assume, pod: apps/web-2, node: b-1}
- {op: add, pod: apps/web-2, node: a-2}
- {op: add, pod: apps/web-2}
- {op: forget, pod: apps/web-2}
- {op: update, pod: apps/web-2, requests: {cpu: "1"}}
- {op: update, pod: apps/web-2, node: b-1}
- {op: remove, pod: apps/web-2, node: b-1}
- {op: remove, pod: apps/web-2}
- {op: remove, pod: apps/web-2}
- {op: update, pod: apps/batch-1}
- {op: remove, pod: apps/run-a1}
`, Options{TTL: ttlFlag(30 * time.Second)})
	uid := func(name string) string { return "uid-apps-" + name + "(apps/" + name + ")" }
	want := []struct {
		step       int
		kind, node string
		state, err string
	}{
		{1, EventAssume, "a-1", "Initial→Assumed", ""},
		{2, EventAssume, "a-2", "", "pod " + uid("web-1") + " is in the cache, so can't be assumed"},
		{3, EventUpdate, "a-1", "", "assumed pod " + uid("web-1") + " should not be updated"},
		{4, EventForget, "a-2", "", "pod " + uid("web-1") + " was assumed on a-2 but assigned to a-1"},
		{5, EventFinishBinding, "a-1", "", ""},
		{6, EventCleanup, "", "", ""},
		{7, EventAdvance, "", "", ""},
		{8, EventExpire, "a-1", "Assumed→Expired", ""},
		{9, EventCleanup, "", "", ""},
		{10, EventFinishBinding, "a-1", "", ""},
		{11, EventForget, "a-1", "", ""}, // unknown pods are ignored (v1.35+)
		{12, EventAssume, "b-1", "Initial→Assumed", ""},
		{13, EventFinishBinding, "b-1", "", ""},
		{13, EventForget, "b-1", "Assumed→Initial", ""},
		{14, EventAssume, "b-1", "Initial→Assumed", ""},
		{15, EventAdd, "a-2", "Assumed→Added", ""},
		{16, EventAdd, "a-2", "", "pod " + uid("web-2") + " was already in added state"},
		{17, EventForget, "a-2", "", "pod " + uid("web-2") + " wasn't assumed so cannot be forgotten"},
		{18, EventUpdate, "a-2", "Added→Added", ""},
		{19, EventUpdate, "b-1", "", "pod " + uid("web-2") + ` updated on a different node than previously added to (cached on "a-2", update on "b-1"): scheduler cache is corrupted, kube-scheduler would exit`},
		{20, EventRemove, "b-1", "", "pod " + uid("web-2") + ` was added to "a-2" but removed from "b-1": scheduler cache is corrupted, kube-scheduler would exit`},
		{21, EventRemove, "a-2", "Added→Deleted", ""},
		{22, EventRemove, "a-2", "", "pod " + uid("web-2") + " is not found in scheduler cache, so cannot be removed from it"},
		{23, EventUpdate, "", "", "pod " + uid("batch-1") + " is not added to scheduler cache, so cannot be updated"},
		{24, EventRemove, "a-1", "Added→Deleted", ""},
	}
	if len(res.Events) != len(want) {
		t.Fatalf("%d events, want %d:\n%s", len(res.Events), len(want), summary(res.Events))
	}
	for i, w := range want {
		e := res.Events[i]
		state, errStr := "", e.Error
		if e.From != "" {
			state = e.From + "→" + e.To
		}
		if e.Step != w.step || e.Event != w.kind || e.Node != w.node || state != w.state || errStr != w.err {
			t.Errorf("event %d: step %d %s on %q %q err %q\nwant: step %d %s on %q %q err %q", i, e.Step, e.Event, e.Node, state, errStr, w.step, w.kind, w.node, w.state, w.err)
		}
	}
	// Notes by event index.
	notes := map[int]string{
		4: "deadline +30s", 5: "nothing expired: next deadline +30s (apps/web-1)", 6: "clock +31s",
		7: "deadline +30s passed: requests freed", 8: "nothing expired: no assumed pod has finished binding",
		9: "not assumed: no-op", 10: "not in the cache: ignored", 12: "deadline +1m1s", 13: "binding failed", 15: "moved: was assumed on b-1",
	}
	for i, n := range notes {
		if got := res.Events[i].Note; got != n {
			t.Errorf("event %d (step %d) note %q, want %q", i, res.Events[i].Step, got, n)
		}
	}
	// web-2 was updated to 1 cpu on a-2, then removed: a-2 is back to 0.
	if u := res.Events[18].Requested; u.MilliCPU != 1000 {
		t.Errorf("a-2 after the update: %d milliCPU, want 1000", u.MilliCPU)
	}
	finals := map[string]string{}
	for _, p := range res.Pods {
		finals[p.Name] = p.State + " " + p.Detail
	}
	wantFinals := map[string]string{
		"web-1":   "Expired expired at +31s: requests freed",
		"web-2":   "Deleted removed at +31s",
		"batch-1": "Initial never assumed",
		"run-a1":  "Deleted removed at +31s",
	}
	if diff := cmp.Diff(wantFinals, finals); diff != "" {
		t.Errorf("final states (-want,+got):\n%s", diff)
	}
}

// TestRunScriptNodes: node operations, ghosts, inline objects, and
// placement over the nodes as the operations left them. batch-1 (3 CPU,
// 1Gi) fits a-1 (now 8 CPU, 16Gi, 1500m used) and the re-added, empty a-2
// (4 CPU, 8Gi); LeastAllocated prefers a-1 (after placement: cpu 56% and
// memory 12.5% used, against 75% and 12.5%), and so does v1.36's
// BalancedAllocation, which scores the change in balance (a-1 loses less).
func TestRunScriptNodes(t *testing.T) {
	s, res := runScript(t, `
- {op: removeNode, node: b-1}
- {op: removeNode, node: b-1}
- {op: removeNode, node: a-2}
- {op: removeNode, node: a-2}
- {op: addNode, node: a-2}
- op: updateNode
  nodeObject:
    metadata: {name: a-1, labels: {topology.kubernetes.io/region: r, topology.kubernetes.io/zone: z-c}}
    status: {allocatable: {cpu: "8", memory: 16Gi, pods: "10"}}
- op: addNode
  nodeObject:
    metadata: {name: c-9, labels: {topology.kubernetes.io/region: r, topology.kubernetes.io/zone: z-c}}
    status: {allocatable: {cpu: "1", memory: 1Gi, pods: "10"}}
- op: removeNode
  nodeObject: {metadata: {name: nope}}
- {op: assume, pod: apps/batch-1}
- {op: assume, pod: apps/web-1, node: c-9}
- {op: addNode, node: b-1}
`, Options{})
	want := `+0s removeNode - b-1 - 500m
+0s removeNode - b-1 - 500m ERR node "b-1" in group "r:\x00:z-b" was not found
+0s removeNode - a-2 - -
+0s removeNode - a-2 - - ERR node a-2 is not found
+0s addNode - a-2 - 0
+0s updateNode - a-1 - 1500m
+0s addNode - c-9 - 0
+0s removeNode - nope - - ERR node nope is not found
+0s assume batch-1 a-1 Initial→Assumed 4500m
+0s assume web-1 c-9 Initial→Assumed 400m
+0s addNode - b-1 - 500m
`
	if diff := cmp.Diff(want, summary(res.Events)); diff != "" {
		t.Errorf("(-want,+got):\n%s", diff)
	}
	// b-1 is a ghost after its removal: it keeps its pod and requests.
	if u := res.Events[0].Requested; u == nil || u.Pods != 1 || u.MilliCPU != 500 {
		t.Errorf("b-1 after removal: %+v, want its pod and 500m", u)
	}
	// The placement snapshot, brought up to date, lists the nodes in the
	// cache's NodeTree order.
	if err := s.Model().Cache.UpdateSnapshot(s.placement.snap); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ni := range s.placement.snap.List() {
		got = append(got, ni.Node().Name)
	}
	cached, _ := s.Model().Cache.NodeTreeList()
	if !cmp.Equal(got, cached) {
		t.Errorf("placement order %v, cache tree %v", got, cached)
	}
}

// TestRunScriptMistakes: mistakes found while running stop the script.
func TestRunScriptMistakes(t *testing.T) {
	tests := []struct{ name, script, want string }{
		{"unknown pod", "- {op: cleanup}\n- {op: assume, pod: apps/nope}", "script step 2 (assume): unknown pod apps/nope: not given with --pod-file or --pending, not defined inline by an earlier step, and not in the input"},
		{"unknown node", "- {op: assume, pod: apps/web-1, node: x-1}", "script step 1 (assume): unknown node x-1"},
		{"unknown node to add on", "- {op: add, pod: apps/run-a1, node: x-1}", "script step 1 (add): unknown node x-1"},
		{"add without node", "- {op: add, pod: apps/web-1}", "script step 1 (add): pod apps/web-1 has no node (it was never assumed or bound): give node"},
		{"bind before assume", "- {op: bind, pod: apps/web-1}", "script step 1 (bind): pod apps/web-1 was never assumed or bound"},
		{"unknown node op", "- {op: removeNode, node: x-1}", "script step 1 (removeNode): unknown node x-1"},
		{"no containers", "- op: update\n  pod: {metadata: {name: bare, namespace: apps}}\n  requests: {cpu: 1}", "script step 1 (update): pod apps/bare has no containers"},
		{"clock past its largest value", "- {op: advance, duration: 2562047h}\n- {op: advance, duration: 2562047h}",
			"script step 2 (advance): +2562047h0m0s would move the virtual clock past its largest value, 2562047h47m16.854775807s after the start"},
		{"escaped pod name", "- {op: assume, pod: \"apps/\\e]52;c;aGk=\\a\\nforged\\u009b\"}",
			`script step 1 (assume): unknown pod apps/^[]52;c;aGk=\x07 forged\x9b: not given`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			steps, err := script.Parse([]byte(tc.script))
			if err != nil {
				t.Fatal(err)
			}
			_, err = newSim(t, scriptCluster(), Options{}).RunScript(steps, nil)
			var se *script.Error
			if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want a *script.Error containing %q", err, tc.want)
			}
		})
	}
}

// TestRunScriptInline: an inline pod is defined once and named later; an
// inline object for a known pod keeps its UID.
func TestRunScriptInline(t *testing.T) {
	_, res := runScript(t, `
- op: assume
  pod: {metadata: {name: job, namespace: apps}, spec: {containers: [{name: c, resources: {requests: {cpu: 100m}}}]}}
  node: a-2
- {op: bind, pod: apps/job}
- op: update
  pod: {metadata: {name: job, namespace: apps}, spec: {containers: [{name: c, resources: {requests: {cpu: 700m}}}]}}
`, Options{})
	want := `+0s assume job a-2 Initial→Assumed 100m
+0s finishBinding job a-2 - 100m
+0s add job a-2 Assumed→Added 100m
+0s update job a-2 Added→Added 700m
`
	if diff := cmp.Diff(want, summary(res.Events)); diff != "" {
		t.Errorf("(-want,+got):\n%s", diff)
	}
	if uid := res.Events[3].Pod.UID; uid != string(load.DerivedUID("apps", "job")) {
		t.Errorf("updated object UID %s, want the derived UID of the defined pod", uid)
	}
}
