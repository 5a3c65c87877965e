package decide

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	st "k8s.io/kubernetes/pkg/scheduler/testing"
)

// TestConvertMatchesUpstreamAccounting feeds the same random pods to our
// cache and to upstream's own framework.NodeInfo (NewNodeInfo + SetNode +
// AddPod, v1.36.3, with the process's default feature gates, which are
// v1.36's) and requires the converted NodeInfo to hold exactly what
// upstream's does: the accounting the plugins read (Requested,
// NonZeroRequested, Allocatable, used ports, PVC counts, the pod lists).
// Image states are filled by the cache, not by NodeInfo, and are covered
// by pkg/cache's tests.
func TestConvertMatchesUpstreamAccounting(t *testing.T) {
	for seed := int64(1); seed <= 30; seed++ {
		r := rand.New(rand.NewSource(seed))
		n := node("n", "example.com/gpu", "4", "hugepages-2Mi", "1Gi").Obj()
		var ps []*v1.Pod
		for i := 0; i < 1+r.Intn(12); i++ {
			ps = append(ps, randomPod(r, fmt.Sprintf("p%d", i), "n"))
		}
		ours := cluster{nodes: []*v1.Node{n}, bound: ps}.evaluator(t).lister.byName["n"]
		want := framework.NewNodeInfo()
		want.SetNode(n)
		for _, p := range ps {
			want.AddPod(p)
		}
		opts := []cmp.Option{cmp.Comparer(func(a, b fwk.PodInfo) bool { return a.GetPod().UID == b.GetPod().UID })}
		for _, f := range []struct {
			name     string
			got, exp any
		}{
			{"Requested", ours.Requested, want.Requested},
			{"NonZeroRequested", ours.NonZeroRequested, want.NonZeroRequested},
			{"Allocatable", ours.Allocatable, want.Allocatable},
			{"UsedPorts", ours.UsedPorts, want.UsedPorts},
			{"PVCRefCounts", ours.PVCRefCounts, want.PVCRefCounts},
			{"Pods", ours.Pods, want.Pods},
			{"PodsWithAffinity", ours.PodsWithAffinity, want.PodsWithAffinity},
			{"PodsWithRequiredAntiAffinity", ours.PodsWithRequiredAntiAffinity, want.PodsWithRequiredAntiAffinity},
			{"DeclaredFeatures", ours.DeclaredFeatures, want.DeclaredFeatures},
		} {
			if diff := cmp.Diff(f.exp, f.got, opts...); diff != "" {
				t.Errorf("seed %d: %s (-upstream +ours):\n%s", seed, f.name, diff)
			}
		}
	}
}

// randomPod mixes what the accounting distinguishes: containers with and
// without requests, limits only, init containers and restartable
// (sidecar) init containers, overhead, pod-level requests, host ports,
// claims, pod (anti-)affinity and in-place resize status.
func randomPod(r *rand.Rand, name, nodeName string) *v1.Pod {
	w := st.MakePod().Namespace(testNS).Name(name).UID(name).Node(nodeName)
	p := w.Obj()
	p.UID = types.UID(name)
	for i := 0; i < 1+r.Intn(3); i++ {
		p.Spec.Containers = append(p.Spec.Containers, randomContainer(r, fmt.Sprintf("c%d", i)))
	}
	for i := 0; i < r.Intn(3); i++ {
		c := randomContainer(r, fmt.Sprintf("i%d", i))
		if r.Intn(2) == 0 {
			always := v1.ContainerRestartPolicyAlways
			c.RestartPolicy = &always
		}
		p.Spec.InitContainers = append(p.Spec.InitContainers, c)
	}
	if r.Intn(4) == 0 {
		p.Spec.Overhead = v1.ResourceList{v1.ResourceCPU: q(r, "m", 250), v1.ResourceMemory: q(r, "Mi", 256)}
	}
	if r.Intn(5) == 0 {
		p.Spec.Resources = &v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: q(r, "m", 2000)}}
	}
	if r.Intn(4) == 0 {
		p.Spec.Containers[0].Ports = []v1.ContainerPort{{HostPort: int32(8000 + r.Intn(3)), ContainerPort: 80, Protocol: v1.ProtocolTCP}}
	}
	if r.Intn(4) == 0 {
		p.Spec.Volumes = append(p.Spec.Volumes, v1.Volume{Name: "d", VolumeSource: v1.VolumeSource{
			PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: fmt.Sprintf("c%d", r.Intn(3))}}})
	}
	switch r.Intn(4) {
	case 0:
		p.Spec.Affinity = st.MakePod().PodAntiAffinityExists("app", v1.LabelHostname, st.PodAntiAffinityWithRequiredReq).Obj().Spec.Affinity
	case 1:
		p.Spec.Affinity = st.MakePod().PodAffinityExists("app", v1.LabelHostname, st.PodAffinityWithPreferredReq).Obj().Spec.Affinity
	}
	if r.Intn(5) == 0 {
		c := p.Spec.Containers[0]
		p.Status.ContainerStatuses = []v1.ContainerStatus{{Name: c.Name,
			AllocatedResources: v1.ResourceList{v1.ResourceCPU: q(r, "m", 3000)},
			Resources:          &v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: q(r, "m", 3000)}}}}
		p.Status.Resize = v1.PodResizeStatusInProgress
	}
	return p
}

func randomContainer(r *rand.Rand, name string) v1.Container {
	c := v1.Container{Name: name}
	switch r.Intn(4) {
	case 0: // no requests at all
	case 1:
		c.Resources.Limits = v1.ResourceList{v1.ResourceCPU: q(r, "m", 1000), v1.ResourceMemory: q(r, "Mi", 512)}
		c.Resources.Requests = c.Resources.Limits.DeepCopy()
	default:
		c.Resources.Requests = v1.ResourceList{v1.ResourceCPU: q(r, "m", 1000)}
		if r.Intn(2) == 0 {
			c.Resources.Requests[v1.ResourceMemory] = q(r, "Mi", 512)
		}
		if r.Intn(3) == 0 {
			c.Resources.Requests["example.com/gpu"] = resource.MustParse("1")
		}
		if r.Intn(4) == 0 {
			c.Resources.Requests["hugepages-2Mi"] = resource.MustParse("4Mi")
		}
	}
	return c
}

func q(r *rand.Rand, unit string, max int) resource.Quantity {
	return resource.MustParse(fmt.Sprintf("%d%s", 1+r.Intn(max), unit))
}
