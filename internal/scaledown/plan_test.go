package scaledown

import (
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// The greedy set, worked out by hand (kube-scheduler v1.36.3 default
// profile; cluster-autoscaler's planner order):
//
//	n1: 4 CPU, a (1 CPU, ReplicaSet): 25% < 50%, candidate
//	n2: 4 CPU, b (1.5 CPU, ReplicaSet): 37.5%, candidate
//	n3: 4 CPU, c (3 CPU, ReplicaSet): 75%, not under the threshold
//
// n1 first (name order): a fits n2 (2.5 CPU free) and n3 (1 CPU free);
// LeastAllocated and BalancedAllocation both prefer n2 (cpu 62.5% after,
// against 100%): a lands on n2, n1 is removable. n2 next: b (1.5 CPU)
// needs a node; n1 is gone and n3 has 1 CPU free: no place, n2 stays.
// Alone, n2 would go: b fits n1 (3 CPU free).
func TestGreedySetFreesANodeOnlyWithoutAnEarlierOne(t *testing.T) {
	nodes := []*v1.Node{node("n1", "4", nil), node("n2", "4", nil), node("n3", "4", nil)}
	pods := []*v1.Pod{pod("shop", "a", "n1", "1", "ReplicaSet/a"), pod("shop", "b", "n2", "1500m", "ReplicaSet/b"), pod("shop", "c", "n3", "3", "ReplicaSet/c")}
	out := plan(t, nodes, pods, nil, nil)
	if got, want := summary(out), "n1:removable n2:no-place:b n3:not-under-threshold"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := strings.Join(out.Removable, ","); got != "n1" {
		t.Errorf("removable %s, want n1", got)
	}
	n1 := outcomeOf(t, out, "n1")
	if len(n1.Moves) != 1 || n1.Moves[0].Pod.Name != "a" || n1.Moves[0].Node != "n2" {
		t.Errorf("n1 moves %+v, want a to n2", n1.Moves)
	}
	n2 := outcomeOf(t, out, "n2")
	if want := "0/1 nodes are available: 1 Insufficient cpu."; !strings.HasPrefix(n2.Message, want) {
		t.Errorf("n2 message %q, want it to start with %q", n2.Message, want)
	}
	n3 := outcomeOf(t, out, "n3")
	if n3.Utilization.Value != 0.75 || n3.Message != "cpu utilization 75.0% is not below 50.0%" {
		t.Errorf("n3 utilization %v, message %q", n3.Utilization.Value, n3.Message)
	}

	alone := plan(t, nodes, pods, nil, func(in *Input) { in.Nodes = []string{"n2"} })
	if got, want := summary(alone), "n2:removable"; got != want {
		t.Errorf("n2 alone: got %s, want %s", got, want)
	}
	if m := outcomeOf(t, alone, "n2").Moves; len(m) != 1 || m[0].Node != "n1" {
		t.Errorf("n2 alone: moves %+v, want b to n1", m)
	}
}

// Budgets are consumed across the set (cluster-autoscaler's remaining PDB
// tracking): web-pdb allows 1 disruption; n1's web-1 takes it, so n2's
// web-2 is blocked. n3 (4 CPU, empty) receives the pods.
func TestBudgetAllowancesAreConsumedAcrossNodes(t *testing.T) {
	nodes := []*v1.Node{node("n1", "4", nil), node("n2", "4", nil), node("n3", "4", nil)}
	web1, web2 := pod("shop", "web-1", "n1", "1", "ReplicaSet/web"), pod("shop", "web-2", "n2", "1", "ReplicaSet/web")
	web1.Labels["app"], web2.Labels["app"] = "web", "web"
	out := plan(t, nodes, []*v1.Pod{web1, web2}, []runtime.Object{pdb("shop", "web-pdb", "web", 1)},
		func(in *Input) { in.Nodes = []string{"n1", "n2"} })
	if got, want := summary(out), "n1:removable n2:blocked:web-2:NotEnoughPdb"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got, want := outcomeOf(t, out, "n2").Message, "PodDisruptionBudget shop/web-pdb allows 0 more disruptions, 1 pod to move"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
}

// Empty nodes come first (processors/scaledowncandidates/emptycandidates):
// n9 holds only a DaemonSet pod, so it is examined before n1. With a pool
// of 1 non-empty candidate, n1 is examined and n2 is not.
func TestEmptyNodesFirstAndThePoolBound(t *testing.T) {
	nodes := []*v1.Node{node("n1", "4", nil), node("n2", "4", nil), node("n9", "4", nil), node("big", "16", nil)}
	pods := []*v1.Pod{pod("shop", "a", "n1", "1", "ReplicaSet/a"), pod("shop", "b", "n2", "1", "ReplicaSet/b"),
		pod("kube-system", "agent", "n9", "100m", "DaemonSet/agent"), pod("shop", "c", "big", "9", "ReplicaSet/c")}
	out := plan(t, nodes, pods, nil, func(in *Input) { in.Options.PoolRatio, in.Options.PoolMinCount = 0, 1 })
	if got, want := summary(out), "n9:removable n1:removable n2:not-examined big:not-under-threshold"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if out.Pool != 1 || out.Candidates != 3 || out.Examined != 2 || out.NotExamined != 1 {
		t.Errorf("pool %d candidates %d examined %d not examined %d, want 1 3 2 1", out.Pool, out.Candidates, out.Examined, out.NotExamined)
	}
	if got := strings.Join(out.Removable, ","); got != "n9,n1" {
		t.Errorf("removal order %s, want n9,n1", got)
	}
}

// The time budget: the clock moves 20 s per reading; the budget of 30 s is
// read before each non-empty candidate: start 0, n1 at 20 s (examined),
// n2 at 40 s (not examined).
func TestTimeBudget(t *testing.T) {
	nodes := []*v1.Node{node("n1", "4", nil), node("n2", "4", nil), node("big", "16", nil)}
	pods := []*v1.Pod{pod("shop", "a", "n1", "1", "ReplicaSet/a"), pod("shop", "b", "n2", "1", "ReplicaSet/b"), pod("shop", "c", "big", "9", "ReplicaSet/c")}
	var now time.Time
	out := plan(t, nodes, pods, nil, func(in *Input) {
		in.Clock = func() time.Time { now = now.Add(20 * time.Second); return now }
	})
	if got, want := summary(out), "n1:removable n2:not-examined big:not-under-threshold"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if !out.TimedOut || outcomeOf(t, out, "n2").Message != "the simulation time budget (30s) ran out" {
		t.Errorf("timed out %v, message %q", out.TimedOut, outcomeOf(t, out, "n2").Message)
	}
}

// Node groups and their minimum: pool-a has 2 nodes and a minimum of 1
// (status ConfigMap, YAML form): n1 goes, n2 would leave 0.
func TestGroupMinimumSize(t *testing.T) {
	pool := map[string]string{"cloud.google.com/gke-nodepool": "pool-a"}
	nodes := []*v1.Node{node("n1", "4", pool), node("n2", "4", pool), node("big", "16", map[string]string{v1.LabelInstanceTypeStable: "m5.4xlarge"})}
	pods := []*v1.Pod{pod("shop", "a", "n1", "1", "ReplicaSet/a"), pod("shop", "b", "n2", "1", "ReplicaSet/b"), pod("shop", "c", "big", "9", "ReplicaSet/c")}
	cm := &v1.ConfigMap{Data: map[string]string{"status": "nodeGroups:\n- name: https://x/instanceGroups/gke-c-pool-a-1a2b-grp\n  health:\n    minSize: 1\n    maxSize: 5\n"}}
	sizes, err := ParseStatus(cm)
	if err != nil || len(sizes) != 1 || sizes[0].Min != 1 || sizes[0].Max != 5 || sizes[0].Target != -1 {
		t.Fatalf("ParseStatus: %+v, %v", sizes, err)
	}
	out := plan(t, nodes, pods, nil, func(in *Input) { in.Sizes = sizes })
	if got, want := summary(out), "n1:removable n2:min-size-reached big:not-under-threshold"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := outcomeOf(t, out, "big").Group; got != "m5.4xlarge" {
		t.Errorf("big's group %q, want its instance type", got)
	}
}

func TestParseStatusLegacyText(t *testing.T) {
	cm := &v1.ConfigMap{Data: map[string]string{"status": "Cluster-autoscaler status at 2024-01-01:\nNodeGroups:\n  Name:        eks-pool-a-1234\n  Health:      Healthy (ready=2 unready=0 notStarted=0 longNotStarted=0 registered=2 longUnregistered=0 cloudProviderTarget=2 (minSize=2, maxSize=6))\n"}}
	sizes, err := ParseStatus(cm)
	if err != nil || len(sizes) != 1 || sizes[0] != (GroupSize{Name: "eks-pool-a-1234", Min: 2, Max: 6, Target: 2}) {
		t.Fatalf("got %+v, %v", sizes, err)
	}
	// Without cloudProviderTarget the target is unknown (-1); the YAML
	// form's cloudProviderTarget is read (clusterstate/api).
	cm.Data["status"] = "Cluster-autoscaler status at 2024-01-01:\nNodeGroups:\n  Name:        eks-pool-a-1234\n  Health:      Healthy (ready=2 (minSize=2, maxSize=6))\n"
	if got, err := ParseStatus(cm); err != nil || got[0].Target != -1 || got[0].Max != 6 {
		t.Errorf("legacy without target: %+v, %v", got, err)
	}
	cm.Data["status"] = "nodeGroups:\n- name: pool-a\n  health: {cloudProviderTarget: 3, minSize: 1, maxSize: 4}\n"
	if got, err := ParseStatus(cm); err != nil || got[0] != (GroupSize{Name: "pool-a", Min: 1, Max: 4, Target: 3}) {
		t.Errorf("yaml with target: %+v, %v", got, err)
	}
	// By whole parts between "-": pool-a is one, pool-b and ool-a are not.
	if SizeOf("pool-a", sizes) == nil || SizeOf("pool-b", sizes) != nil || SizeOf("ool-a", sizes) != nil {
		t.Errorf("sizeOf matches by whole parts")
	}
}

func TestDisabledAnnotation(t *testing.T) {
	n1 := node("n1", "4", nil)
	n1.Annotations = map[string]string{ScaleDownDisabledAnnotation: "true"}
	out := plan(t, []*v1.Node{n1, node("n2", "4", nil)}, nil, nil, nil)
	if got, want := summary(out), "n2:removable n1:scale-down-disabled"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// Identical pods on two candidates are decided by a cycle each: web pods
// take hostPort 8080 on n1, n2 and n3 (75% used, no candidate). n1's web-1
// finds no place (n2, n3 and n5, whose DaemonSet pod agent stays, hold
// the port: NodePorts); n2's web-2 is the same pod but for its name and
// finds none either, with the same message (n1 is back, n2 gone: the same
// count of nodes holding the port); n2 is put back and n5's pod s
// (nodeSelector zone=b) fits n2 alone, so n5 is removable. Three cycles.
func TestIdenticalPodsWithoutPlace(t *testing.T) {
	nodes := []*v1.Node{node("n1", "4", nil), node("n2", "4", map[string]string{"zone": "b"}), node("n3", "4", nil), node("n5", "4", nil)}
	s := pod("shop", "s", "n5", "100m", "ReplicaSet/s")
	s.Spec.NodeSelector = map[string]string{"zone": "b"}
	web := func(name, node string) *v1.Pod {
		p := pod("shop", name, node, "1", "ReplicaSet/web")
		p.Labels = map[string]string{"app": "web"}
		p.Spec.Containers[0].Ports = []v1.ContainerPort{{ContainerPort: 8080, HostPort: 8080, Protocol: v1.ProtocolTCP}}
		return p
	}
	agent := pod("kube-system", "agent", "n5", "1", "DaemonSet/agent")
	agent.Spec.Containers[0].Ports = []v1.ContainerPort{{ContainerPort: 8080, HostPort: 8080, Protocol: v1.ProtocolTCP}}
	pods := []*v1.Pod{web("web-1", "n1"), web("web-2", "n2"), web("web-3", "n3"), pod("shop", "c", "n3", "2", "ReplicaSet/c"), s, agent}
	out := plan(t, nodes, pods, nil, nil)
	if got, want := summary(out), "n1:no-place:web-1 n2:no-place:web-2 n5:removable n3:not-under-threshold"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if out.Cycles != 3 {
		t.Errorf("cycles %d, want 3", out.Cycles)
	}
	want := "0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports."
	for _, n := range []string{"n1", "n2"} {
		if got := outcomeOf(t, out, n).Message; !strings.HasPrefix(got, want) {
			t.Errorf("%s: message %q, want it to start with %q", n, got, want)
		}
	}
}

// A pod moved onto a candidate moves again with it: n1's a (1 cpu) lands
// on n2 (1.5 of 4 cpu after, against 5.5 of 8 on n3); n2's b (500m) and a
// then go to n3, the only node left (4.5 + 1.5 = 6 of 8 cpu). Both moves
// of n2 name the pods of the input.
func TestMovedPodsMoveAgain(t *testing.T) {
	nodes := []*v1.Node{node("n1", "4", nil), node("n2", "4", nil), node("n3", "8", nil)}
	pods := []*v1.Pod{pod("shop", "a", "n1", "1", "ReplicaSet/a"), pod("shop", "b", "n2", "500m", "ReplicaSet/b"), pod("shop", "c", "n3", "4500m", "ReplicaSet/c")}
	out := plan(t, nodes, pods, nil, nil)
	if got, want := summary(out), "n1:removable n2:removable n3:not-under-threshold"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	var moves []string
	for _, m := range outcomeOf(t, out, "n2").Moves {
		moves = append(moves, m.Pod.Name+"->"+m.Node)
	}
	if got, want := strings.Join(moves, " "), "a->n3 b->n3"; got != want {
		t.Errorf("n2's moves %s, want %s", got, want)
	}
}

// The first pod in the scheduling queue's order to find no place is the
// answer, even when a later pod belongs to a class that found no place
// before: web pods take hostPort 8080 on n1, n2 and n3; n1's web-1 finds
// no place (NodePorts on n2 and n3). n2 (10 cpu: 1 + 3.5 = 45% used)
// holds web-2, the same pod as web-1 but for its name, and a/big
// (3.5 cpu), which comes first in the queue (equal priority, no
// creationTimestamp: the listing order, namespace "a" before "shop"). At
// its turn big finds n1 with 3 cpu free and n3 with 1: "2 Insufficient
// cpu", so big, not web-2, keeps n2 (kube-scheduler never gets to web-2).
func TestFirstPodWithoutPlaceIsTheAnswer(t *testing.T) {
	n2 := node("n2", "10", nil)
	web := func(name, node string) *v1.Pod {
		p := pod("shop", name, node, "1", "ReplicaSet/web")
		p.Labels = map[string]string{"app": "web"}
		p.Spec.Containers[0].Ports = []v1.ContainerPort{{ContainerPort: 8080, HostPort: 8080, Protocol: v1.ProtocolTCP}}
		return p
	}
	pods := []*v1.Pod{web("web-1", "n1"), web("web-2", "n2"), web("web-3", "n3"), pod("shop", "c", "n3", "2", "ReplicaSet/c"), pod("a", "big", "n2", "3500m", "ReplicaSet/big")}
	out := plan(t, []*v1.Node{node("n1", "4", nil), n2, node("n3", "4", nil)}, pods, nil, nil)
	if got, want := summary(out), "n1:no-place:web-1 n2:no-place:big n3:not-under-threshold"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	want := "0/2 nodes are available: 2 Insufficient cpu."
	if got := outcomeOf(t, out, "n2").Message; !strings.HasPrefix(got, want) {
		t.Errorf("n2: message %q, want it to start with %q", got, want)
	}
}
