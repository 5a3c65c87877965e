package decide

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/schedcache/kubectl-schedcache/internal/model"
)

// filterNode, with the nominated copies shared between pods, gives every
// pod on every node the status of the framework's own
// RunFilterPluginsWithNominatedPods (v1.36.3), which copies the node each
// time, whether it reads the nominations from the table by position or
// asks by name; the table follows a change of the nominations (a node
// losing its last one included); and an Evaluator sharing the copies gives the verdicts of one that
// does not. The cluster: the generated one of 300 nodes with 40 of its
// pending pods' copies nominated to 20 nodes, two to a node: one of a
// high priority, one of a low priority asking more cpu than any node has;
// the pods: those, the nominated ones (each leaves itself out), a copy of
// a priority below both (rejected by the low one's cpu where the others
// are not), and a copy that must not share a node with it
// (required anti-affinity on the hostname) and one that spreads with it
// over hostnames (maxSkew 1), and one, labelled apart, that must share a
// node with it (required affinity on the hostname): InterPodAffinity's
// and PodTopologySpread's AddPod read the copy. Some pod must have been
// rejected on some node by the pass with the nominated pods alone, some by
// the pass without them alone, and copies must have been served again, or
// the test shows nothing.
func TestNominatedCopiesAreExact(t *testing.T) {
	cl, m, snap := generated(t, 300, 6000)
	names := snap.List()
	var nominated, targets []*v1.Pod
	for i, p := range m.Pending[:40] {
		n := p.DeepCopy()
		n.Name, n.UID = fmt.Sprintf("nominated-%d", i), types.UID(fmt.Sprintf("nominated-%d", i))
		n.Status.NominatedNodeName = names[i%20].Node().Name
		n.Spec.Priority = ptrTo[int32](1_000_000)
		if i >= 20 { // low, and larger than any node
			n.Spec.Priority = ptrTo[int32](-1_000_000)
			n.Spec.Containers[0].Resources.Requests = v1.ResourceList{v1.ResourceCPU: resource.MustParse("1000")}
		}
		nominated = append(nominated, n)
		apart := p.DeepCopy()
		apart.Name, apart.UID = p.Name+"-apart", p.UID+"-apart"
		apart.Spec.Affinity = &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{
			{LabelSelector: &metav1.LabelSelector{MatchLabels: p.Labels}, TopologyKey: v1.LabelHostname}}}}
		spread := p.DeepCopy()
		spread.Name, spread.UID = p.Name+"-spread", p.UID+"-spread"
		spread.Spec.TopologySpreadConstraints = []v1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: v1.LabelHostname,
			WhenUnsatisfiable: v1.DoNotSchedule, LabelSelector: &metav1.LabelSelector{MatchLabels: p.Labels}}}
		together := p.DeepCopy()
		together.Name, together.UID, together.Labels = p.Name+"-together", p.UID+"-together", map[string]string{"together": "yes"}
		together.Spec.Affinity = &v1.Affinity{PodAffinity: &v1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{
			{LabelSelector: &metav1.LabelSelector{MatchLabels: p.Labels}, TopologyKey: v1.LabelHostname}}}}
		lowest := p.DeepCopy()
		lowest.Name, lowest.UID, lowest.Spec.Priority = p.Name+"-lowest", p.UID+"-lowest", ptrTo[int32](-2_000_000)
		targets = append(targets, p, n, apart, spread, together, lowest)
	}
	in := Input{Snapshot: snap, Pending: append(append([]*v1.Pod(nil), m.Pending...), nominated...), Objects: cl.Objects}
	sharing, err := New(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	defer sharing.Close()
	ctx := context.Background()
	compared, byNominated, withoutNominated := 0, 0, 0
	for _, p := range targets {
		c, _ := sharing.newCycle(quiet(ctx), p)
		if c == nil {
			continue
		}
		if _, s, _ := c.fw.RunPreFilterPlugins(ctx, c.state, c.pod); !s.IsSuccess() {
			continue
		}
		c.nominatedAt = sharing.copies.nominatedAt(sharing.nominator, sharing.lister.list)
		for at, ni := range sharing.lister.list {
			want := c.fw.RunFilterPluginsWithNominatedPods(ctx, c.state, c.pod, ni)
			got := c.filterNode(ctx, ni, at)
			if diff := cmp.Diff(statusOf(want), statusOf(got)); diff != "" {
				t.Fatalf("%s on %s: status differs from the framework's (-framework +filterNode):\n%s", p.Name, ni.Node().Name, diff)
			}
			if diff := cmp.Diff(statusOf(want), statusOf(c.filterNode(ctx, ni, -1))); diff != "" {
				t.Fatalf("%s on %s, the nominations asked by name: status differs from the framework's:\n%s", p.Name, ni.Node().Name, diff)
			}
			compared++
			if !got.IsRejected() {
				continue
			}
			if c.fw.RunFilterPlugins(ctx, c.state, c.pod, ni).IsSuccess() {
				byNominated++
			} else if state, with, _ := c.withNominated(ctx, ni, -1); with != nil && c.fw.RunFilterPlugins(ctx, state, c.pod, with).IsSuccess() {
				withoutNominated++
			}
		}
	}
	t.Logf("%d statuses compared, %d rejections with the nominated pods, %d without them only, %d copies served again",
		compared, byNominated, withoutNominated, sharing.copies.hits.Load())
	if byNominated == 0 || withoutNominated == 0 || sharing.copies.hits.Load() == 0 {
		t.Fatal("the test shows nothing: each pass must reject some pod alone, and copies must be served again")
	}
	// The table follows the nominations: one pod fewer on node 0.
	sharing.nominator.DeleteNominatedPodIfExists(nominated[0])
	sharing.nominator.publish()
	if got := sharing.copies.nominatedAt(sharing.nominator, sharing.lister.list)[0]; len(got) != 1 || got[0].GetPod() != nominated[20] {
		t.Fatalf("after %s left, the nominations on node 0 are %v, want %s alone", nominated[0].Name, got, nominated[20].Name)
	}
	// and a node that loses its last nomination has none in the table
	// rewritten in place.
	sharing.nominator.DeleteNominatedPodIfExists(nominated[20])
	sharing.nominator.publish()
	if got := sharing.copies.nominatedAt(sharing.nominator, sharing.lister.list); len(got[0]) != 0 || len(got[1]) != 2 {
		t.Fatalf("with no pod nominated to node 0, the table has %d there and %d on node 1, want 0 and 2", len(got[0]), len(got[1]))
	}
	sharing.nominator.AddNominatedPod(klog.Background(), newPodInfo(nominated[20]), nil)
	sharing.nominator.AddNominatedPod(klog.Background(), newPodInfo(nominated[0]), nil)
	sharing.forget()
	in.withoutSharedResults = true
	each, err := New(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	defer each.Close()
	for _, p := range targets {
		if diff := cmp.Diff(evaluate(t, each, p), evaluate(t, sharing, p)); diff != "" {
			t.Errorf("%s: verdict with shared nominated copies differs (-each +shared):\n%s", p.Name, diff)
		}
	}
	if h := each.copies.hits.Load(); h != 0 {
		t.Errorf("withoutSharedResults served %d copies again", h)
	}
}

// statusOf is what a Filter status says: its code, plugin and reasons.
func statusOf(s *fwk.Status) []string {
	if s == nil {
		return nil
	}
	return append([]string{s.Code().String(), s.Plugin()}, s.Reasons()...)
}

func ptrTo[T any](v T) *T { return &v }

// TestNominatedCopiesAcrossPlacements: copies of nodes with nominated pods
// kept from cycle to cycle (across Refresh, and across SetPending, which
// hands the nominator the same PodInfo per pod object) give the
// placements of an Evaluator that makes every copy anew. Ten of the
// pool's nodes in the generated 300-node cluster hold two nominated pods
// of 250m each (priority 1,000,000); 200 pods of 250m select the pool, two
// of every three of a priority above the nominated ones (the nominated
// pods are not added for them, so they fill those nodes); none preempts.
// Each placement changes a node's NodeInfo, so a copy kept past its
// node's generation lets later pods through where the framework's fresh
// copy rejects them (28 verdicts differ when get ignores the generation);
// copies must have been served again, more often than once a placement.
func TestNominatedCopiesAcrossPlacements(t *testing.T) {
	cl, _, _ := generated(t, 300, 6000)
	pool := cl.Nodes[0].Labels[v1.LabelInstanceTypeStable]
	var nominated []*v1.Pod
	for _, n := range cl.Nodes {
		if n.Labels[v1.LabelInstanceTypeStable] != pool || len(nominated) == 20 {
			continue
		}
		for j := range 2 {
			p := pod(fmt.Sprintf("nominated-%s-%d", n.Name, j)).Priority(1_000_000).Req(cpu("250m")).Obj()
			p.Status.NominatedNodeName = n.Name
			nominated = append(nominated, p)
		}
	}
	var seq []*v1.Pod
	for i := range 200 {
		prio := int32(0)
		if i%3 != 2 {
			prio = 2_000_000
		}
		p := pod(fmt.Sprintf("web-%d", i)).Priority(prio).NodeSelector(map[string]string{v1.LabelInstanceTypeStable: pool}).
			Toleration("dedicated").Req(cpu("250m")).Obj()
		p.Spec.PreemptionPolicy = ptrTo(v1.PreemptNever) // DefaultPreemption picks its candidates from a random offset
		seq = append(seq, p)
	}
	var pending []*v1.Pod
	verdicts, hits, results := placeWithAndWithout(t, cl, seq, "kept nominated copies",
		func(mm *model.Model, without bool) Input {
			pending = append(append([]*v1.Pod(nil), mm.Pending...), nominated...)
			return Input{Pending: pending, Objects: cl.Objects, withoutSharedResults: without}
		},
		func(s *Sequence, i int) {
			if i%2 == 0 {
				s.e.SetPending(pending) // as until-fits does before each placement
			}
		},
		func(s *Sequence) int64 { return s.e.copies.hits.Load() })
	onNominated := 0
	for _, v := range verdicts[1] {
		for _, n := range nominated {
			if v.Node == n.Status.NominatedNodeName {
				onNominated++
				break
			}
		}
	}
	t.Logf("%d nominated pods, %d pods placed: %v, %d on a node with nominated pods; copies served again %d", len(nominated), len(seq), results, onNominated, hits[1])
	if hits[0] != 0 || hits[1] < int64(len(seq)) || results[Scheduled] == 0 || results[Unschedulable] == 0 {
		t.Fatal("the test shows nothing: it needs scheduled and unschedulable pods and copies served again across cycles")
	}
}
