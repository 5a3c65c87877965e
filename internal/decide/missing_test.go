package decide

import (
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
)

func TestMissingObjects(t *testing.T) {
	objs := boundClaim("bound", v1.ReadWriteOnce, nil)
	orphan := objs[0].(*v1.PersistentVolumeClaim).DeepCopy()
	orphan.Name, orphan.Spec.VolumeName = "orphan", "pv-gone"
	unbound := orphan.DeepCopy()
	unbound.Name, unbound.Spec.VolumeName, unbound.Spec.StorageClassName = "unbound", "", ptr.To("fast")
	objs = append(objs, orphan, unbound)
	p := pod("p").PVC("bound").PVC("orphan").PVC("unbound").PVC("gone").Obj()
	p.Spec.ResourceClaims = []v1.PodResourceClaim{{Name: "gpu", ResourceClaimName: ptr.To("gpu-claim")}}
	q := pod("q").PVC("gone").Obj()
	got := strings.Join(MissingObjects([]*v1.Pod{p, q}, objs), "\n")
	want := strings.Join([]string{
		"PersistentVolume pv-gone (used by pod ns/p)",
		"PersistentVolumeClaim ns/gone (used by pod ns/p)",
		"PersistentVolumeClaim ns/gone (used by pod ns/q)",
		"ResourceClaim ns/gpu-claim (used by pod ns/p)",
		"StorageClass fast (used by pod ns/p)",
	}, "\n")
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := MissingObjects([]*v1.Pod{pod("r").PVC("bound").Obj()}, objs); len(got) != 0 {
		t.Errorf("a complete input: %v", got)
	}
	var none []k8sruntime.Object
	if got := MissingObjects([]*v1.Pod{pod("s").Obj()}, none); len(got) != 0 {
		t.Errorf("a pod without claims: %v", got)
	}
}
