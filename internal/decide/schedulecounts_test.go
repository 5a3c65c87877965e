package decide

import (
	"context"
	"fmt"
	"maps"
	"testing"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// TestScheduleCountsPlacesAsSchedule: the same placements one after
// another (each assumed before the next, as a simulation does) with
// Schedule and with ScheduleCounts give the same node, message, scan and
// OpportunisticBatching hint for every pod: eight identical replicas
// of 1.5 cpu on nodes of 2 (a node that took one cannot take the next, so
// OpportunisticBatching hints the previous cycle's runner-up, v1.36
// batch.go; signatures need a profile without default spreading),
// pods of other shapes between them, one with required anti-affinity to
// the replicas, and one too big for any node. The count-only verdicts
// carry no per-node results, and count the rejected nodes as Schedule's
// per-node results do.
func TestScheduleCountsPlacesAsSchedule(t *testing.T) {
	var ns []*v1.Node
	for i := range 12 {
		ns = append(ns, node(fmt.Sprintf("n%d", i)).Capacity(map[v1.ResourceName]string{
			v1.ResourceCPU: "2", v1.ResourceMemory: fmt.Sprintf("%dGi", 4<<(i%3)), v1.ResourcePods: "110"}).Obj())
	}
	var seq []*v1.Pod
	for i := range 8 {
		seq = append(seq, pod(fmt.Sprintf("web-%d", i)).Label("app", "web").Req(cpu("1500m")).Obj())
		if i%3 == 1 {
			seq = append(seq, pod(fmt.Sprintf("other-%d", i)).Req(cpu(fmt.Sprintf("%dm", 100+50*i))).Obj())
		}
	}
	seq = append(seq,
		pod("lonely").PodAntiAffinityExists("app", v1.LabelHostname, 0).Req(cpu("100m")).Obj(),
		pod("huge").Req(cpu("10")).Obj())
	seq = append(seq, pod("web-8").Label("app", "web").Req(cpu("1500m")).Obj())

	cfg, err := ParseConfig("batching.yaml", []byte(noDefaultSpread))
	if err != nil {
		t.Fatal(err)
	}
	full := placeAll(t, cfg, ns, seq, (*Evaluator).Schedule)
	counts := placeAll(t, cfg, ns, seq, (*Evaluator).ScheduleCounts)
	hints, rejections := 0, 0
	for i, f := range full {
		c := counts[i]
		if f.Result != c.Result || f.Node != c.Node || f.Message != c.Message || f.TakenFirst != c.TakenFirst ||
			f.EvaluatedNodes != c.EvaluatedNodes || f.FeasibleNodes != c.FeasibleNodes {
			t.Errorf("%s: Schedule %s %s %q taken %q (%d/%d), ScheduleCounts %s %s %q taken %q (%d/%d)", seq[i].Name,
				f.Result, f.Node, f.Message, f.TakenFirst, f.FeasibleNodes, f.EvaluatedNodes,
				c.Result, c.Node, c.Message, c.TakenFirst, c.FeasibleNodes, c.EvaluatedNodes)
		}
		if c.Nodes != nil {
			t.Errorf("%s: ScheduleCounts kept %d per-node results", seq[i].Name, len(c.Nodes))
		}
		if want := rejectedBy(f.Nodes); !maps.Equal(want, c.RejectedBy) && len(want)+len(c.RejectedBy) > 0 {
			t.Errorf("%s: ScheduleCounts counted the rejected nodes as %v, Schedule's nodes give %v", seq[i].Name, c.RejectedBy, want)
		}
		rejections += len(c.RejectedBy)
		if f.TakenFirst == "hint" {
			hints++
		}
	}
	if rejections < 2 {
		t.Errorf("%d kinds of rejection counted: the counts are not exercised", rejections)
	}
	if hints == 0 {
		t.Errorf("no placement took OpportunisticBatching's hint: the runners-up are not exercised")
	}
	if last := full[len(full)-2]; last.Result != Unschedulable {
		t.Errorf("huge: %s, want unschedulable", last.Result)
	}
}

// noDefaultSpread leaves PodTopologySpread without default constraints:
// with the system defaults no pod has a signature (SignPod,
// podtopologyspread/plugin.go v1.36), so OpportunisticBatching never hints.
const noDefaultSpread = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: PodTopologySpread
    args:
      defaultingType: List
`

// placeAll places pods in order over a fresh cache of nodes with
// schedule, assuming each scheduled pod before the next cycle.
func placeAll(t *testing.T, cfg *Config, nodes []*v1.Node, pods []*v1.Pod, schedule func(*Evaluator, context.Context, *v1.Pod) (*Verdict, error)) []*Verdict {
	t.Helper()
	c := cache.New(cache.Options{Generations: &cache.GenerationCounter{}})
	for _, n := range nodes {
		c.AddNode(n)
	}
	snap := cache.NewEmptySnapshot()
	if err := c.UpdateSnapshot(snap); err != nil {
		t.Fatal(err)
	}
	e, err := New(context.Background(), Input{Snapshot: snap, Config: cfg, OmitNodes: true, Cycles: len(pods)})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	var out []*Verdict
	for _, p := range pods {
		v, err := schedule(e, context.Background(), p)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		out = append(out, v)
		if v.Result != Scheduled {
			continue
		}
		a := p.DeepCopy()
		a.Spec.NodeName = v.Node
		if err := c.AssumePod(a); err != nil {
			t.Fatal(err)
		}
		if err := c.UpdateSnapshot(snap); err != nil {
			t.Fatal(err)
		}
		e.Refresh(snap)
	}
	return out
}
