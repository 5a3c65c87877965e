//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/yaml"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

// Hand-computed simulation of the rich cluster's pending pods
// (fixture_test.go, requests per node in cli_test.go's richWant).
//
// `simulate --pending -A` takes the unassigned pods in queue order: all have
// priority 0, so by creation time, then list order (etcd key order):
// team-a/nominated (500m, 512Mi, status.nominatedNodeName node-04),
// team-a/pending-1 (3, 1Gi), team-a/pending-huge (64 cpu). The loader creates
// them within a second of each other; the test orders its expectations by
// the creation times it reads back (see queueFirst). Each is placed where
// kube-scheduler v1.36 would place it.
//
// Free cpu before any assume (allocatable − requested): node-01 1600m,
// node-02 2550m, node-03 2700m, node-04 3450m, node-05 2000m, node-06 6750m,
// node-07 1000m, node-08 3900m; memory is plentiful everywhere for these pods
// and no node is near its pod count. No node has taints or is cordoned.
//
//   - nominated: its nominated node node-04 is tried first and passes every
//     filter, so it is taken without scoring the others. node-04: 550m +
//     500m = 1050m, 384Mi + 512Mi = 896Mi, 2 + 1 = 3 pods.
//   - pending-1: passes on node-06 (6750m free) and node-08 (3900m); node-04
//     has 2950m left once nominated is there (or, before it is, counts the
//     nominated pod in the first filter pass). Scores, weights applied:
//     TaintToleration 3 × 100 on both; NodeResourcesFit (LeastAllocated,
//     integer percent free per resource, averaged): node-06 cpu
//     (8000 − 4250) × 100 / 8000 = 46, memory (16 − 4)/16 → 75, so 60; node-08
//     cpu 900 × 100 / 4000 = 22, memory (8Gi − 1124Mi)/8Gi → 86, so 54;
//     BalancedAllocation (50 + (50 + after − before)/2, after and before
//     = int((1 − |cpu − memory fraction| / 2) × 100)): node-06 before
//     |0.15625 − 0.1875|/2 → 98, after |0.53125 − 0.25|/2 → 85, so 68;
//     node-08 before → 99, after |0.775 − 0.137|/2 → 68, so 59.
//     NodeAffinity, ImageLocality and DynamicResources give 0. node-06 wins,
//     428 against 413. node-06: 1250m + 3000m = 4250m, 3Gi + 1Gi = 4Gi,
//     2 + 1 = 3 pods.
//   - pending-huge: 64 cpu exceed every node's allocatable: unschedulable on
//     all 8, and preemption cannot help. The scan starts where the previous
//     cycle's stopped: pending-1's scanned all 8 nodes from the first, so
//     this one scans richNextOrder (01 03 05 06 07 02 08 04) from node-01.
const (
	oneGi = 1073741824

	node01CPU, node01Mem, node01Pods = 2400, 1820327936, 3 // 1736 × Mi
	node04CPU, node04Mem, node04Pods = 550, 402653184, 2   // 384 × Mi
	node06CPU, node06Mem, node06Pods = 1250, 3221225472, 2 // 3 × Gi

	nominatedCPU, nominatedMem = 500, 536870912   // 512 × Mi
	pending1CPU, pending1Mem   = 3000, 1073741824 // 1 × Gi
	legacyCPU, legacyMem       = 1000, 2147483648 // team-b/legacy: 2 × Gi

	// After the assumes.
	node04AfterCPU, node04AfterMem = 1050, 939524096  // 550 + 500; 384Mi + 512Mi = 896 × Mi
	node06AfterCPU, node06AfterMem = 4250, 4294967296 // 1250 + 3000; 3Gi + 1Gi = 4 × Gi

	hugeMessage = "0/8 nodes are available: 8 Insufficient cpu. no new claims to deallocate, " +
		"preemption: 0/8 nodes are available: 8 Preemption is not helpful for scheduling."
)

// simEv is one Simulation event, flattened for comparison. cpu, mem and
// pods are the node's requests after the event; all -1 when the event
// carries none.
type simEv struct {
	at               int64 // atMillis
	step             int
	event, pod, node string
	from, to         string
	cpu, mem, pods   int64
	errText, note    string
}

func (e simEv) String() string {
	return fmt.Sprintf("{+%dms step %d %s pod=%q node=%q %s→%s req=%d/%d/%d err=%q note=%q}",
		e.at, e.step, e.event, e.pod, e.node, e.from, e.to, e.cpu, e.mem, e.pods, e.errText, e.note)
}

func flattenEvents(s *v1alpha1.Simulation) []simEv {
	out := make([]simEv, 0, len(s.Events))
	for _, e := range s.Events {
		f := simEv{at: e.AtMillis, step: e.Step, event: e.Event, node: e.Node, from: e.From, to: e.To,
			cpu: -1, mem: -1, pods: -1, errText: e.Error, note: e.Note}
		if e.Pod != nil {
			f.pod = e.Pod.Namespace + "/" + e.Pod.Name
		}
		if r := e.Requested; r != nil {
			f.cpu, f.mem, f.pods = r.MilliCPU, r.Memory, r.Pods
		}
		out = append(out, f)
	}
	return out
}

