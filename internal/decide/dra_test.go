package decide

import (
	"runtime"
	"testing"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	st "k8s.io/kubernetes/pkg/scheduler/testing"
)

// TestDRAClaimsLoadedBeforeFirstCycle: a pod whose ResourceClaim is in the
// input gets a cycle (DynamicResources' PreEnqueue finds the claim) and is
// placed on the only node whose ResourceSlice has a device of the claim's
// class. The claim cache and the slice tracker are filled by informer event
// handlers on their own goroutines; kube-scheduler waits for those handlers
// (WaitForHandlersSync, v1.36.3) before its first cycle. On one CPU the
// handlers had not run yet when New returned, and the pod came out gated
// ("could not find ResourceClaim"), so the test runs under GOMAXPROCS=1,
// many times.
func TestDRAClaimsLoadedBeforeFirstCycle(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	class := &resourceapi.DeviceClass{ObjectMeta: metav1.ObjectMeta{Name: "gpu"}}
	slice := st.MakeResourceSlice("n2", "gpu.example.com").Devices("gpu-0").Obj()
	claim := st.MakeResourceClaim().Namespace(testNS).Name("claim").UID("claim-uid").Request("gpu").Obj()
	p := pod("p").PodResourceClaims(v1.PodResourceClaim{Name: "gpu", ResourceClaimName: ptr.To("claim")}).Obj()
	c := cluster{
		nodes:   nodes(node("n1"), node("n2"), node("n3")),
		objects: []k8sruntime.Object{class, slice, claim},
	}
	for i := range 20 {
		v := evaluate(t, c.evaluator(t), p)
		if v.Result != Scheduled || v.Node != "n2" {
			t.Fatalf("run %d: %s %q on %q, want scheduled on n2", i, v.Result, v.Message, v.Node)
		}
	}
}

// TestDRAExtendedResourceByDeviceClass: with DRAExtendedResource on (the
// v1.36 default), a pod asking for an extended resource that no node
// advertises but a DeviceClass names (spec.extendedResourceName) is placed
// by DynamicResources on a node with a matching device. kube-scheduler
// learns that mapping from a handler on the DeviceClass informer
// (eventhandlers.go, v1.36.3); without it every node fails
// NodeResourcesFit with "Insufficient example.com/gpu".
func TestDRAExtendedResourceByDeviceClass(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	class := &resourceapi.DeviceClass{
		ObjectMeta: metav1.ObjectMeta{Name: "gpu"},
		Spec:       resourceapi.DeviceClassSpec{ExtendedResourceName: ptr.To("example.com/gpu")},
	}
	slice := st.MakeResourceSlice("n2", "gpu.example.com").Devices("gpu-0").Obj()
	p := pod("p").Req(map[v1.ResourceName]string{"example.com/gpu": "1"}).Obj()
	c := cluster{
		nodes:   nodes(node("n1"), node("n2"), node("n3")),
		objects: []k8sruntime.Object{class, slice},
	}
	for i := range 10 {
		v := evaluate(t, c.evaluator(t), p)
		if v.Result != Scheduled || v.Node != "n2" {
			t.Fatalf("run %d: %s %q on %q, want scheduled on n2", i, v.Result, v.Message, v.Node)
		}
	}
}
