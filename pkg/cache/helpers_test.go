package cache

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// podBuilder builds test pods fluently: pod("p1").on("n1").req("100m", "500").obj().
type podBuilder struct{ p *v1.Pod }

func pod(name string) *podBuilder {
	return &podBuilder{p: &v1.Pod{ObjectMeta: metav1.ObjectMeta{
		Name: name, Namespace: "ns", UID: types.UID(name),
	}}}
}

func (b *podBuilder) ns(ns string) *podBuilder   { b.p.Namespace = ns; return b }
func (b *podBuilder) uid(uid string) *podBuilder { b.p.UID = types.UID(uid); return b }
func (b *podBuilder) on(node string) *podBuilder { b.p.Spec.NodeName = node; return b }
func (b *podBuilder) obj() *v1.Pod               { return b.p }
func (b *podBuilder) container(c v1.Container) *podBuilder {
	b.p.Spec.Containers = append(b.p.Spec.Containers, c)
	return b
}

// req adds a container requesting cpu and memory ("" = not requested).
func (b *podBuilder) req(cpu, mem string) *podBuilder {
	return b.container(v1.Container{Name: "c" + string(rune('0'+len(b.p.Spec.Containers))), Resources: v1.ResourceRequirements{Requests: rl(cpu, mem)}})
}

func (b *podBuilder) init(cpu, mem string, sidecar bool) *podBuilder {
	c := v1.Container{Name: "i" + string(rune('0'+len(b.p.Spec.InitContainers))), Resources: v1.ResourceRequirements{Requests: rl(cpu, mem)}}
	if sidecar {
		always := v1.ContainerRestartPolicyAlways
		c.RestartPolicy = &always
	}
	b.p.Spec.InitContainers = append(b.p.Spec.InitContainers, c)
	return b
}

func (b *podBuilder) hostPort(ip string, proto v1.Protocol, port int32) *podBuilder {
	if len(b.p.Spec.Containers) == 0 {
		b.req("", "")
	}
	c := &b.p.Spec.Containers[len(b.p.Spec.Containers)-1]
	c.Ports = append(c.Ports, v1.ContainerPort{HostIP: ip, Protocol: proto, HostPort: port, ContainerPort: port})
	return b
}

func (b *podBuilder) pvc(claim string) *podBuilder {
	b.p.Spec.Volumes = append(b.p.Spec.Volumes, v1.Volume{Name: claim, VolumeSource: v1.VolumeSource{
		PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: claim}}})
	return b
}

func (b *podBuilder) affinity(a *v1.Affinity) *podBuilder { b.p.Spec.Affinity = a; return b }

// rl builds a ResourceList of cpu and memory, skipping empty values.
func rl(cpu, mem string) v1.ResourceList {
	out := v1.ResourceList{}
	if cpu != "" {
		out[v1.ResourceCPU] = resource.MustParse(cpu)
	}
	if mem != "" {
		out[v1.ResourceMemory] = resource.MustParse(mem)
	}
	return out
}

// node builds a test node with labels as alternating key, value strings.
func node(name string, labels ...string) *v1.Node {
	n := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{}}}
	for i := 0; i+1 < len(labels); i += 2 {
		n.Labels[labels[i]] = labels[i+1]
	}
	return n
}

func withAlloc(n *v1.Node, alloc v1.ResourceList) *v1.Node {
	n.Status.Allocatable = alloc
	return n
}

func withImages(n *v1.Node, imgs ...v1.ContainerImage) *v1.Node {
	n.Status.Images = imgs
	return n
}

func zoned(name, region, zone string) *v1.Node {
	return node(name, v1.LabelTopologyRegion, region, v1.LabelTopologyZone, zone)
}

// newTestCache returns a cache with its own generation counter.
func newTestCache(opts Options) *cacheImpl {
	if opts.Generations == nil {
		opts.Generations = &GenerationCounter{}
	}
	return New(opts).(*cacheImpl)
}

func mustNil(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

func wantErr(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v, want %q", err, want)
	}
}
