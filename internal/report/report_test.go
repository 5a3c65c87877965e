package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// TestBucket: tenths of allocatable, 100% exactly, overcommitted, nothing
// allocatable; byte counts near the int64 limit do not overflow.
func TestBucket(t *testing.T) {
	for _, c := range []struct {
		req, alloc int64
		want       int
	}{
		{0, 0, bucketNone}, {0, 4000, 0}, {399, 4000, 0}, {400, 4000, 1}, {3300, 3920, 8}, {3919, 3920, 9},
		{3920, 3920, bucketFull}, {4100, 3920, bucketOver}, {200, 0, bucketOver},
		{1 << 62, 1<<62 + 1<<61, 6},
	} {
		if got := bucket(c.req, c.alloc); got != c.want {
			t.Errorf("bucket(%d, %d) = %d, want %d", c.req, c.alloc, got, c.want)
		}
	}
}

func pod(ns, name string) *v1.Pod {
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}

// TestRejectionChart sums the unschedulable pods' rejections per plugin,
// largest first (ties by name); scheduled pods do not count.
func TestRejectionChart(t *testing.T) {
	pending := &v1alpha1.SchedulingReport{Pods: []v1alpha1.PodDecision{
		{Pod: "a/1", Result: "unschedulable", RejectedBy: map[string]int{"NodeResourcesFit": 3, "TaintToleration": 2}},
		{Pod: "a/2", Result: "scheduled", RejectedBy: map[string]int{"NodeAffinity": 50}},
		{Pod: "a/3", Result: "unschedulable", RejectedBy: map[string]int{"TaintToleration": 2, "NodeAffinity": 4}},
	}}
	c := rejectionChart(pending)
	var got []string
	for _, b := range c.Bars {
		got = append(got, b.Plugin+"="+strings.Repeat("#", b.Nodes))
	}
	want := []string{"NodeAffinity=####", "TaintToleration=####", "NodeResourcesFit=###"}
	if diff := cmp.Diff(want, got); diff != "" || c.Pods != 2 {
		t.Errorf("bars (-want +got):\n%s; pods %d, want 2", diff, c.Pods)
	}
	if c.Bars[0].Width != chartBarsWidth || c.Bars[2].Width != chartBarsWidth*3/4 {
		t.Errorf("widths %v, %v; want the largest at full width, 3/4 of it for 3 of 4", c.Bars[0].Width, c.Bars[2].Width)
	}
}

// hostile is a name no API server would accept but a file may hold: every
// input string must reach the page as text, never as markup.
const hostile = `x"><img src=q onerror=alert(1)><script>alert(2)</script>&'`

func hostileInput() *Input {
	row := v1alpha1.NodeRequested{Name: hostile, Pods: 1,
		Requested:   v1alpha1.Resource{MilliCPU: 500, ScalarResources: map[string]int64{hostile: 1}},
		Allocatable: v1alpha1.Resource{MilliCPU: 1000, AllowedPodNumber: 110, ScalarResources: map[string]int64{hostile: 2}}}
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: hostile}, Spec: v1.NodeSpec{Unschedulable: true,
		Taints: []v1.Taint{{Key: hostile, Value: hostile, Effect: v1.TaintEffectNoSchedule}}}}
	p := pod(hostile, hostile)
	return &Input{
		Source: hostile, Generated: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Version: "v1.36", Decisions: "v1.36", Config: hostile,
		Summary:   v1alpha1.DumpSummary{Nodes: 1, Pods: 1, PendingPods: 1},
		Requested: &v1alpha1.RequestedReport{Nodes: []v1alpha1.NodeRequested{row}, Resources: []string{"cpu", "memory", "ephemeral-storage", "pods", hostile}},
		Nodes:     []*v1.Node{node},
		Order: &v1alpha1.NodeOrder{NumNodes: 1, Order: []v1alpha1.NodeSlot{{Index: 1, Node: hostile, Zone: hostile, Round: 1}},
			Cycles: []v1alpha1.CycleScan{{Cycle: 1, NumToFind: 1, Nodes: []string{hostile}}}},
		Pending: &v1alpha1.SchedulingReport{Pods: []v1alpha1.PodDecision{{Pod: p.Namespace + "/" + p.Name, Result: "unschedulable", Message: hostile,
			Preemption: &v1alpha1.PreemptionDecision{NominatedNode: hostile, Victims: []string{p.Namespace + "/" + p.Name}},
			RejectedBy: map[string]int{hostile: 1}}}},
		Warnings: []string{"warning: " + hostile},
	}
}

