package load

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"
)

// rl builds a ResourceList from name, quantity pairs.
func rl(pairs ...string) corev1.ResourceList {
	list := corev1.ResourceList{}
	for i := 0; i < len(pairs); i += 2 {
		list[corev1.ResourceName(pairs[i])] = resource.MustParse(pairs[i+1])
	}
	return list
}

func container(name string, requests, limits corev1.ResourceList) corev1.Container {
	return corev1.Container{Name: name, Resources: corev1.ResourceRequirements{Requests: requests, Limits: limits}}
}

// podSpec returns a pod with the given spec and the scheduler name already
// defaulted, so that cases only show what they are about.
func podSpec(spec corev1.PodSpec) *corev1.Pod {
	if spec.SchedulerName == "" {
		spec.SchedulerName = corev1.DefaultSchedulerName
	}
	return &corev1.Pod{Spec: spec}
}

func TestDefaultPod(t *testing.T) {
	tests := []struct {
		name string
		pod  *corev1.Pod
		want *corev1.Pod
	}{
		{
			name: "container requests default to limits",
			pod:  podSpec(corev1.PodSpec{Containers: []corev1.Container{container("c", nil, rl("cpu", "500m", "memory", "1Gi"))}}),
			want: podSpec(corev1.PodSpec{Containers: []corev1.Container{container("c", rl("cpu", "500m", "memory", "1Gi"), rl("cpu", "500m", "memory", "1Gi"))}}),
		},
		{
			name: "a request that is set is kept, even when zero",
			pod:  podSpec(corev1.PodSpec{Containers: []corev1.Container{container("c", rl("cpu", "0"), rl("cpu", "1", "memory", "1Gi"))}}),
			want: podSpec(corev1.PodSpec{Containers: []corev1.Container{container("c", rl("cpu", "0", "memory", "1Gi"), rl("cpu", "1", "memory", "1Gi"))}}),
		},
		{
			name: "init containers and extended resources too",
			pod:  podSpec(corev1.PodSpec{InitContainers: []corev1.Container{container("i", nil, rl("example.com/gpu", "1"))}}),
			want: podSpec(corev1.PodSpec{InitContainers: []corev1.Container{container("i", rl("example.com/gpu", "1"), rl("example.com/gpu", "1"))}}),
		},
		{
			name: "no limits, nothing to default",
			pod:  podSpec(corev1.PodSpec{Containers: []corev1.Container{container("c", rl("cpu", "100m"), nil), container("d", nil, nil)}}),
			want: podSpec(corev1.PodSpec{Containers: []corev1.Container{container("c", rl("cpu", "100m"), nil), container("d", nil, nil)}}),
		},
		{
			name: "pod-level requests from the containers' requests for cpu and memory, else from pod limits",
			pod: podSpec(corev1.PodSpec{
				Resources: &corev1.ResourceRequirements{Limits: rl("cpu", "2", "memory", "1Gi")},
				Containers: []corev1.Container{
					container("a", rl("cpu", "300m", "example.com/gpu", "1"), nil),
					container("b", rl("cpu", "200m"), nil),
				},
			}),
			want: podSpec(corev1.PodSpec{
				Resources: &corev1.ResourceRequirements{Limits: rl("cpu", "2", "memory", "1Gi"), Requests: rl("cpu", "500m", "memory", "1Gi")},
				Containers: []corev1.Container{
					container("a", rl("cpu", "300m", "example.com/gpu", "1"), nil),
					container("b", rl("cpu", "200m"), nil),
				},
			}),
		},
		{
			name: "pod-level requests use the larger of init and regular containers",
			pod: podSpec(corev1.PodSpec{
				Resources:      &corev1.ResourceRequirements{Limits: rl("cpu", "4")},
				InitContainers: []corev1.Container{container("init", rl("cpu", "3"), nil)},
				Containers:     []corev1.Container{container("c", rl("cpu", "1"), nil)},
			}),
			want: podSpec(corev1.PodSpec{
				Resources:      &corev1.ResourceRequirements{Limits: rl("cpu", "4"), Requests: rl("cpu", "3")},
				InitContainers: []corev1.Container{container("init", rl("cpu", "3"), nil)},
				Containers:     []corev1.Container{container("c", rl("cpu", "1"), nil)},
			}),
		},
		{
			name: "pod-level requests without pod-level limits are not completed",
			pod: podSpec(corev1.PodSpec{
				Resources:  &corev1.ResourceRequirements{Requests: rl("cpu", "1")},
				Containers: []corev1.Container{container("c", rl("memory", "1Gi"), nil)},
			}),
			want: podSpec(corev1.PodSpec{
				Resources:  &corev1.ResourceRequirements{Requests: rl("cpu", "1")},
				Containers: []corev1.Container{container("c", rl("memory", "1Gi"), nil)},
			}),
		},
		{
			name: "pod-level hugepage limits from the containers, then requests from those limits",
			pod: podSpec(corev1.PodSpec{
				Resources:  &corev1.ResourceRequirements{Limits: rl("memory", "1Gi")},
				Containers: []corev1.Container{container("c", nil, rl("hugepages-2Mi", "100Mi", "memory", "200Mi"))},
			}),
			want: podSpec(corev1.PodSpec{
				Resources: &corev1.ResourceRequirements{
					Limits:   rl("memory", "1Gi", "hugepages-2Mi", "100Mi"),
					Requests: rl("memory", "200Mi", "hugepages-2Mi", "100Mi"),
				},
				Containers: []corev1.Container{container("c", rl("hugepages-2Mi", "100Mi", "memory", "200Mi"), rl("hugepages-2Mi", "100Mi", "memory", "200Mi"))},
			}),
		},
		{
			name: "no pod-level hugepage limit when a pod-level hugepage request is set",
			pod: podSpec(corev1.PodSpec{
				Resources:  &corev1.ResourceRequirements{Requests: rl("hugepages-2Mi", "50Mi")},
				Containers: []corev1.Container{container("c", nil, rl("hugepages-2Mi", "100Mi"))},
			}),
			want: podSpec(corev1.PodSpec{
				Resources:  &corev1.ResourceRequirements{Requests: rl("hugepages-2Mi", "50Mi")},
				Containers: []corev1.Container{container("c", rl("hugepages-2Mi", "100Mi"), rl("hugepages-2Mi", "100Mi"))},
			}),
		},
		{
			name: "quantities round up to 1m, after pod-level sums",
			pod: podSpec(corev1.PodSpec{
				Resources:  &corev1.ResourceRequirements{Limits: rl("cpu", "1")},
				Containers: []corev1.Container{container("a", rl("cpu", "0.0004"), nil), container("b", rl("cpu", "0.0004"), nil)},
				Overhead:   rl("cpu", "0.0001"),
			}),
			want: podSpec(corev1.PodSpec{
				Resources:  &corev1.ResourceRequirements{Limits: rl("cpu", "1"), Requests: rl("cpu", "1m")},
				Containers: []corev1.Container{container("a", rl("cpu", "1m"), nil), container("b", rl("cpu", "1m"), nil)},
				Overhead:   rl("cpu", "1m"),
			}),
		},
		{
			name: "ports get TCP, and host ports on the host network",
			pod: podSpec(corev1.PodSpec{
				HostNetwork:    true,
				InitContainers: []corev1.Container{{Name: "i", Ports: []corev1.ContainerPort{{ContainerPort: 53, Protocol: corev1.ProtocolUDP}}}},
				Containers:     []corev1.Container{{Name: "c", Ports: []corev1.ContainerPort{{ContainerPort: 80}, {ContainerPort: 81, HostPort: 8081}}}},
			}),
			want: podSpec(corev1.PodSpec{
				HostNetwork:    true,
				InitContainers: []corev1.Container{{Name: "i", Ports: []corev1.ContainerPort{{ContainerPort: 53, HostPort: 53, Protocol: corev1.ProtocolUDP}}}},
				Containers: []corev1.Container{{Name: "c", Ports: []corev1.ContainerPort{
					{ContainerPort: 80, HostPort: 80, Protocol: corev1.ProtocolTCP},
					{ContainerPort: 81, HostPort: 8081, Protocol: corev1.ProtocolTCP},
				}}},
			}),
		},
		{
			name: "no host ports off the host network",
			pod:  podSpec(corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Ports: []corev1.ContainerPort{{ContainerPort: 80}}}}}),
			want: podSpec(corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Ports: []corev1.ContainerPort{{ContainerPort: 80, Protocol: corev1.ProtocolTCP}}}}}),
		},
		{
			name: "scheduler name",
			pod:  &corev1.Pod{},
			want: &corev1.Pod{Spec: corev1.PodSpec{SchedulerName: "default-scheduler"}},
		},
		{
			name: "another scheduler is kept",
			pod:  &corev1.Pod{Spec: corev1.PodSpec{SchedulerName: "my-scheduler"}},
			want: &corev1.Pod{Spec: corev1.PodSpec{SchedulerName: "my-scheduler"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.pod.DeepCopy()
			DefaultPod(got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("DefaultPod (-want,+got):\n%s", diff)
			}
			again := got.DeepCopy()
			DefaultPod(again)
			if diff := cmp.Diff(got, again); diff != "" {
				t.Errorf("DefaultPod is not idempotent (-once,+twice):\n%s", diff)
			}
		})
	}
}

