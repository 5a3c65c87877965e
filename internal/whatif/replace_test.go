package whatif

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

func ownedBy(kind string) *v1.Pod {
	p := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "shop", UID: "u1", Labels: map[string]string{"app": "web"}},
		Spec:       v1.PodSpec{NodeName: "n1", Containers: []v1.Container{{Name: "c"}}},
		Status:     v1.PodStatus{Phase: v1.PodRunning, QOSClass: v1.PodQOSBurstable, NominatedNodeName: "n2", HostIP: "10.0.0.1"},
	}
	if kind != "" {
		p.OwnerReferences = []metav1.OwnerReference{{Kind: kind, Name: "owner", Controller: ptr.To(true)}}
	}
	return p
}

func TestRecreationOf(t *testing.T) {
	for kind, want := range map[string]Recreation{
		"ReplicaSet": Recreated, "StatefulSet": Recreated, "Job": Recreated, "ReplicationController": Recreated,
		"DaemonSet": NotMoved, "": NotRecreated, "PyTorchJob": NotRecreated,
	} {
		if got := RecreationOf(ownedBy(kind)); got != want {
			t.Errorf("owner %q: got %s, want %s", kind, got, want)
		}
	}
	// An owner that is not the controller does not recreate the pod.
	p := ownedBy("ReplicaSet")
	p.OwnerReferences[0].Controller = nil
	if got := RecreationOf(p); got != NotRecreated {
		t.Errorf("non-controller owner: got %s", got)
	}
}

func TestReplacement(t *testing.T) {
	p := ownedBy("ReplicaSet")
	p.DeletionTimestamp = &metav1.Time{}
	r := Replacement(p)
	if r.Name != "web-1-replacement" || r.Namespace != "shop" || r.UID != "u1-replacement" {
		t.Errorf("identity: %s/%s %s", r.Namespace, r.Name, r.UID)
	}
	if r.Spec.NodeName != "" || r.Status.NominatedNodeName != "" || r.Status.HostIP != "" || r.DeletionTimestamp != nil {
		t.Errorf("not reset: %+v %+v", r.Spec.NodeName, r.Status)
	}
	if r.Status.Phase != v1.PodPending || r.Status.QOSClass != v1.PodQOSBurstable || r.Labels["app"] != "web" {
		t.Errorf("status/labels: %+v %v", r.Status, r.Labels)
	}
	if p.Spec.NodeName != "n1" || p.Status.NominatedNodeName != "n2" {
		t.Errorf("the original was modified")
	}
	if s := Replacement(ownedBy("StatefulSet")); s.Name != "web-1" {
		t.Errorf("a StatefulSet's replacement keeps its name, got %s", s.Name)
	}
}
