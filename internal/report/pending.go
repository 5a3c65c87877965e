package report

import (
	"cmp"
	"slices"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

// resultUnschedulable is a PodDecision's result when no node fits.
const resultUnschedulable = "unschedulable"

// pendingRow is one pending pod and the scheduler's verdict on it.
type pendingRow struct {
	Pod, Result, Node, Preemption string
	// Why is the FailedScheduling message (unschedulable), or the reason
	// the pod is gated or skipped.
	Why string
}

// bar is one Filter plugin of the rejections chart.
type bar struct {
	Plugin string
	Nodes  int
	// Width is the bar's length in the chart's units (chartWidth).
	Width float64
	Y     int
}

// chart is the rejections bar chart: the nodes each plugin rejected,
// summed over the unschedulable pods.
type chart struct {
	Bars          []bar
	Pods          int
	Width, Height int
	LabelWidth    int
}

const (
	chartBarsWidth = 520
	chartRow       = 22
)

// pendingRows are the pending pods' rows, in the words of why's table:
// the same result, node, message and preemption text.
func pendingRows(r *v1alpha1.SchedulingReport) []pendingRow {
	if r == nil {
		return nil
	}
	out := make([]pendingRow, 0, len(r.Pods))
	for i := range r.Pods {
		p := &r.Pods[i]
		row := pendingRow{Pod: p.Pod, Result: p.Result, Node: p.Node, Why: p.Message}
		if p.Preemption != nil {
			row.Preemption = printers.PreemptionText(p.Preemption)
		}
		out = append(out, row)
	}
	return out
}

// rejectionChart sums the decisions' rejectedBy over the unschedulable
// pods (the pods a FailedScheduling event is written for), largest first.
func rejectionChart(r *v1alpha1.SchedulingReport) chart {
	var c chart
	if r == nil {
		return c
	}
	at := map[string]int{}
	for i := range r.Pods {
		p := &r.Pods[i]
		if p.Result != resultUnschedulable {
			continue
		}
		c.Pods++
		for plugin, nodes := range p.RejectedBy {
			i, ok := at[plugin]
			if !ok {
				i = len(c.Bars)
				at[plugin] = i
				c.Bars = append(c.Bars, bar{Plugin: plugin})
			}
			c.Bars[i].Nodes += nodes
		}
	}
	slices.SortStableFunc(c.Bars, func(a, b bar) int {
		return cmp.Or(cmp.Compare(b.Nodes, a.Nodes), cmp.Compare(a.Plugin, b.Plugin))
	})
	longest := 0
	for _, b := range c.Bars {
		longest = max(longest, len(b.Plugin))
	}
	// About 7 px per character of the label font, capped: a long
	// PreFilter reason is cut by the SVG's width, its full text in the
	// bar's title.
	c.LabelWidth = min(max(longest*7+12, 120), 420)
	c.Width = c.LabelWidth + chartBarsWidth + 80
	c.Height = max(len(c.Bars), 1)*chartRow + 8
	for i := range c.Bars {
		if c.Bars[0].Nodes > 0 {
			c.Bars[i].Width = float64(c.Bars[i].Nodes) / float64(c.Bars[0].Nodes) * chartBarsWidth
		}
		c.Bars[i].Y = 4 + i*chartRow
	}
	return c
}
