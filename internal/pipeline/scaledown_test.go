package pipeline

import (
	"context"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/scaledown"
)

// TestGroupSizesFromFiles: with -f, cluster-autoscaler's status ConfigMap
// (kube-system/cluster-autoscaler-status) is read from the files'
// objects; another namespace's is not its; one without a "status" key
// leaves the sizes unknown with one note, as data.
func TestGroupSizesFromFiles(t *testing.T) {
	status := func(ns string, data map[string]string) *v1.ConfigMap {
		return &v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: scaledown.StatusConfigMap}, Data: data}
	}
	in := func(objects ...runtime.Object) *Input {
		return &Input{Cluster: &load.Cluster{Objects: objects}, source: Source{Files: []string{"cluster.yaml"}}}
	}
	var notes Notes
	got := groupSizes(context.Background(), in(status("kube-system", map[string]string{"status": "nodeGroups:\n- name: pool-a\n  health: {minSize: 1, maxSize: 4}\n"})), &notes, "minimum")
	if len(got) != 1 || got[0].Name != "pool-a" || got[0].Min != 1 || got[0].Max != 4 || len(notes.List()) != 0 {
		t.Errorf("kube-system status: sizes %+v, notes %v", got, notes.Lines())
	}
	if got := groupSizes(context.Background(), in(status("default", map[string]string{"status": "nodeGroups:\n- name: pool-b\n  health: {minSize: 1, maxSize: 4}\n"})), &notes, "minimum"); got != nil {
		t.Errorf("another namespace's ConfigMap read: %+v", got)
	}
	if got := groupSizes(context.Background(), in(status("kube-system", map[string]string{})), &notes, "minimum"); got != nil {
		t.Errorf("no status key: sizes %+v, want none", got)
	}
	want := `note: configmap kube-system/cluster-autoscaler-status has no "status" key: node groups' minimum sizes unknown`
	if lines := notes.Lines(); len(lines) != 1 || lines[0] != want {
		t.Errorf("notes %q, want %q", lines, want)
	}
	// Scale-up needs the maximum sizes, and says so.
	var upNotes Notes
	groupSizes(context.Background(), in(status("kube-system", map[string]string{})), &upNotes, "maximum")
	want = `note: configmap kube-system/cluster-autoscaler-status has no "status" key: node groups' maximum sizes unknown`
	if lines := upNotes.Lines(); len(lines) != 1 || lines[0] != want {
		t.Errorf("scale-up notes %q, want %q", lines, want)
	}
}