// TestDefaultPodKeepsStoredPods checks that pods and nodes stored by a v1.36.3
// API server are left exactly as they are, down to the representation of
// their quantities (cmp compares quantities by value only).
func TestDefaultPodKeepsStoredPods(t *testing.T) {
	nodes, pods := decodeStored(t, "testdata/exported.yaml")
	for _, p := range pods {
		got := p.DeepCopy()
		DefaultPod(got)
		if diff := cmp.Diff(p, got); diff != "" {
			t.Errorf("pod %s/%s changed (-stored,+defaulted):\n%s", p.Namespace, p.Name, diff)
		}
		if diff := cmp.Diff(podQuantities(p), podQuantities(got)); diff != "" {
			t.Errorf("pod %s/%s: quantities written differently (-stored,+defaulted):\n%s", p.Namespace, p.Name, diff)
		}
	}
	for _, n := range nodes {
		got := n.DeepCopy()
		DefaultNode(got)
		if diff := cmp.Diff(n, got); diff != "" {
			t.Errorf("node %s changed (-stored,+defaulted):\n%s", n.Name, diff)
		}
	}
}

// podQuantities returns the string form of every quantity in the pod's
// container and pod-level resources, keyed by where it is.
func podQuantities(p *corev1.Pod) map[string]string {
	out := map[string]string{}
	add := func(where string, list corev1.ResourceList) {
		for name, q := range list {
			out[where+"."+string(name)] = q.String()
		}
	}
	for _, c := range append(append([]corev1.Container{}, p.Spec.InitContainers...), p.Spec.Containers...) {
		add(c.Name+".requests", c.Resources.Requests)
		add(c.Name+".limits", c.Resources.Limits)
	}
	if r := p.Spec.Resources; r != nil {
		add("pod.requests", r.Requests)
		add("pod.limits", r.Limits)
	}
	add("overhead", p.Spec.Overhead)
	return out
}

