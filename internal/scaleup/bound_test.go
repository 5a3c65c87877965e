package scaleup

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// answer is what a scale-up answer says per group: result, count, the
// search's count and every pod's placement at it, the pods least-waste
// counts and its measure; then the choice.
func answer(o *Outcome) []string {
	var out []string
	for _, g := range o.Groups {
		var placed []string
		for _, v := range g.Search.Verdicts {
			placed = append(placed, v.Pod.Name+"="+string(v.Result)+":"+v.Node)
		}
		var onNew []string
		for _, p := range g.Placed {
			onNew = append(onNew, p.Name)
		}
		out = append(out, fmt.Sprintf("%s %s %d search=%d %v new=%v waste=%v/%v", g.Group.Name, g.Result, g.Count, g.Search.Estimate.Count, placed, onNew, g.Waste, g.WasteOK))
	}
	return append(out, fmt.Sprint("chosen ", o.Chosen))
}

// trials are each group's bound and counts tried.
func trials(o *Outcome) map[string]string {
	out := map[string]string{}
	for _, g := range o.Groups {
		var ks []int
		for _, t := range g.Search.Estimate.Trials {
			ks = append(ks, t.Count)
		}
		out[g.Group.Name] = fmt.Sprintf("bound %d, tried %v", g.Search.Estimate.Bound, ks)
	}
	return out
}

func runFixture(t *testing.T, path string, withoutBound bool) *Outcome {
	t.Helper()
	c, err := load.ReadFiles(load.FileOptions{Filenames: []string{path}, Objects: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Build(c, cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := Run(context.Background(), Input{Model: m, Objects: c.Objects, Groups: Templates(c.Nodes, c.Pods, c.Objects), Pods: m.Pending, WithoutBound: withoutBound})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBoundChangesNoAnswer: the search starting at the bound (whatif's
// lowerBound) gives the answer of the search without it (from the guess,
// doubling, bisecting) on every group of the fixtures, pod by pod, with
// fewer placement runs; the fixtures' headers work the counts out by hand.
func TestBoundChangesNoAnswer(t *testing.T) {
	for _, tc := range []struct {
		path string
		// bounded and full are each group's bound and counts tried with
		// and without the bound.
		bounded, full map[string]string
		counts        string
	}{
		{"testdata/mixed.yaml",
			map[string]string{"pool-l": "bound 2, tried [0 2 3]", "pool-m": "bound 4, tried [0 4 5]", "pool-s": "bound 8, tried [0 9 11 10]", "pool-t": "bound 0, tried [0]"},
			map[string]string{"pool-l": "bound 0, tried [0 2 4 3]", "pool-m": "bound 0, tried [0 4 8 7 5]", "pool-s": "bound 0, tried [0 9 13 12 10 11]", "pool-t": "bound 0, tried [0]"},
			"pool-l fits 3, pool-m fits 5, pool-s fits 11, pool-t ruled-out 0, chosen [pool-s]"},
		{"../../pkg/cmd/testdata/fixtures/scaleup.yaml",
			map[string]string{"pool-a": "bound 2, tried [0 2]", "pool-arm": "bound 0, tried [0]", "pool-b": "bound 1, tried [0 1]", "pool-c": "bound 3, tried [0 3]", "pool-s": "bound 0, tried [0]", "pool-t": "bound 0, tried [0]"},
			map[string]string{"pool-a": "bound 0, tried [0 2 1]", "pool-arm": "bound 0, tried [0]", "pool-b": "bound 0, tried [0 1]", "pool-c": "bound 0, tried [0 3 2]", "pool-s": "bound 0, tried [0]", "pool-t": "bound 0, tried [0]"},
			// No Sizes: pool-c has no maximum here, and its 3 nodes waste least
			// (1.5/6 + 9/12 = 1.0 < pool-a's 1.25).
			"pool-a fits 2, pool-arm ruled-out 0, pool-b fits 1, pool-c fits 3, pool-s ruled-out 0, pool-t ruled-out 0, chosen [pool-c]"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			bounded, full := runFixture(t, tc.path, false), runFixture(t, tc.path, true)
			if a, b := answer(bounded), answer(full); !reflect.DeepEqual(a, b) {
				t.Errorf("answers differ:\nwith the bound    %v\nwithout the bound %v", a, b)
			}
			if got := trials(bounded); !reflect.DeepEqual(got, tc.bounded) {
				t.Errorf("with the bound: %v\nwant %v", got, tc.bounded)
			}
			if got := trials(full); !reflect.DeepEqual(got, tc.full) {
				t.Errorf("without the bound: %v\nwant %v", got, tc.full)
			}
			var counts string
			for _, g := range bounded.Groups {
				counts += fmt.Sprintf("%s %s %d, ", g.Group.Name, g.Result, g.Search.Estimate.Count)
			}
			if counts += fmt.Sprint("chosen ", bounded.Chosen); counts != tc.counts {
				t.Errorf("got  %s\nwant %s", counts, tc.counts)
			}
		})
	}
}
