package report

import (
	"slices"
	"testing"
)

// TestLabels: each cell is named by the part of its node's name that
// differs, cut on word boundaries, never empty.
func TestLabels(t *testing.T) {
	for _, tc := range []struct {
		names, want []string
	}{
		{ // GKE: the pool prefix and nothing after
			[]string{"gke-prod-general-pool-1a2b3c4d-xk2p", "gke-prod-general-pool-1a2b3c4d-zz91", "gke-prod-gpu-pool-9f8e7d6c-ab12"},
			[]string{"general-pool-1a2b3c4d-xk2p", "general-pool-1a2b3c4d-zz91", "gpu-pool-9f8e7d6c-ab12"},
		},
		{ // EKS: a common suffix and a common prefix within a word
			[]string{"ip-10-0-1-23.ec2.internal", "ip-10-0-2-7.ec2.internal"},
			[]string{"1-23", "2-7"},
		},
		{ // nothing in common
			[]string{"worker-a-1", "legacy-c-1", "node-gone-1"},
			[]string{"worker-a-1", "legacy-c-1", "node-gone-1"},
		},
		{ // one name is the other's prefix: nothing becomes empty
			[]string{"worker-1", "worker-1-a"},
			[]string{"1", "1-a"},
		},
		{ // a single node keeps its name
			[]string{"gke-prod-general-pool-1a2b3c4d-xk2p"},
			[]string{"gke-prod-general-pool-1a2b3c4d-xk2p"},
		},
	} {
		l := newLabeller(tc.names)
		var got []string
		for _, n := range tc.names {
			got = append(got, l.label(n))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("labels of %q = %q, want %q", tc.names, got, tc.want)
		}
	}
}