func TestDefaultNode(t *testing.T) {
	tests := []struct {
		name string
		node corev1.NodeStatus
		want corev1.NodeStatus
	}{
		{
			name: "allocatable defaults to capacity",
			node: corev1.NodeStatus{Capacity: rl("cpu", "4", "memory", "8Gi")},
			want: corev1.NodeStatus{Capacity: rl("cpu", "4", "memory", "8Gi"), Allocatable: rl("cpu", "4", "memory", "8Gi")},
		},
		{
			name: "allocatable that is set is kept",
			node: corev1.NodeStatus{Capacity: rl("cpu", "4"), Allocatable: rl("cpu", "3500m")},
			want: corev1.NodeStatus{Capacity: rl("cpu", "4"), Allocatable: rl("cpu", "3500m")},
		},
		{
			name: "no capacity, no allocatable",
			node: corev1.NodeStatus{},
			want: corev1.NodeStatus{},
		},
		{
			name: "rounded up to 1m",
			node: corev1.NodeStatus{Capacity: rl("cpu", "0.0005")},
			want: corev1.NodeStatus{Capacity: rl("cpu", "1m"), Allocatable: rl("cpu", "1m")},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := &corev1.Node{Status: *tc.node.DeepCopy()}
			DefaultNode(got)
			if diff := cmp.Diff(tc.want, got.Status); diff != "" {
				t.Errorf("DefaultNode (-want,+got):\n%s", diff)
			}
			if got.Status.Allocatable != nil && got.Status.Capacity != nil {
				got.Status.Capacity[corev1.ResourceCPU] = resource.MustParse("99")
				if got.Status.Allocatable.Cpu().Equal(resource.MustParse("99")) {
					t.Errorf("allocatable shares its map with capacity")
				}
			}
		})
	}
}

