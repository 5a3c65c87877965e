package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
)

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

func pendingRows(verdicts []*decide.Verdict) []pendingRow {
	out := make([]pendingRow, 0, len(verdicts))
	for _, v := range verdicts {
		r := pendingRow{Pod: v.Pod.Namespace + "/" + v.Pod.Name, Result: string(v.Result), Node: v.Node, Why: v.Message}
		if p := v.Preemption; p != nil {
			victims := make([]string, 0, len(p.Victims))
			for _, victim := range p.Victims {
				victims = append(victims, victim.Namespace+"/"+victim.Name)
			}
			r.Preemption = fmt.Sprintf("nominate %s, evict %s", p.NominatedNode, strings.Join(victims, ", "))
		}
		out = append(out, r)
	}
	return out
}

// rejectionChart sums the verdicts' RejectedBy over the unschedulable
// pods (the pods a FailedScheduling event is written for), largest first.
func rejectionChart(verdicts []*decide.Verdict) chart {
	var c chart
	at := map[string]int{}
	for _, v := range verdicts {
		if v.Result != decide.Unschedulable {
			continue
		}
		c.Pods++
		for plugin, nodes := range v.RejectedBy {
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
