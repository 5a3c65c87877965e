package cache

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// TestPodLimits checks limits vectors worked out by hand from
// component-helpers v0.36.3 resource.PodLimits (the behaviour, not its
// code): containers and native sidecars summed, an init container counted
// with the sidecars started before it and the largest of those taken when
// bigger, overhead added only to a limit that is set, pod-level limits
// replacing cpu and memory when gate PodLevelResources is on.
func TestPodLimits(t *testing.T) {
	always := v1.ContainerRestartPolicyAlways
	c := func(name, cpu, mem string) v1.Container {
		l := v1.ResourceList{}
		if cpu != "" {
			l[v1.ResourceCPU] = resource.MustParse(cpu)
		}
		if mem != "" {
			l[v1.ResourceMemory] = resource.MustParse(mem)
		}
		return v1.Container{Name: name, Resources: v1.ResourceRequirements{Limits: l}}
	}
	sidecar := c("proxy", "200m", "128Mi")
	sidecar.RestartPolicy = &always
	gpu := c("gpu", "", "")
	gpu.Resources.Limits["nvidia.com/gpu"] = resource.MustParse("2")
	gpu.Resources.Limits["hugepages-2Mi"] = resource.MustParse("4Mi")

	podLevel := v1.Pod{Spec: v1.PodSpec{
		Resources:  &v1.ResourceRequirements{Limits: v1.ResourceList{v1.ResourceCPU: resource.MustParse("2"), v1.ResourceMemory: resource.MustParse("1Gi")}},
		Containers: []v1.Container{c("app", "500m", "256Mi")},
	}}
	noPodLevel := DefaultProfile()
	noPodLevel.Gates.PodLevelResources = false

	tests := []struct {
		name    string
		pod     v1.Pod
		profile Profile
		want    Resource
	}{
		// app 500m/256Mi + sidecar 200m/128Mi = 700m/384Mi; init setup
		// 1 + 200m (sidecar before it) = 1200m, 64Mi + 128Mi = 192Mi:
		// max → 1200m, 384Mi.
		{"native sidecar then init", v1.Pod{Spec: v1.PodSpec{
			InitContainers: []v1.Container{sidecar, c("setup", "1", "64Mi")},
			Containers:     []v1.Container{c("app", "500m", "256Mi")},
		}}, DefaultProfile(), Resource{MilliCPU: 1200, Memory: 384 * mi}},
		// init before the sidecar: setup alone 1/64Mi; containers 700m/384Mi.
		{"init then native sidecar", v1.Pod{Spec: v1.PodSpec{
			InitContainers: []v1.Container{c("setup", "1", "64Mi"), sidecar},
			Containers:     []v1.Container{c("app", "500m", "256Mi")},
		}}, DefaultProfile(), Resource{MilliCPU: 1000, Memory: 384 * mi}},
		// overhead 250m/120Mi: added to the cpu limit (1 → 1250m), not to
		// memory, which no container limits.
		{"overhead only on set limits", v1.Pod{Spec: v1.PodSpec{
			Overhead:   v1.ResourceList{v1.ResourceCPU: resource.MustParse("250m"), v1.ResourceMemory: resource.MustParse("120Mi")},
			Containers: []v1.Container{c("app", "1", "")},
		}}, DefaultProfile(), Resource{MilliCPU: 1250}},
		// a container without limits adds nothing: 300m + nothing.
		{"unlimited container adds nothing", v1.Pod{Spec: v1.PodSpec{
			Containers: []v1.Container{c("a", "300m", ""), c("b", "", "")},
		}}, DefaultProfile(), Resource{MilliCPU: 300}},
		{"extended and hugepages", v1.Pod{Spec: v1.PodSpec{Containers: []v1.Container{gpu}}}, DefaultProfile(),
			Resource{ScalarResources: map[v1.ResourceName]int64{"nvidia.com/gpu": 2, "hugepages-2Mi": 4 * mi}}},
		{"pod-level limits win (v1.36 default gates)", podLevel, DefaultProfile(), Resource{MilliCPU: 2000, Memory: 1024 * mi}},
		{"pod-level limits ignored with PodLevelResources off", podLevel, noPodLevel, Resource{MilliCPU: 500, Memory: 256 * mi}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.profile.PodLimits(&tc.pod)); diff != "" {
				t.Errorf("PodLimits (-want +got):\n%s", diff)
			}
		})
	}
}