func TestDerivedUID(t *testing.T) {
	// Expected values from Python's uuid.uuid5(derived name space, "namespace/name").
	tests := []struct {
		namespace, name string
		want            types.UID
	}{
		{"default", "web-0", "0c372a9a-bc2c-5d59-923a-e36c1691be6c"},
		{"kube-system", "coredns-1", "7cb3dde8-f574-573a-826e-adca6ac57178"},
		{"", "", "a6f67c79-0587-5982-a73b-76a4aa744280"},
	}
	for _, tc := range tests {
		if got := DerivedUID(tc.namespace, tc.name); got != tc.want {
			t.Errorf("DerivedUID(%q, %q) = %q, want %q", tc.namespace, tc.name, got, tc.want)
		}
	}
}

// TestDefaultFilePod: the namespace "default" when none, a request from the
// limit (DefaultPod), a given namespace kept and the UID left alone.
func TestDefaultFilePod(t *testing.T) {
	p := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{
		Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200m")},
	}}}}}
	DefaultFilePod(p)
	if q := p.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU]; p.Namespace != "default" || q.String() != "200m" || p.UID != "" || p.Spec.SchedulerName != "default-scheduler" {
		t.Errorf("defaulted pod: namespace %q, cpu request %s, UID %q, scheduler %q", p.Namespace, q.String(), p.UID, p.Spec.SchedulerName)
	}
	q := &corev1.Pod{}
	q.Namespace = "apps"
	DefaultFilePod(q)
	if q.Namespace != "apps" {
		t.Errorf("namespace %q, want apps kept", q.Namespace)
	}
}

// TestDefaultPodCopiesSharedContainers: the pod decoder hands the replicas
// of a template one slice of containers; a pod whose defaults change a
// container (a request from a limit, a rounded quantity, a port's
// protocol) gets containers of its own, and the shared slice is unchanged.
// A pod with nothing to change keeps the shared slice.
func TestDefaultPodCopiesSharedContainers(t *testing.T) {
	cases := map[string]corev1.Container{
		"request from limit": container("a", rl("cpu", "100m"), rl("cpu", "100m", "memory", "1Gi")),
		"rounded":            container("a", rl("cpu", "0.0001"), nil),
		"port protocol":      {Name: "a", Ports: []corev1.ContainerPort{{ContainerPort: 80}}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			shared := []corev1.Container{c}
			before := []corev1.Container{*c.DeepCopy()}
			pod := podSpec(corev1.PodSpec{Containers: shared})
			DefaultPod(pod)
			if diff := cmp.Diff(before, shared); diff != "" {
				t.Errorf("the shared containers changed (-before,+after):\n%s", diff)
			}
			if &pod.Spec.Containers[0] == &shared[0] {
				t.Error("the defaulted pod kept the shared slice")
			}
		})
	}
	shared := []corev1.Container{container("a", rl("cpu", "100m"), rl("cpu", "200m"))}
	pod := podSpec(corev1.PodSpec{Containers: shared})
	DefaultPod(pod)
	if &pod.Spec.Containers[0] != &shared[0] {
		t.Error("a pod with nothing to default got a copy of its containers")
	}
}
