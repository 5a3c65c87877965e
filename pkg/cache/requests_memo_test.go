package cache

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// randomPods draws pods for the memo's property test: a few templates (so
// that most pods repeat one, as the replicas of a workload do), each pod a
// copy of one, half of them changed in one field the request algorithms
// read (so that near-identical pods must not share a result).
type randomPods struct{ r *rand.Rand }

var quantities = map[v1.ResourceName][]string{
	v1.ResourceCPU:              {"0", "1m", "100m", "250m", "0.5", "1", "1000m", "2", "9223372036854775807", "-1"},
	v1.ResourceMemory:           {"0", "1", "100Mi", "128M", "200Mi", "1Gi", "1024Mi", "4Ei"},
	v1.ResourceEphemeralStorage: {"1Gi", "10Gi"},
	"example.com/gpu":           {"1", "2"},
	"hugepages-2Mi":             {"2Mi", "4Mi"},
}

func (g randomPods) list() v1.ResourceList {
	switch g.r.IntN(6) {
	case 0:
		return nil
	case 1:
		return v1.ResourceList{}
	}
	rl := v1.ResourceList{}
	for name, values := range quantities {
		if g.r.IntN(3) > 0 {
			rl[name] = resource.MustParse(values[g.r.IntN(len(values))])
		}
	}
	return rl
}

func (g randomPods) container(i int, init bool) v1.Container {
	c := v1.Container{Name: fmt.Sprintf("c%d", i), Resources: v1.ResourceRequirements{Requests: g.list(), Limits: g.list()}}
	if init && g.r.IntN(2) == 0 {
		always := v1.ContainerRestartPolicyAlways
		c.RestartPolicy = &always
	}
	return c
}

func (g randomPods) status(name string) v1.ContainerStatus {
	s := v1.ContainerStatus{Name: name, AllocatedResources: g.list()}
	if g.r.IntN(2) == 0 {
		s.Resources = &v1.ResourceRequirements{Requests: g.list(), Limits: g.list()}
	}
	return s
}

func (g randomPods) template() *v1.Pod {
	pod := &v1.Pod{}
	for i := range g.r.IntN(3) + 1 {
		pod.Spec.Containers = append(pod.Spec.Containers, g.container(i, false))
	}
	for i := range g.r.IntN(3) {
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, g.container(10+i, true))
	}
	if g.r.IntN(3) == 0 {
		pod.Spec.Overhead = g.list()
	}
	if g.r.IntN(3) == 0 {
		pod.Spec.Resources = &v1.ResourceRequirements{Requests: g.list(), Limits: g.list()}
	}
	for _, c := range pod.Spec.Containers {
		if g.r.IntN(2) == 0 {
			pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, g.status(c.Name))
		}
	}
	for _, c := range pod.Spec.InitContainers {
		if g.r.IntN(2) == 0 {
			pod.Status.InitContainerStatuses = append(pod.Status.InitContainerStatuses, g.status(c.Name))
		}
	}
	g.podStatus(pod)
	return pod
}

func (g randomPods) podStatus(pod *v1.Pod) {
	if g.r.IntN(3) == 0 {
		pod.Status.Resources = &v1.ResourceRequirements{Requests: g.list()}
		pod.Status.AllocatedResources = g.list()
	}
	switch g.r.IntN(4) {
	case 0:
		pod.Status.Resize = v1.PodResizeStatusInfeasible //nolint:staticcheck // read by v1.27–v1.32
	case 1:
		pod.Status.Conditions = []v1.PodCondition{{Type: v1.PodResizePending, Status: v1.ConditionTrue, Reason: v1.PodReasonInfeasible}}
	case 2:
		pod.Status.Conditions = []v1.PodCondition{{Type: v1.PodResizePending, Status: v1.ConditionTrue, Reason: v1.PodReasonDeferred}}
	}
	if g.r.IntN(4) == 0 {
		pod.Status.NodeAllocatableResourceClaimStatuses = []v1.NodeAllocatableResourceClaimStatus{{Resources: g.list()}}
	}
}

// mutate changes one field the algorithms read.
func (g randomPods) mutate(pod *v1.Pod) {
	switch g.r.IntN(8) {
	case 0:
		pod.Spec.Containers[0].Resources.Requests = g.list()
	case 1:
		pod.Spec.Containers[0].Name = "renamed"
	case 2:
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, g.container(20, true))
	case 3:
		pod.Spec.Overhead = g.list()
	case 4:
		pod.Spec.Resources = &v1.ResourceRequirements{Requests: g.list()}
	case 5:
		pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, g.status(pod.Spec.Containers[0].Name))
	case 6:
		g.podStatus(pod)
	case 7:
		if len(pod.Spec.InitContainers) > 0 {
			pod.Spec.InitContainers[0].RestartPolicy = nil
		}
	}
}

