package cache

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

const mi = 1024 * 1024

// TestComputePodResource checks request vectors verified against
// kube-scheduler v1.36.3 with default feature gates (upstream
// TestPodInfoCalculateResources and TestAssumePodScheduled, and
// pkg/scheduler/framework/types.go PodInfo.CalculateResource).
func TestComputePodResource(t *testing.T) {
	withOverhead := func(b *podBuilder, o v1.ResourceList) *podBuilder { b.p.Spec.Overhead = o; return b }
	resize := func(infeasible bool) *v1.Pod {
		p := pod("resize").req("500m", "").obj()
		p.Status.ContainerStatuses = []v1.ContainerStatus{{
			Name:               p.Spec.Containers[0].Name,
			Resources:          &v1.ResourceRequirements{Requests: rl("100m", "")},
			AllocatedResources: rl("200m", ""),
		}}
		if infeasible {
			p.Status.Conditions = []v1.PodCondition{{Type: v1.PodResizePending, Status: v1.ConditionTrue, Reason: v1.PodReasonInfeasible}}
		}
		return p
	}
	podLevel := pod("pl").req("100m", "").req("200m", "").obj()
	podLevel.Spec.Resources = &v1.ResourceRequirements{Requests: rl("1", "")}
	scalars := pod("scalars").container(v1.Container{Name: "c", Resources: v1.ResourceRequirements{Requests: v1.ResourceList{
		"example.com/foo":           resource.MustParse("3"),
		"hugepages-2Mi":             resource.MustParse("4Mi"),
		"random-invalid-key":        resource.MustParse("100"),
		v1.ResourceEphemeralStorage: resource.MustParse("500"),
	}}}).obj()

	tests := []struct {
		name         string
		pod          *v1.Pod
		want         Resource
		nzCPU, nzMem int64
	}{
		{"init max and overhead", withOverhead(pod("a").req("100m", "").req("200m", "").init("500m", "", false), rl("10m", "")).obj(),
			Resource{MilliCPU: 510}, 510, 2 * 200 * mi},
		{"init larger than containers", pod("b").req("100m", "1Gi").req("200m", "1Gi").init("500m", "1Gi", false).obj(),
			Resource{MilliCPU: 500, Memory: 2048 * mi}, 500, 2048 * mi},
		{"sidecar then init", pod("c").init("100m", "100Mi", true).init("300m", "100Mi", false).req("200m", "100Mi").obj(),
			Resource{MilliCPU: 400, Memory: 200 * mi}, 400, 200 * mi},
		{"init then sidecar", pod("d").init("300m", "100Mi", false).init("100m", "100Mi", true).req("200m", "100Mi").obj(),
			Resource{MilliCPU: 300, Memory: 200 * mi}, 300, 200 * mi},
		{"pod-level cpu replaces containers", podLevel, Resource{MilliCPU: 1000}, 1000, 400 * mi},
		{"resize: max(spec, actuated, allocated)", resize(false), Resource{MilliCPU: 500}, 500, 200 * mi},
		{"resize infeasible: max(actuated, allocated)", resize(true), Resource{MilliCPU: 200}, 200, 200 * mi},
		{"explicit zero cpu kept", pod("z").req("0", "").obj(), Resource{}, 0, 200 * mi},
		{"scalars, hugepages, ephemeral; invalid key dropped", scalars,
			Resource{EphemeralStorage: 500, ScalarResources: map[v1.ResourceName]int64{"example.com/foo": 3, "hugepages-2Mi": 4 * mi}}, 100, 200 * mi},
		{"no requests, 2 containers + init", pod("e").req("", "").req("", "").init("", "", false).obj(), Resource{}, 200, 400 * mi},
		{"no requests, sidecar + init + app", pod("f").init("", "", true).init("", "", false).req("", "").obj(), Resource{}, 200, 400 * mi},
		{"overhead adds to NonZero too", withOverhead(pod("g").req("100m", ""), rl("250m", "120Mi")).obj(),
			Resource{MilliCPU: 350, Memory: 120 * mi}, 350, 320 * mi},
		{"no requests at all", pod("h").req("", "").obj(), Resource{}, 100, 209715200},
		{"ephemeral only (upstream TestEphemeralStorageResource)", pod("i").container(v1.Container{Name: "c", Resources: v1.ResourceRequirements{
			Requests: v1.ResourceList{v1.ResourceEphemeralStorage: resource.MustParse("500")}}}).obj(),
			Resource{EphemeralStorage: 500}, 100, 200 * mi},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ComputePodResource(tc.pod, DefaultFeatureGates())
			if diff := cmp.Diff(tc.want, got.Resource); diff != "" {
				t.Errorf("Requested (-want,+got):\n%s", diff)
			}
			if got.NonZeroMilliCPU != tc.nzCPU || got.NonZeroMemory != tc.nzMem {
				t.Errorf("NonZero = %dm/%d, want %dm/%d", got.NonZeroMilliCPU, got.NonZeroMemory, tc.nzCPU, tc.nzMem)
			}
		})
	}
}

// TestComputePodResourceGates checks that the gates reach PodRequests: with
// PodLevelResources off, container requests are summed (v1.32–1.33 default).
func TestComputePodResourceGates(t *testing.T) {
	p := pod("pl").req("100m", "").req("200m", "").obj()
	p.Spec.Resources = &v1.ResourceRequirements{Requests: rl("1", "")}
	gates := DefaultFeatureGates()
	gates.PodLevelResources = false
	if got := ComputePodResource(p, gates).Resource.MilliCPU; got != 300 {
		t.Errorf("MilliCPU with PodLevelResources off = %d, want 300", got)
	}
}

// TestAllocatable: allocatable conversion (framework/types.go Resource.Add)
// and the dumper's %+v form.
func TestAllocatable(t *testing.T) {
	r := NewResource(v1.ResourceList{
		v1.ResourceCPU: resource.MustParse("3500m"), v1.ResourceMemory: resource.MustParse("7Gi"),
		v1.ResourcePods: resource.MustParse("110"), v1.ResourceEphemeralStorage: resource.MustParse("10Gi"),
		"nvidia.com/gpu": resource.MustParse("2"), "hugepages-1Gi": resource.MustParse("2Gi"),
		"random-invalid-extended-key": resource.MustParse("100"),
	})
	want := "&{MilliCPU:3500 Memory:7516192768 EphemeralStorage:10737418240 AllowedPodNumber:110 ScalarResources:map[hugepages-1Gi:2147483648 nvidia.com/gpu:2]}"
	if got := r.String(); got != want {
		t.Errorf("String() = %s\nwant       %s", got, want)
	}
	if got := (&Resource{}).String(); got != "&{MilliCPU:0 Memory:0 EphemeralStorage:0 AllowedPodNumber:0 ScalarResources:map[]}" {
		t.Errorf("empty String() = %s", got)
	}
}

func TestIsScalarResourceName(t *testing.T) {
	for name, want := range map[v1.ResourceName]bool{
		"nvidia.com/gpu": true, "hugepages-2Mi": true, "kubernetes.io/batch-cpu": true,
		"attachable-volumes-aws-ebs": true, "cpu": false, "random-invalid-extended-key": false,
		"requests.example.com/foo": false, "example.com/in valid": false,
	} {
		if got := IsScalarResourceName(name); got != want {
			t.Errorf("IsScalarResourceName(%q) = %v, want %v", name, got, want)
		}
	}
}