func checkEvents(t *testing.T, s *v1alpha1.Simulation, want []simEv) {
	t.Helper()
	got := flattenEvents(s)
	for i := 0; i < max(len(got), len(want)); i++ {
		switch {
		case i >= len(got):
			t.Errorf("event %d missing, want %v", i+1, want[i])
		case i >= len(want):
			t.Errorf("unexpected event %d: %v", i+1, got[i])
		case got[i] != want[i]:
			t.Errorf("event %d:\n got %v\nwant %v", i+1, got[i], want[i])
		}
	}
}

// simNodeWant is one touched node: allocatable, before and after (cpu,
// memory, pods).
type simNodeWant struct {
	name          string
	alloc         v1alpha1.NodeUsage
	before, after v1alpha1.NodeUsage
}

func checkSimNodes(t *testing.T, s *v1alpha1.Simulation, want []simNodeWant) {
	t.Helper()
	if len(s.Nodes) != len(want) {
		t.Errorf("%d touched nodes %+v, want %d", len(s.Nodes), s.Nodes, len(want))
		return
	}
	for i, n := range s.Nodes {
		w := want[i]
		if n.Name != w.name || !reflect.DeepEqual(n.Allocatable, w.alloc) || n.Before == nil || n.After == nil ||
			!reflect.DeepEqual(*n.Before, w.before) || !reflect.DeepEqual(*n.After, w.after) || n.Placeholder || n.Ghost {
			t.Errorf("touched node %d: got %s alloc %+v before %+v after %+v placeholder %v ghost %v\nwant %s alloc %+v before %+v after %+v",
				i+1, n.Name, n.Allocatable, n.Before, n.After, n.Placeholder, n.Ghost, w.name, w.alloc, w.before, w.after)
		}
	}
}

// simPodWant is one simulated pod's final state.
type simPodWant struct {
	pod, state, node, detail string
	cpu, mem                 int64
}

func checkSimPods(t *testing.T, s *v1alpha1.Simulation, want []simPodWant) {
	t.Helper()
	if len(s.Pods) != len(want) {
		t.Errorf("%d simulated pods %+v, want %d", len(s.Pods), s.Pods, len(want))
		return
	}
	for i, p := range s.Pods {
		w := want[i]
		got := simPodWant{pod: p.Namespace + "/" + p.Name, state: p.State, node: p.Node, detail: p.Detail,
			cpu: p.Requested.MilliCPU, mem: p.Requested.Memory}
		if got != w || p.Requested.Pods != 1 || p.UID == "" {
			t.Errorf("simulated pod %d: got %+v (pods %d, uid %q), want %+v (pods 1)", i+1, got, p.Requested.Pods, p.UID, w)
		}
	}
}

// simUsage is a NodeUsage literal: requested (or allocatable) cpu, memory, pods.
func simUsage(cpu, mem, pods int64) v1alpha1.NodeUsage {
	return v1alpha1.NodeUsage{MilliCPU: cpu, Memory: mem, Pods: pods}
}

var (
	alloc01 = simUsage(4000, alloc8Gi, 110)
	alloc04 = simUsage(4000, alloc8Gi, 110)
	alloc06 = simUsage(8000, 17179869184, 110) // 16 × Gi
)

// tableRow returns the one line of table whose whitespace-separated fields
// start with prefix.
func tableRow(t *testing.T, table string, prefix ...string) string {
	t.Helper()
	var found []string
	for _, line := range strings.Split(table, "\n") {
		if f := strings.Fields(line); len(f) >= len(prefix) && reflect.DeepEqual(f[:len(prefix)], prefix) {
			found = append(found, line)
		}
	}
	if len(found) != 1 {
		t.Errorf("want exactly one row starting %q, found %d in:\n%s", strings.Join(prefix, " "), len(found), table)
		return ""
	}
	return found[0]
}

// simScript is a --script over the rich cluster, run with --ttl 30s. It
// drives the cache into three errors, worded as the cache words them:
// assuming an assumed pod, forgetting an added one, removing a deleted one.
const simScript = `# 1. nominated, by hand on node-01 (the scheduler would take node-04).
- op: assume
  pod: team-a/nominated
  node: node-01
# 2. Assumed twice: refused.
- op: assume
  pod: team-a/nominated
  node: node-04
# 3. The Add event names its nominated node: the cache moves it there.
- op: add
  pod: team-a/nominated
  node: node-04
# 4. Added, not assumed: cannot be forgotten.
- op: forget
  pod: team-a/nominated
# 5. Where kube-scheduler places it: node-06 (see the timeline's pending-1).
- op: assume
  pod: team-a/pending-1
# 6. Deadline +0s + 30s.
- op: finishBinding
  pod: team-a/pending-1
- op: advance
  duration: 10s
# 8. +10s: nothing to expire.
- op: cleanup
- op: advance
  duration: 21s
# 10. +31s: past the deadline, pending-1 expires.
- op: cleanup
# 11. A bound pod of the input is deleted, then deleted again.
- op: remove
  pod: team-b/legacy
- op: remove
  pod: team-b/legacy
`

