package cmd

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// exampleNode is one row of the hand-computed reference table in
// examples/README.md: pods, Requested (milliCPU, bytes), scalar requests and
// NonZeroRequested, worked out by hand from the v1.36 algorithm and
// cross-checked by an independent script, never by this program.
type exampleNode struct {
	Pods         int
	CPU, Mem     int64
	Eph          int64
	Scalars      map[string]int64
	NZCPU, NZMem int64
}

var exampleReference = map[string]exampleNode{
	"gpu-b-1":       {6, 45100, 180441055232, 0, map[string]int64{"nvidia.com/gpu": 3}, 45300, 181017772032},
	"hugepages-c-1": {4, 2600, 1663041536, 0, map[string]int64{"hugepages-2Mi": 805306368}, 2700, 2030043136},
	"infra-a-1":     {7, 4960, 21252538368, 0, nil, 5060, 21619539968},
	"legacy-c-1":    {3, 400, 857735168, 0, nil, 500, 1224736768},
	"small-b-1":     {8, 425, 652214272, 0, nil, 525, 1019215872},
	"worker-a-1":    {7, 3300, 8233418752, 0, nil, 3400, 8600420352},
	"worker-a-2":    {7, 3400, 4689231872, 0, nil, 3500, 5475663872},
	"worker-a-3":    {4, 2950, 6620708864, 0, nil, 3050, 7197425664},
	"worker-b-1":    {7, 4100, 4911529984, 21474836480, nil, 4200, 5278531584},
	"worker-b-2":    {4, 1400, 4884267008, 0, nil, 1500, 5251268608},
	"worker-c-1":    {7, 2250, 3212836864, 0, nil, 2350, 3579838464},
	"worker-c-2":    {6, 1250, 2401239040, 0, nil, 1450, 2977955840},
	"node-gone-1":   {1, 200, 268435456, 0, nil, 200, 268435456},
}

// TestExampleMatchesHandComputation checks every node of the shipped example
// against the hand-computed reference.
func TestExampleMatchesHandComputation(t *testing.T) {
	r := run(t, "", "dump", "-f", example, "-o", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var d v1alpha1.CacheDump
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
		t.Fatal(err)
	}
	got := map[string]exampleNode{}
	for _, n := range d.Nodes {
		scalars := map[string]int64{}
		for k, v := range n.Requested.ScalarResources {
			if v != 0 {
				scalars[k] = v
			}
		}
		if len(scalars) == 0 {
			scalars = nil
		}
		got[n.Name] = exampleNode{len(n.Pods), n.Requested.MilliCPU, n.Requested.Memory, n.Requested.EphemeralStorage,
			scalars, n.NonZeroRequested.MilliCPU, n.NonZeroRequested.Memory}
	}
	if diff := cmp.Diff(exampleReference, got); diff != "" {
		t.Errorf("example cluster vs hand computation (-want,+got):\n%s", diff)
	}
	if d.Summary.Pods != 71 || d.Summary.PendingPods != 4 || d.Summary.Placeholders != 1 {
		t.Errorf("summary %+v, want 71 pods, 4 pending, 1 placeholder", d.Summary)
	}
}

// TestExamplePendingFit checks requested --pod against the hand analysis of
// the example's pending pods in examples/README.md.
func TestExamplePendingFit(t *testing.T) {
	tests := []struct {
		pod  string
		code int
		fits []string
	}{
		{"reports/pdf-renderer-7b6c5d9f8-zm3qp", 0, []string{"gpu-b-1", "hugepages-c-1", "infra-a-1", "legacy-c-1",
			"worker-a-1", "worker-a-2", "worker-a-3", "worker-b-2", "worker-c-1", "worker-c-2"}},
		{"ml/llama-finetune-worker-0", 1, nil},
		{"analytics/trino-coordinator-6d9c7b8f5-kq4wz", 1, nil},
		{"shop/fraud-scorer-6c7d8b9f5-p5lzn", 1, nil},
	}
	for _, tc := range tests {
		t.Run(tc.pod, func(t *testing.T) {
			r := run(t, "", "requested", "-f", example, "--pod", tc.pod, "-o", "json")
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d: %s", r.code, tc.code, r.stderr)
			}
			var rep v1alpha1.RequestedReport
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
				t.Fatal(err)
			}
			var fits []string
			for _, n := range rep.Nodes {
				if n.Fit != nil && n.Fit.Fits {
					fits = append(fits, n.Name)
				}
			}
			if diff := cmp.Diff(tc.fits, fits); diff != "" {
				t.Errorf("nodes the pod fits (-want,+got):\n%s", diff)
			}
		})
	}
}
