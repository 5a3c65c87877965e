package pipeline

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func kubeletNodes(versions ...string) []*v1.Node {
	out := make([]*v1.Node, len(versions))
	for i, s := range versions {
		out[i] = &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n"}, Status: v1.NodeStatus{NodeInfo: v1.NodeSystemInfo{KubeletVersion: s}}}
	}
	return out
}

// TestFromKubelets: the version files are modelled as, from the nodes'
// kubeletVersion, and the note said about it.
func TestFromKubelets(t *testing.T) {
	tests := []struct {
		name     string
		versions []string
		minor    int
		note     string
	}{
		{"no versions", []string{"", ""}, 36, ""},
		{"all v1.36", []string{"v1.36.3", "v1.36.1"}, 36,
			"modelling kube-scheduler v1.36, the version of every node's kubelet (v1.36.1 on 1 node, v1.36.3 on 1); --kube-version chooses another"},
		{"all v1.30", []string{"v1.30.2-gke.1587003", "v1.30.2-gke.1587003"}, 30,
			"modelling kube-scheduler v1.30, the version of every node's kubelet (v1.30.2-gke.1587003); --kube-version chooses another"},
		{"two patches of v1.30", []string{"v1.30.1", "v1.30.2", "v1.30.2"}, 30,
			"modelling kube-scheduler v1.30, the version of every node's kubelet (v1.30.1 on 1 node, v1.30.2 on 2); --kube-version chooses another"},
		// The example's upgrade in progress: the control plane is v1.36.
		{"upgrading to v1.36", []string{"v1.36.3", "v1.33.7", "v1.36.3"}, 36,
			"modelling kube-scheduler v1.36, the newest of the nodes' kubelets (v1.33.7 on 1 node, v1.36.3 on 2); --kube-version chooses another"},
		{"upgrading to v1.31", []string{"v1.31.0", "v1.29.4", "v1.29.4"}, 36,
			"modelling kube-scheduler v1.36: the nodes' kubelets differ (v1.29.4 on 2 nodes, v1.31.0 on 1), so the control plane is v1.31 or newer; --kube-version chooses another"},
		{"too old", []string{"v1.16.3"}, 36,
			"modelling kube-scheduler v1.36: every node's kubelet is v1.16.3, outside v1.18 to v1.36; --kube-version chooses another"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := FromKubelets(kubeletNodes(tc.versions...))
			if got.Version.Minor != tc.minor || got.Note != tc.note {
				t.Errorf("got v1.%d %q\nwant v1.%d %q", got.Version.Minor, got.Note, tc.minor, tc.note)
			}
		})
	}
}
