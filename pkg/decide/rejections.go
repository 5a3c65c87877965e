package decide

// Rejection is how many nodes one Filter (or PreFilter) plugin rejected in a
// pod's scheduling cycle: the per-plugin breakdown behind the counts of the
// FailedScheduling message ("0/N nodes are available: ...").
type Rejection struct {
	// Plugin is the plugin whose status the node got: the first Filter
	// plugin that failed on it (kube-scheduler v1.36's RunFilterPlugins
	// stops at the first failure), or the PreFilter plugin that rejected
	// every node. Nodes left out by a PreFilter's node subset carry no
	// plugin: Plugin is then that status's reason ("node(s) didn't satisfy
	// plugin(s) [...]"), as the message prints it.
	Plugin string
	// Nodes is the number of nodes with that status.
	Nodes int
}

// countRejections sums nodes' rejections per plugin, in the order each
// plugin first appears in nodes (the scheduler's evaluation order).
func countRejections(nodes []NodeResult) []Rejection {
	var out []Rejection
	at := map[string]int{}
	for _, n := range nodes {
		if n.Feasible {
			continue
		}
		key := n.Plugin
		if key == "" && len(n.Reasons) > 0 {
			key = n.Reasons[0]
		}
		i, ok := at[key]
		if !ok {
			i = len(out)
			at[key] = i
			out = append(out, Rejection{Plugin: key})
		}
		out[i].Nodes++
	}
	return out
}