// TestWriteEscapes: the page of an input made of hostile names holds no
// element, attribute or script from them; each shows as escaped text.
func TestWriteEscapes(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, hostileInput()); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []string{"<img", "<script>alert", `x"><`, `x"`} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q from an input string", bad)
		}
	}
	if n := strings.Count(page, "&lt;img src=q onerror=alert(1)&gt;"); n < 10 {
		t.Errorf("the hostile name shows escaped %d times, want it in the header, grid, pending rows, chart, order and table", n)
	}
	if n := strings.Count(page, "<script>"); n != 1 {
		t.Errorf("%d <script> elements, want the page's own one", n)
	}
}

// TestWriteCells: one grid cell and one table row per NodeInfo, the cell
// coloured per resource by index only, the marks of a cordoned, tainted
// node; a big grid for a small cluster.
func TestWriteCells(t *testing.T) {
	in := hostileInput()
	d := begin(in)
	d.Zones = zonesOf(in.Requested, in.Order, factsOf(in.Nodes, in.ScaleDown), d.Resources, d.Big)
	d.Table = tableRows(in.Requested, in.Order, d.Resources)
	if len(d.Zones) != 1 || len(d.Zones[0].Nodes) != 1 || len(d.Table) != 1 || !d.Big {
		t.Fatalf("zones %d, table rows %d, big %v; want one zone of one node, one row, a big grid", len(d.Zones), len(d.Table), d.Big)
	}
	c := d.Zones[0].Nodes[0]
	// cpu 50% (bucket 5), memory, ephemeral-storage none, pods 1/110, the
	// extended resource 1 of 2.
	if want := "c r0b5 r1b12 r2b12 r3b0 r4b5 cord taint"; c.Classes != want {
		t.Errorf("classes %q, want %q", c.Classes, want)
	}
	if want := []string{"50%", "0%", "0%", "0%", "50%"}; !cmp.Equal(c.Percents, want) {
		t.Errorf("percents %v, want %v", c.Percents, want)
	}
	if d.Table[0].Cells[1].Text != "-" || d.Table[0].Cells[3].Text != "1/110 (0%)" {
		t.Errorf("table memory %q, pods %q; want - (none of it), 1/110 (0%%)", d.Table[0].Cells[1].Text, d.Table[0].Cells[3].Text)
	}
}

// TestWriteNoUnschedulablePod: pending pods that all schedule get no
// rejection chart heading (it would sum over 0 pods), and an empty WHY
// reads <none>, as why's MESSAGE column does.
func TestWriteNoUnschedulablePod(t *testing.T) {
	in := hostileInput()
	in.Pending.Pods = []v1alpha1.PodDecision{{Pod: "default/web", Result: "scheduled", Node: "n1"}}
	var b bytes.Buffer
	if err := Write(&b, in); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if strings.Contains(page, "Nodes rejected by each Filter plugin") {
		t.Error("the page has the rejection chart's heading with no unschedulable pod")
	}
	if !strings.Contains(page, "No pod is unschedulable.") {
		t.Error("the page does not say that no pod is unschedulable")
	}
	if want := `<td class="why">&lt;none&gt;</td>`; !strings.Contains(page, want) {
		t.Errorf("the scheduled pod's WHY cell is not %s", want)
	}
}
