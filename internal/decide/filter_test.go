package decide

import (
	"context"
	"fmt"
	"strings"

	"testing"

	v1 "k8s.io/api/core/v1"

	fwk "k8s.io/kube-scheduler/framework"
)

// filterChunk sizes the parallel filter calls: the wanted count first
// (within 64..512), then what the feasible share seen so far says the rest
// needs, plus an eighth, within the same bounds.
func TestFilterChunk(t *testing.T) {
	cases := []struct {
		name                    string
		workers                 int
		want, done, feasible, n int
	}{
		{"first chunk: the wanted count", 2, 500, 0, 0, 500},
		{"first chunk: at most 512", 2, 5000, 0, 0, 512},
		{"first chunk: at least 64", 2, 3, 0, 0, 64},
		{"first chunk: at least 4 per worker", 32, 3, 0, 0, 128},
		// 400 of 500 passed: 100 more at 80% is 125 nodes, + 1/8 + 1.
		{"next: the rest at the share seen", 2, 500, 500, 400, 141},
		{"next: a few missing, at least 64", 2, 500, 512, 490, 64},
		{"next: a low share, at most 512", 2, 500, 500, 10, 512},
		{"next: nothing passed yet", 2, 500, 500, 0, 512},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := &cycle{e: &Evaluator{parallelism: tc.workers}, feasible: make([]fwk.NodeInfo, tc.feasible)}
			if got := c.filterChunk(tc.want, tc.done); got != tc.n {
				t.Errorf("filterChunk(want %d, done %d) with %d feasible = %d, want %d", tc.want, tc.done, tc.feasible, got, tc.n)
			}
		})
	}
}

const noScore = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      disabled:
      - name: "*"
`

// Without Score plugins the scheduler wants one feasible node, but its
// filter scan (findNodesThatPassFilters, v1.36.3, at parallelism 1) goes on
// until a second node passes, and the nodes it rejected on the way count
// as evaluated and move the next cycle's start index. Pod a fits n00 and
// n03 only: the scan takes n00, rejects n01 and n02, and stops at n03, so
// 3 nodes are evaluated and the next cycle starts at n03, where pod b (which
// fits anywhere) goes. Stopping at n00 evaluated 1 node and put b on n01.
func TestFilterScanStopsAtTheExtraFeasibleNode(t *testing.T) {
	cfg, err := ParseConfig("noscore.yaml", []byte(noScore))
	if err != nil {
		t.Fatal(err)
	}
	ns := make([]*v1.Node, 6)
	for i := range ns {
		w := node(fmt.Sprintf("n%02d", i))
		if i == 0 || i == 3 {
			w = w.Label("zone", "a")
		}
		ns[i] = w.Obj()
	}
	a := pod("a").NodeSelector(map[string]string{"zone": "a"}).Obj()
	b := pod("b").Obj()
	e := cluster{nodes: ns, config: cfg}.evaluator(t)

	v := evaluate(t, e, a)
	var got []string
	for _, n := range v.Nodes {
		got = append(got, fmt.Sprintf("%s:%t", n.Name, n.Feasible))
	}
	if v.Node != "n00" || v.EvaluatedNodes != 3 || v.FeasibleNodes != 1 || strings.Join(got, " ") != "n00:true n01:false n02:false" {
		t.Errorf("why a: node %q, evaluated %d, feasible %d, nodes %v; want n00, 3, 1, [n00:true n01:false n02:false]", v.Node, v.EvaluatedNodes, v.FeasibleNodes, got)
	}
	for _, tc := range []struct {
		pod  *v1.Pod
		want string
	}{{a, "n00"}, {b, "n03"}, {b, "n04"}, {a, "n00"}} {
		v, err := e.Schedule(context.Background(), tc.pod)
		if err != nil {
			t.Fatal(err)
		}
		if v.Node != tc.want {
			t.Errorf("schedule %s: %q, want %q", tc.pod.Name, v.Node, tc.want)
		}
	}
}