// TestRequestsMemoEqualsComputation is the memo's property test: for
// random pods, at every modelled version with random feature gates, the
// memoized PodResource equals the computation for that very pod
// (Profile.PodResource: component-helpers v0.36 resource.PodRequests from
// v1.33, the older algorithms before).
func TestRequestsMemoEqualsComputation(t *testing.T) {
	g := randomPods{r: rand.New(rand.NewPCG(1, 2))}
	hits := 0
	for _, v := range Minors() {
		for round := range 4 {
			gates := FeatureGatesFor(v)
			if round > 0 {
				gates.InPlacePodVerticalScaling = g.r.IntN(2) == 0
				gates.PodLevelResources = g.r.IntN(2) == 0
				gates.InPlacePodLevelResourcesVerticalScaling = g.r.IntN(2) == 0
				gates.DRANodeAllocatableResources = g.r.IntN(2) == 0
				gates.PodOverhead = g.r.IntN(2) == 0
				gates.LocalStorageCapacityIsolation = g.r.IntN(2) == 0
			}
			p := NewProfile(v, &gates)
			memo := newRequestsMemo()
			templates := make([]*v1.Pod, 8)
			for i := range templates {
				templates[i] = g.template()
			}
			for i := range 300 {
				pod := templates[g.r.IntN(len(templates))].DeepCopy()
				if i%2 == 1 {
					g.mutate(pod)
				}
				// Each pod is computed once, when it enters the cache; a
				// copy, because the computation may change its input (see
				// requestsMemo).
				want := p.PodResource(pod.DeepCopy())
				if got := memo.podResource(pod, &p); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s gates %+v: pod %d: memoized %+v, computed %+v\npod: %+v", v, gates, i, got, want, pod)
				}
			}
			hits += memo.hits
		}
	}
	if hits == 0 {
		t.Fatal("the memo never hit: the test does not exercise it")
	}
	t.Logf("%d hits", hits)
}

// TestRequestsKeySeesEveryInput: changing any one field the algorithms
// read changes the key (what makes a hit exact), and a copy keys alike.
func TestRequestsKeySeesEveryInput(t *testing.T) {
	always := v1.ContainerRestartPolicyAlways
	base := func() *v1.Pod {
		return &v1.Pod{
			Spec: v1.PodSpec{
				Containers:     []v1.Container{{Name: "a", Resources: v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("100m")}}}},
				InitContainers: []v1.Container{{Name: "i", RestartPolicy: &always}},
			},
			Status: v1.PodStatus{ContainerStatuses: []v1.ContainerStatus{{Name: "a"}}},
		}
	}
	key := func(p *v1.Pod) string { return string(appendRequestsKey(nil, p)) }
	if key(base()) != key(base().DeepCopy()) {
		t.Fatal("a copy keys differently")
	}
	changes := map[string]func(*v1.Pod){
		"request value": func(p *v1.Pod) { p.Spec.Containers[0].Resources.Requests[v1.ResourceCPU] = resource.MustParse("101m") },
		"request sign":  func(p *v1.Pod) { p.Spec.Containers[0].Resources.Requests[v1.ResourceCPU] = resource.MustParse("-100m") },
		"request name": func(p *v1.Pod) {
			p.Spec.Containers[0].Resources.Requests = v1.ResourceList{v1.ResourceMemory: resource.MustParse("100m")}
		},
		"container name":       func(p *v1.Pod) { p.Spec.Containers[0].Name = "b" },
		"init restart policy":  func(p *v1.Pod) { p.Spec.InitContainers[0].RestartPolicy = nil },
		"init container moved": func(p *v1.Pod) { p.Spec.Containers, p.Spec.InitContainers = p.Spec.InitContainers, p.Spec.Containers },
		"overhead":             func(p *v1.Pod) { p.Spec.Overhead = v1.ResourceList{} },
		"pod-level requests":   func(p *v1.Pod) { p.Spec.Resources = &v1.ResourceRequirements{} },
		"status resources":     func(p *v1.Pod) { p.Status.ContainerStatuses[0].Resources = &v1.ResourceRequirements{} },
		"status allocated":     func(p *v1.Pod) { p.Status.ContainerStatuses[0].AllocatedResources = v1.ResourceList{} },
		"status name":          func(p *v1.Pod) { p.Status.ContainerStatuses[0].Name = "b" },
		"init status":          func(p *v1.Pod) { p.Status.InitContainerStatuses = []v1.ContainerStatus{{Name: "i"}} },
		"pod status resources": func(p *v1.Pod) { p.Status.Resources = &v1.ResourceRequirements{} },
		"pod status allocated": func(p *v1.Pod) { p.Status.AllocatedResources = v1.ResourceList{} },
		"resize":               func(p *v1.Pod) { p.Status.Resize = v1.PodResizeStatusInfeasible }, //nolint:staticcheck // read by v1.27–v1.32
		"resize condition": func(p *v1.Pod) {
			p.Status.Conditions = []v1.PodCondition{{Type: v1.PodResizePending, Reason: v1.PodReasonInfeasible}}
		},
		"allocatable claim": func(p *v1.Pod) {
			p.Status.NodeAllocatableResourceClaimStatuses = []v1.NodeAllocatableResourceClaimStatus{{}}
		},
		"two containers as one": func(p *v1.Pod) { p.Spec.Containers = append(p.Spec.Containers, v1.Container{}) },
	}
	for name, change := range changes {
		p := base()
		change(p)
		if key(p) == key(base()) {
			t.Errorf("%s: the key did not change", name)
		}
	}
}

// BenchmarkPodResource compares computing each pod's PodResource (v1.36:
// two component-helpers PodRequests calls) with the memo, over the 30,000
// pods of benchCluster (a handful of templates, as replicas are), in the
// same run.
func BenchmarkPodResource(b *testing.B) {
	_, pods := benchCluster(1000, 30000)
	p := DefaultProfile()
	b.Run("computed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, pod := range pods {
				p.PodResource(pod)
			}
		}
	})
	b.Run("memoized", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			memo := newRequestsMemo()
			for _, pod := range pods {
				memo.podResource(pod, &p)
			}
		}
	})
}