// writeSimScript writes simScript into a temporary file and returns its path.
func writeSimScript(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "scenario.yaml")
	if err := os.WriteFile(p, []byte(simScript), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkSimulate runs simulate as the reader (kc) on the rich cluster c and
// checks the timeline, the nodes' requests and the pods' final states
// against the hand computation above.
func checkSimulate(ctx context.Context, t *testing.T, c *framework.Cluster, kc string) {
	// The cache keys pods by UID; the errors name it.
	uid := map[string]string{}
	for _, name := range []string{nsA + "/nominated", nsA + "/pending-1", nsB + "/legacy"} {
		ns, n, _ := strings.Cut(name, "/")
		p, err := c.AdminClient().CoreV1().Pods(ns).Get(ctx, n, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		uid[name] = string(p.UID)
	}
	// The plugin reads the server version through discovery; the binaries
	// are v1.36.3, whose kube-scheduler has no assumed-pod expiry (TTL 0).
	sv, err := c.AdminClient().Discovery().ServerVersion()
	if err != nil {
		t.Fatal(err)
	}
	if sv.GitVersion != framework.KubernetesVersion {
		t.Fatalf("server version %q, want %q (the checks below assume its TTL 0)", sv.GitVersion, framework.KubernetesVersion)
	}
	serverNote := "note: TTL 0 (kube-scheduler " + framework.KubernetesVersion +
		" default, from the server version: assumed pods never expire; v1.36 removed expiry)"

	// The assumes are the same in every timeline run.
	assumes := []simEv{
		{at: 0, event: "assume", pod: "team-a/nominated", node: "node-04", from: "Initial", to: "Assumed",
			cpu: node04AfterCPU, mem: node04AfterMem, pods: node04Pods + 1,
			note: "kube-scheduler's choice: its nominated node, tried first, passes every filter"},
		{at: 0, event: "assume", pod: "team-a/pending-1", node: "node-06", from: "Initial", to: "Assumed",
			cpu: node06AfterCPU, mem: node06AfterMem, pods: node06Pods + 1,
			note: "kube-scheduler's choice: score 428, highest of 2 feasible nodes"},
		{at: 0, event: "unschedulable", pod: "team-a/pending-huge", cpu: -1, mem: -1, pods: -1, note: hugeMessage},
	}
	hugePod := simPodWant{pod: "team-a/pending-huge", state: "Unschedulable", cpu: 64000, mem: 0, detail: hugeMessage}
	timeline := func(bind string, untilMillis int64) v1alpha1.TimelineSettings {
		return v1alpha1.TimelineSettings{Bind: bind, BindLatency: "100ms", BindLatencyMillis: 100,
			CleanupPeriod: "1s", CleanupPeriodMillis: 1000, Until: "1m0s", UntilMillis: untilMillis}
	}

	t.Run("simulate-json", func(t *testing.T) {
		r := runPlugin(t, nil, "simulate", "--pending", "-A", kc, "-o", "json")
		if r.code != 1 { // pending-huge fits nowhere
			t.Fatalf("%v", r)
		}
		if strings.TrimSpace(r.stderr) != serverNote {
			t.Errorf("stderr %q, want the note %q", r.stderr, serverNote)
		}
		s := decodeKind[v1alpha1.Simulation](t, "Simulation", r.stdout)
		if want := "cluster " + c.Server; s.Source != want {
			t.Errorf("source %q, want %q", s.Source, want)
		}
		tl := timeline("confirm", 60000)
		wantSettings := v1alpha1.SimulationSettings{
			Mode: "timeline", Start: "2026-01-01T00:00:00Z", TTL: "0s", TTLMillis: 0,
			TTLSource: "kube-scheduler " + framework.KubernetesVersion + " default", KubeVersion: framework.KubernetesVersion,
			End: "1m0s", EndMillis: 60000, Timeline: &tl,
		}
		if !reflect.DeepEqual(s.Settings, wantSettings) {
			t.Errorf("settings\n %+v %+v\nwant\n %+v %+v", s.Settings, s.Settings.Timeline, wantSettings, wantSettings.Timeline)
		}
		// +100ms: FinishBinding (no deadline with TTL 0) then the Add event,
		// pod by pod; the requests do not change.
		checkEvents(t, s, append(slices.Clone(assumes),
			simEv{at: 100, event: "finishBinding", pod: "team-a/nominated", node: "node-04",
				cpu: node04AfterCPU, mem: node04AfterMem, pods: node04Pods + 1, note: "TTL 0: no deadline"},
			simEv{at: 100, event: "add", pod: "team-a/nominated", node: "node-04", from: "Assumed", to: "Added",
				cpu: node04AfterCPU, mem: node04AfterMem, pods: node04Pods + 1},
			simEv{at: 100, event: "finishBinding", pod: "team-a/pending-1", node: "node-06",
				cpu: node06AfterCPU, mem: node06AfterMem, pods: node06Pods + 1, note: "TTL 0: no deadline"},
			simEv{at: 100, event: "add", pod: "team-a/pending-1", node: "node-06", from: "Assumed", to: "Added",
				cpu: node06AfterCPU, mem: node06AfterMem, pods: node06Pods + 1},
		))
		checkSimNodes(t, s, []simNodeWant{
			{name: "node-04", alloc: alloc04, before: simUsage(node04CPU, node04Mem, node04Pods), after: simUsage(node04AfterCPU, node04AfterMem, node04Pods+1)},
			{name: "node-06", alloc: alloc06, before: simUsage(node06CPU, node06Mem, node06Pods), after: simUsage(node06AfterCPU, node06AfterMem, node06Pods+1)},
		})
		checkSimPods(t, s, []simPodWant{
			{pod: "team-a/nominated", state: "Added", node: "node-04", detail: "Add event at +100ms", cpu: nominatedCPU, mem: nominatedMem},
			{pod: "team-a/pending-1", state: "Added", node: "node-06", detail: "Add event at +100ms", cpu: pending1CPU, mem: pending1Mem},
			hugePod,
		})
		for _, p := range s.Pods {
			if got := p.UID; uid[p.Namespace+"/"+p.Name] != "" && got != uid[p.Namespace+"/"+p.Name] {
				t.Errorf("pod %s/%s uid %q, want the API's %q", p.Namespace, p.Name, got, uid[p.Namespace+"/"+p.Name])
			}
		}
		// pending-huge: every node examined, in the scan order from node-01.
		var examined []string
		for _, nr := range s.Pods[len(s.Pods)-1].Unschedulable {
			examined = append(examined, nr.Node)
			if nr.Plugin != "NodeResourcesFit" || !reflect.DeepEqual(nr.Reasons, []string{"Insufficient cpu"}) {
				t.Errorf("pending-huge on %s: %s %v, want NodeResourcesFit [Insufficient cpu]", nr.Node, nr.Plugin, nr.Reasons)
			}
		}
		if want := []string{"node-01", "node-03", "node-05", "node-06", "node-07", "node-02", "node-08", "node-04"}; !reflect.DeepEqual(examined, want) {
			t.Errorf("pending-huge examined %v, want %v", examined, want)
		}

		// The TTL default from the server's version is exactly that of
		// --kube-version v1.36.3: the same object, only the note's reason differs.
		r2 := runPlugin(t, nil, "simulate", "--pending", "-A", "--kube-version", framework.KubernetesVersion, kc, "-o", "json")
		if r2.code != 1 || r2.stdout != r.stdout {
			t.Errorf("--kube-version %s changes the output; %s\n%v", framework.KubernetesVersion, firstDiff(r.stdout, r2.stdout), r2)
		}
		if want := "note: TTL 0 (kube-scheduler " + framework.KubernetesVersion + " default: assumed pods never expire; v1.36 removed expiry)"; strings.TrimSpace(r2.stderr) != want {
			t.Errorf("--kube-version note %q, want %q", r2.stderr, want)
		}

		// -o yaml carries the same object; -n team-a selects the same pods.
		var fromYAML v1alpha1.Simulation
		if err := yaml.Unmarshal([]byte(mustSimulate(t, "simulate", "--pending", "-A", kc, "-o", "yaml")), &fromYAML); err != nil {
			t.Fatalf("simulate -o yaml: %v", err)
		}
		if !reflect.DeepEqual(&fromYAML, s) {
			t.Errorf("simulate -o yaml and -o json decode differently")
		}
		if out := mustSimulate(t, "simulate", "--pending", "-n", nsA, kc, "-o", "json"); out != r.stdout {
			t.Errorf("--pending -n team-a differs from -A (all pending pods are in team-a); %s", firstDiff(r.stdout, out))
		}
	})

	t.Run("simulate-table", func(t *testing.T) {
		r := runPlugin(t, nil, "simulate", "--pending", "-A", kc)
		if r.code != 1 { // pending-huge fits nowhere
			t.Fatalf("%v", r)
		}
		if strings.TrimSpace(r.stderr) != serverNote {
			t.Errorf("stderr %q, want the note %q", r.stderr, serverNote)
		}
		out := r.stdout
		// Human units: 2248Mi ≈ 2.2Gi, 1736Mi ≈ 1.7Gi.
		tableRow(t, out, "+0s", "assume", "team-a/nominated", "node-04", "Initial→Assumed", "1050m", "896Mi")
		if line := tableRow(t, out, "+0s", "assume", "team-a/pending-1", "node-06", "Initial→Assumed", "4250m", "4Gi"); !strings.HasSuffix(line, "score 428, highest of 2 feasible nodes") {
			t.Errorf("pending-1 assume row lacks its score: %q", line)
		}
		if line := tableRow(t, out, "+0s", "unschedulable", "team-a/pending-huge", "-", "-", "-", "-"); !strings.HasSuffix(line, hugeMessage) {
			t.Errorf("pending-huge row: %q", line)
		}
		tableRow(t, out, "+100ms", "finishBinding", "team-a/nominated", "node-04", "-", "1050m", "896Mi", "TTL", "0:", "no", "deadline")
		tableRow(t, out, "+100ms", "add", "team-a/nominated", "node-04", "Assumed→Added", "1050m", "896Mi")
		tableRow(t, out, "+100ms", "add", "team-a/pending-1", "node-06", "Assumed→Added", "4250m", "4Gi")
		// NODE CPU-BEFORE CPU-AFTER MEMORY-BEFORE MEMORY-AFTER PODS-BEFORE PODS-AFTER
		tableRow(t, out, "NODE", "CPU-BEFORE", "CPU-AFTER", "MEMORY-BEFORE", "MEMORY-AFTER", "PODS-BEFORE", "PODS-AFTER")
		tableRow(t, out, "node-04", "550m", "1050m", "384Mi", "896Mi", "2", "3")
		tableRow(t, out, "node-06", "1250m", "4250m", "3Gi", "4Gi", "2", "3")
		tableRow(t, out, "team-a/nominated", "Added", "node-04", "Add", "event", "at", "+100ms")
		tableRow(t, out, "team-a/pending-1", "Added", "node-06", "Add", "event", "at", "+100ms")
		tableRow(t, out, "team-a/pending-huge", "Unschedulable", "-", "0/8", "nodes", "are", "available:", "8", "Insufficient", "cpu.")
		if !strings.Contains(out, "\n3 pods simulated (2 Added, 1 Unschedulable), TTL 0 (never expire), virtual time +0s to +1m0s\n") {
			t.Errorf("summary line missing or wrong:\n%s", out)
		}
		// 1 header + 7 events, blank, 1 + 2 nodes, blank, 1 + 3 pods, summary.
		if n := strings.Count(out, "\n"); n != 18 {
			t.Errorf("simulate table has %d lines, want 18:\n%s", n, out)
		}

		// Without -A, --pending looks in the kubeconfig's namespace
		// ("default"), which has no pending pods.
		r = runPlugin(t, nil, "simulate", "--pending", kc)
		if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "No resources found in default namespace.\n") {
			t.Errorf("simulate --pending without -A: want exit 0 and \"No resources found in default namespace.\"\n%v", r)
		}
	})

	t.Run("simulate-lost-ttl", func(t *testing.T) {
		r := runPlugin(t, nil, "simulate", "--pending", "-A", "--bind", "lost", "--ttl", "30s", kc, "-o", "json")
		if r.code != 1 { // pending-huge fits nowhere
			t.Fatalf("%v", r)
		}
		if want := "note: TTL 30s (--ttl); assumed pods whose binding finished expire 30s later"; strings.TrimSpace(r.stderr) != want {
			t.Errorf("stderr %q, want %q", r.stderr, want)
		}
		s := decodeKind[v1alpha1.Simulation](t, "Simulation", r.stdout)
		tl := timeline("lost", 60000)
		// --ttl: no TTL default, so no kubeVersion in the settings (the
		// server's v1.36.3 is still modelled); the automatic --until stays 1m
		// since the expiry (+31s) falls within it.
		wantSettings := v1alpha1.SimulationSettings{
			Mode: "timeline", Start: "2026-01-01T00:00:00Z", TTL: "30s", TTLMillis: 30000, TTLSource: "--ttl",
			End: "1m0s", EndMillis: 60000, Timeline: &tl,
		}
		if !reflect.DeepEqual(s.Settings, wantSettings) {
			t.Errorf("settings\n %+v %+v\nwant\n %+v %+v", s.Settings, s.Settings.Timeline, wantSettings, wantSettings.Timeline)
		}
		// FinishBinding at +100ms sets the deadline +100ms + 30s = +30.1s; no
		// Add event comes; the cleanup ticks every 1s, and the first one past
		// the deadline is +31s: both pods expire and the nodes' requests drop
		// back to their values before the assumes. One cleanup expires both,
		// in the cache's key order: by UID, which the API server chose.
		expires := []simEv{
			{at: 31000, event: "expire", pod: "team-a/nominated", node: "node-04", from: "Assumed", to: "Expired",
				cpu: node04CPU, mem: node04Mem, pods: node04Pods, note: "deadline +30.1s passed: requests freed"},
			{at: 31000, event: "expire", pod: "team-a/pending-1", node: "node-06", from: "Assumed", to: "Expired",
				cpu: node06CPU, mem: node06Mem, pods: node06Pods, note: "deadline +30.1s passed: requests freed"},
		}
		if uid[nsA+"/pending-1"] < uid[nsA+"/nominated"] {
			expires[0], expires[1] = expires[1], expires[0]
		}
		checkEvents(t, s, append(slices.Clone(assumes),
			simEv{at: 100, event: "finishBinding", pod: "team-a/nominated", node: "node-04",
				cpu: node04AfterCPU, mem: node04AfterMem, pods: node04Pods + 1, note: "deadline +30.1s; Add event lost"},
			simEv{at: 100, event: "finishBinding", pod: "team-a/pending-1", node: "node-06",
				cpu: node06AfterCPU, mem: node06AfterMem, pods: node06Pods + 1, note: "deadline +30.1s; Add event lost"},
			expires[0], expires[1],
		))
		checkSimNodes(t, s, []simNodeWant{
			{name: "node-04", alloc: alloc04, before: simUsage(node04CPU, node04Mem, node04Pods), after: simUsage(node04CPU, node04Mem, node04Pods)},
			{name: "node-06", alloc: alloc06, before: simUsage(node06CPU, node06Mem, node06Pods), after: simUsage(node06CPU, node06Mem, node06Pods)},
		})
		checkSimPods(t, s, []simPodWant{
			{pod: "team-a/nominated", state: "Expired", node: "node-04", detail: "expired at +31s: requests freed", cpu: nominatedCPU, mem: nominatedMem},
			{pod: "team-a/pending-1", state: "Expired", node: "node-06", detail: "expired at +31s: requests freed", cpu: pending1CPU, mem: pending1Mem},
			hugePod,
		})

		out := mustSimulate(t, "simulate", "--pending", "-A", "--bind", "lost", "--ttl", "30s", kc)
		tableRow(t, out, "+31s", "expire", "team-a/nominated", "node-04", "Assumed→Expired", "550m", "384Mi")
		tableRow(t, out, "+31s", "expire", "team-a/pending-1", "node-06", "Assumed→Expired", "1250m", "3Gi")
		tableRow(t, out, "node-04", "550m", "550m", "384Mi", "384Mi", "2", "2")

		// The same lost bindings under the server's TTL 0: nothing expires,
		// the assumed pods hold their requests to the end.
		s = decodeKind[v1alpha1.Simulation](t, "Simulation", mustSimulate(t, "simulate", "--pending", "-A", "--bind", "lost", kc, "-o", "json"))
		for _, e := range s.Events {
			if e.Event == "expire" {
				t.Errorf("TTL 0: unexpected expiry %+v", e)
			}
		}
		checkSimNodes(t, s, []simNodeWant{
			{name: "node-04", alloc: alloc04, before: simUsage(node04CPU, node04Mem, node04Pods), after: simUsage(node04AfterCPU, node04AfterMem, node04Pods+1)},
			{name: "node-06", alloc: alloc06, before: simUsage(node06CPU, node06Mem, node06Pods), after: simUsage(node06AfterCPU, node06AfterMem, node06Pods+1)},
		})
		for _, p := range s.Pods[:2] {
			if p.State != "Assumed" {
				t.Errorf("TTL 0, lost binding: %s/%s state %q, want Assumed", p.Namespace, p.Name, p.State)
			}
		}

		// --kube-version v1.19 brings back its 30s default: the same expiry.
		s = decodeKind[v1alpha1.Simulation](t, "Simulation", mustSimulate(t, "simulate", "--pending", "-A", "--bind-for", nsA+"/pending-1=lost", "--kube-version", "v1.19", kc, "-o", "json"))
		if s.Settings.TTLMillis != 30000 || s.Settings.TTLSource != "kube-scheduler v1.19 default" || s.Settings.KubeVersion != "v1.19" {
			t.Errorf("--kube-version v1.19 settings %+v, want TTL 30s from its default", s.Settings)
		}
		var states []string
		for _, p := range s.Pods {
			states = append(states, p.Namespace+"/"+p.Name+"="+p.State)
		}
		// nominated keeps --bind confirm; only pending-1's binding is lost.
		if want := []string{"team-a/nominated=Added", "team-a/pending-1=Expired", "team-a/pending-huge=Unschedulable"}; !reflect.DeepEqual(states, want) {
			t.Errorf("--bind-for pending-1=lost --kube-version v1.19: states %v, want %v", states, want)
		}
	})

	t.Run("simulate-fail", func(t *testing.T) {
		r := runPlugin(t, nil, "simulate", "--pending", "-A", "--bind", "fail", kc, "-o", "json")
		if r.code != 1 { // pending-huge fits nowhere
			t.Fatalf("%v", r)
		}
		s := decodeKind[v1alpha1.Simulation](t, "Simulation", r.stdout)
		// The failed bindings are forgotten at +100ms: Assumed→Initial, the
		// requests drop back at once.
		checkEvents(t, s, append(slices.Clone(assumes),
			simEv{at: 100, event: "finishBinding", pod: "team-a/nominated", node: "node-04",
				cpu: node04AfterCPU, mem: node04AfterMem, pods: node04Pods + 1, note: "TTL 0: no deadline"},
			simEv{at: 100, event: "forget", pod: "team-a/nominated", node: "node-04", from: "Assumed", to: "Initial",
				cpu: node04CPU, mem: node04Mem, pods: node04Pods, note: "binding failed"},
			simEv{at: 100, event: "finishBinding", pod: "team-a/pending-1", node: "node-06",
				cpu: node06AfterCPU, mem: node06AfterMem, pods: node06Pods + 1, note: "TTL 0: no deadline"},
			simEv{at: 100, event: "forget", pod: "team-a/pending-1", node: "node-06", from: "Assumed", to: "Initial",
				cpu: node06CPU, mem: node06Mem, pods: node06Pods, note: "binding failed"},
		))
		checkSimPods(t, s, []simPodWant{
			{pod: "team-a/nominated", state: "Initial", node: "node-04", detail: "forgotten at +100ms", cpu: nominatedCPU, mem: nominatedMem},
			{pod: "team-a/pending-1", state: "Initial", node: "node-06", detail: "forgotten at +100ms", cpu: pending1CPU, mem: pending1Mem},
			hugePod,
		})
		out := mustSimulate(t, "simulate", "--pending", "-A", "--bind", "fail", kc)
		tableRow(t, out, "+100ms", "forget", "team-a/nominated", "node-04", "Assumed→Initial", "550m", "384Mi", "binding", "failed")
		tableRow(t, out, "+100ms", "forget", "team-a/pending-1", "node-06", "Assumed→Initial", "1250m", "3Gi", "binding", "failed")
		if !strings.Contains(out, "\n3 pods simulated (2 Initial, 1 Unschedulable), TTL 0 (never expire), virtual time +0s to +1m0s\n") {
			t.Errorf("summary line missing or wrong:\n%s", out)
		}
	})

	t.Run("simulate-pod-file-node", func(t *testing.T) {
		// --node skips the fit check: a 3500m / 1Gi pod on node-07 (1 cpu,
		// 1Gi) over-commits it; its binding is lost and TTL 0 keeps it.
		podFile := filepath.Join(t.TempDir(), "pod.yaml")
		manifest := `apiVersion: v1
kind: Pod
metadata: {name: candidate, namespace: team-c, uid: 00000000-0000-0000-0000-00000000c0de}
spec:
  containers:
  - name: app
    image: registry.k8s.io/pause:3.10
    resources: {requests: {cpu: 3500m, memory: 1Gi}}
`
		if err := os.WriteFile(podFile, []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
		s := decodeKind[v1alpha1.Simulation](t, "Simulation",
			mustRun(t, "simulate", "--pod-file", podFile, "--node", "node-07", "--bind", "lost", kc, "-o", "json"))
		checkSimNodes(t, s, []simNodeWant{
			{name: "node-07", alloc: simUsage(1000, oneGi, 10), before: simUsage(0, 0, 0), after: simUsage(3500, oneGi, 1)},
		})
		if len(s.Pods) != 1 || s.Pods[0].Name != "candidate" || s.Pods[0].State != "Assumed" || s.Pods[0].Node != "node-07" ||
			s.Pods[0].UID != "00000000-0000-0000-0000-00000000c0de" {
			t.Errorf("--pod-file --node node-07: pods %+v, want candidate Assumed on node-07", s.Pods)
		}
	})

	t.Run("simulate-script", func(t *testing.T) {
		script := writeSimScript(t)
		r := runPlugin(t, nil, "simulate", "--script", script, "--ttl", "30s", kc, "-o", "json")
		if r.code != 0 {
			t.Fatalf("%v", r)
		}
		s := decodeKind[v1alpha1.Simulation](t, "Simulation", r.stdout)
		wantSettings := v1alpha1.SimulationSettings{
			Mode: "script", Start: "2026-01-01T00:00:00Z", TTL: "30s", TTLMillis: 30000, TTLSource: "--ttl",
			End: "31s", EndMillis: 31000,
		}
		if !reflect.DeepEqual(s.Settings, wantSettings) {
			t.Errorf("settings %+v, want %+v", s.Settings, wantSettings)
		}
		refOf := func(name string) string { return uid[name] + "(" + name + ")" }
		// node-04 after nominated's Add: 550m + 500m = 1050m,
		// 384Mi + 512Mi = 896Mi = 939524096, 2 + 1 = 3 pods.
		// node-06 after legacy's removal: 1250m − 1000m = 250m, 3Gi − 2Gi = 1Gi, 1 pod.
		const node04AddedCPU, node04AddedMem = 1050, 939524096
		// node-01 with nominated assumed by hand: 2400m + 500m = 2900m,
		// 1736Mi + 512Mi = 2248Mi.
		const node01AfterCPU, node01AfterMem = 2900, 2357198848
		const node06LeftCPU, node06LeftMem = node06CPU - legacyCPU, node06Mem - legacyMem // 250m, 1Gi
		checkEvents(t, s, []simEv{
			{at: 0, step: 1, event: "assume", pod: "team-a/nominated", node: "node-01", from: "Initial", to: "Assumed",
				cpu: node01AfterCPU, mem: node01AfterMem, pods: node01Pods + 1},
			{at: 0, step: 2, event: "assume", pod: "team-a/nominated", node: "node-04",
				cpu: node04CPU, mem: node04Mem, pods: node04Pods,
				errText: "pod " + refOf("team-a/nominated") + " is in the cache, so can't be assumed"},
			{at: 0, step: 3, event: "add", pod: "team-a/nominated", node: "node-04", from: "Assumed", to: "Added",
				cpu: node04AddedCPU, mem: node04AddedMem, pods: node04Pods + 1, note: "moved: was assumed on node-01"},
			{at: 0, step: 4, event: "forget", pod: "team-a/nominated", node: "node-04",
				cpu: node04AddedCPU, mem: node04AddedMem, pods: node04Pods + 1,
				errText: "pod " + refOf("team-a/nominated") + " wasn't assumed so cannot be forgotten"},
			// node-04 has 2950m left with nominated on it: as in the timeline.
			{at: 0, step: 5, event: "assume", pod: "team-a/pending-1", node: "node-06", from: "Initial", to: "Assumed",
				cpu: node06AfterCPU, mem: node06AfterMem, pods: node06Pods + 1,
				note: "kube-scheduler's choice: score 428, highest of 2 feasible nodes"},
			{at: 0, step: 6, event: "finishBinding", pod: "team-a/pending-1", node: "node-06",
				cpu: node06AfterCPU, mem: node06AfterMem, pods: node06Pods + 1, note: "deadline +30s"},
			{at: 10000, step: 7, event: "advance", cpu: -1, mem: -1, pods: -1, note: "clock +10s"},
			{at: 10000, step: 8, event: "cleanup", cpu: -1, mem: -1, pods: -1, note: "nothing expired: next deadline +30s (team-a/pending-1)"},
			{at: 31000, step: 9, event: "advance", cpu: -1, mem: -1, pods: -1, note: "clock +21s"},
			{at: 31000, step: 10, event: "expire", pod: "team-a/pending-1", node: "node-06", from: "Assumed", to: "Expired",
				cpu: node06CPU, mem: node06Mem, pods: node06Pods, note: "deadline +30s passed: requests freed"},
			{at: 31000, step: 11, event: "remove", pod: "team-b/legacy", node: "node-06", from: "Added", to: "Deleted",
				cpu: node06LeftCPU, mem: node06LeftMem, pods: node06Pods - 1},
			{at: 31000, step: 12, event: "remove", pod: "team-b/legacy", node: "node-06",
				cpu: node06LeftCPU, mem: node06LeftMem, pods: node06Pods - 1,
				errText: "pod " + refOf("team-b/legacy") + " is not found in scheduler cache, so cannot be removed from it"},
		})
		// Input order: node-01, node-04, node-06.
		checkSimNodes(t, s, []simNodeWant{
			{name: "node-01", alloc: alloc01, before: simUsage(node01CPU, node01Mem, node01Pods), after: simUsage(node01CPU, node01Mem, node01Pods)},
			{name: "node-04", alloc: alloc04, before: simUsage(node04CPU, node04Mem, node04Pods), after: simUsage(node04AddedCPU, node04AddedMem, node04Pods+1)},
			{name: "node-06", alloc: alloc06, before: simUsage(node06CPU, node06Mem, node06Pods), after: simUsage(node06LeftCPU, node06LeftMem, node06Pods-1)},
		})
		var states []string
		for _, p := range s.Pods {
			states = append(states, fmt.Sprintf("%s/%s=%s@%s", p.Namespace, p.Name, p.State, p.Node))
		}
		if want := []string{"team-a/nominated=Added@node-04", "team-a/pending-1=Expired@node-06", "team-b/legacy=Deleted@node-06"}; !reflect.DeepEqual(states, want) {
			t.Errorf("script pods %v, want %v", states, want)
		}

		// The table shows the cache's errors verbatim in the ERROR column.
		out := mustRun(t, "simulate", "--script", script, "--ttl", "30s", kc)
		if line := tableRow(t, out, "2", "+0s", "assume", "team-a/nominated", "node-04", "-", "550m", "384Mi"); !strings.Contains(line, "pod "+refOf("team-a/nominated")+" is in the cache, so can't be assumed") {
			t.Errorf("step 2 row lacks the cache's error: %q", line)
		}
		tableRow(t, out, "3", "+0s", "add", "team-a/nominated", "node-04", "Assumed→Added", "1050m", "896Mi")
		tableRow(t, out, "10", "+31s", "expire", "team-a/pending-1", "node-06", "Assumed→Expired", "1250m", "3Gi")
		tableRow(t, out, "node-04", "550m", "1050m", "384Mi", "896Mi", "2", "3")
		tableRow(t, out, "node-06", "1250m", "250m", "3Gi", "1Gi", "2", "1")
	})
}

// mustSimulate runs a simulation of the fixture's pending pods and returns
// its output: pending-huge fits nowhere, so it exits 1, as why does.
func mustSimulate(t *testing.T, args ...string) string {
	t.Helper()
	r := runPlugin(t, nil, args...)
	if r.code != 1 {
		t.Fatalf("want exit 1 (pending-huge stays Unschedulable)\n%v", r)
	}
	return r.stdout
}
