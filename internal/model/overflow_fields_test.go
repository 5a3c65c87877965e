package model

import (
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// overflowFieldCases: one quantity past int64 (in the scheduler's unit:
// millicores for cpu, units otherwise) in each field kube-scheduler v1.36
// reads for a pod's requests (component-helpers PodRequests with in-place
// resize on for containers, sidecars and the pod level, as
// cache.DefaultFeatureGates), the rest of the pod small. A status list is
// read only when the container's status reports resources, so each status
// case carries status.resources.
func overflowFieldCases() []struct {
	field    string
	resource v1.ResourceName
	pod      func(big v1.ResourceList) *v1.Pod
} {
	small := v1.ResourceList{v1.ResourceCPU: resource.MustParse("100m"), v1.ResourceMemory: resource.MustParse("1Gi")}
	base := func() *v1.Pod {
		p := pod("p", "n1", "")
		p.Spec.Containers = []v1.Container{{Name: "c", Resources: v1.ResourceRequirements{Requests: small}}}
		return p
	}
	sidecar := func(reqs v1.ResourceList) v1.Container {
		return v1.Container{Name: "s", RestartPolicy: ptr.To(v1.ContainerRestartPolicyAlways), Resources: v1.ResourceRequirements{Requests: reqs}}
	}
	status := func(name string, requests, allocated v1.ResourceList) v1.ContainerStatus {
		return v1.ContainerStatus{Name: name, Resources: &v1.ResourceRequirements{Requests: requests}, AllocatedResources: allocated}
	}
	type tc = struct {
		field    string
		resource v1.ResourceName
		pod      func(big v1.ResourceList) *v1.Pod
	}
	return []tc{
		{"spec.containers[0].resources.requests", v1.ResourceCPU, func(big v1.ResourceList) *v1.Pod {
			p := base()
			p.Spec.Containers[0].Resources.Requests = big
			return p
		}},
		{"spec.containers[1].resources.requests", v1.ResourceEphemeralStorage, func(big v1.ResourceList) *v1.Pod {
			p := base()
			p.Spec.Containers = append(p.Spec.Containers, v1.Container{Name: "d", Resources: v1.ResourceRequirements{Requests: big}})
			return p
		}},
		{"spec.containers[0].resources.requests", "example.com/foo", func(big v1.ResourceList) *v1.Pod {
			p := base()
			p.Spec.Containers[0].Resources.Requests = big
			return p
		}},
		{"spec.initContainers[0].resources.requests", v1.ResourceCPU, func(big v1.ResourceList) *v1.Pod {
			p := base()
			p.Spec.InitContainers = []v1.Container{{Name: "i", Resources: v1.ResourceRequirements{Requests: big}}}
			return p
		}},
		{"spec.initContainers[0].resources.requests", v1.ResourceEphemeralStorage, func(big v1.ResourceList) *v1.Pod {
			p := base()
			p.Spec.InitContainers = []v1.Container{sidecar(big)}
			return p
		}},
		{"spec.overhead", v1.ResourceCPU, func(big v1.ResourceList) *v1.Pod {
			p := pod("p", "n1", "") // the pod: no containers at all
			p.Spec.Overhead = big
			return p
		}},
		{"spec.resources.requests", v1.ResourceMemory, func(big v1.ResourceList) *v1.Pod {
			p := base()
			p.Spec.Resources = &v1.ResourceRequirements{Requests: big}
			return p
		}},
		{"status.containerStatuses[0].resources.requests", v1.ResourceCPU, func(big v1.ResourceList) *v1.Pod {
			p := base()
			p.Status.ContainerStatuses = []v1.ContainerStatus{status("c", big, small)}
			return p
		}},
		{"status.containerStatuses[0].allocatedResources", v1.ResourceMemory, func(big v1.ResourceList) *v1.Pod {
			p := base()
			p.Status.ContainerStatuses = []v1.ContainerStatus{status("c", small, big)}
			return p
		}},
		{"status.initContainerStatuses[0].allocatedResources", v1.ResourceEphemeralStorage, func(big v1.ResourceList) *v1.Pod {
			p := base()
			p.Spec.InitContainers = []v1.Container{sidecar(small)}
			p.Status.InitContainerStatuses = []v1.ContainerStatus{status("s", small, big)}
			return p
		}},
		{"status.resources.requests", v1.ResourceCPU, func(big v1.ResourceList) *v1.Pod {
			p := base()
			p.Spec.Resources = &v1.ResourceRequirements{Requests: small}
			p.Status.Resources = &v1.ResourceRequirements{Requests: big}
			return p
		}},
		{"status.allocatedResources", v1.ResourceMemory, func(big v1.ResourceList) *v1.Pod {
			p := base()
			p.Spec.Resources = &v1.ResourceRequirements{Requests: small}
			p.Status.Resources = &v1.ResourceRequirements{Requests: small}
			p.Status.AllocatedResources = big
			return p
		}},
	}
}

// pastInt64 is a quantity of name past int64 in the scheduler's unit: 1e30
// cores or 1e19 units. Alone in its resource, the scheduler's count of it
// is 0: apimachinery's Quantity.MilliValue/Value answer 0 for a value that
// does not fit (int64Amount.AsScaledInt64). (A binary suffix cannot say it:
// ParseQuantity clamps 10Ei to 2^63−1.)
func pastInt64(name v1.ResourceName) resource.Quantity {
	if name == v1.ResourceCPU {
		return resource.MustParse("1e30")
	}
	return resource.MustParse("1e19")
}

// countOf is the model's count of name for pod (kube-scheduler v1.36).
func countOf(pod *v1.Pod, name v1.ResourceName) int64 {
	r := cache.ComputePodResource(pod, cache.DefaultFeatureGates()).Resource
	switch name {
	case v1.ResourceCPU:
		return r.MilliCPU
	case v1.ResourceMemory:
		return r.Memory
	case v1.ResourceEphemeralStorage:
		return r.EphemeralStorage
	}
	return r.ScalarResources[name]
}

// TestEveryRequestFieldOverflowWarns: a value past int64 in any field the
// model's requests read is warned about, naming the pod and the field,
// whether the pod is in the input (Overflows, as -f gives it) or a
// --pod-file pod or workload template (ManifestOverflows); the wrapped
// number the warning gives is the one the model counts (so the field
// really reaches it: each case's resource has no other contribution, and
// 1e15 in the field counts), and the node's cell is marked.
func TestEveryRequestFieldOverflowWarns(t *testing.T) {
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}, Status: v1.NodeStatus{Allocatable: v1.ResourceList{
		v1.ResourceCPU: resource.MustParse("4"), v1.ResourceMemory: resource.MustParse("16Gi"), v1.ResourcePods: resource.MustParse("110")}}}
	for _, tc := range overflowFieldCases() {
		t.Run(tc.field+"."+string(tc.resource), func(t *testing.T) {
			q := pastInt64(tc.resource)
			p := tc.pod(v1.ResourceList{tc.resource: q})
			field := tc.field + "." + string(tc.resource)
			want := fmt.Sprintf("pod ns/p: %s is %s, beyond the int64", field, q.String())

			counted := countOf(p, tc.resource)
			if counted != 0 {
				t.Errorf("the model counts %d, want the wrapped 0", counted)
			}
			// The field reaches the model: 1e15 there (more than every
			// other quantity of the case) is counted.
			fits, unit := countOf(tc.pod(v1.ResourceList{tc.resource: resource.MustParse("1e15")}), tc.resource), int64(1e15)
			if tc.resource == v1.ResourceCPU {
				unit *= 1000
			}
			if fits < unit {
				t.Errorf("with 1e15 in the field the model counts %d: the field does not reach it", fits)
			}

			m, err := Build(&load.Cluster{Nodes: []*v1.Node{node}, Pods: []*v1.Pod{p}}, cache.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := m.Overflows()
			if len(got) != 1 || !strings.HasPrefix(got[0].String(), want) || got[0].Wrapped != counted {
				t.Errorf("-f: overflows %v, want one %q… wrapping to %d", got, want, counted)
			}
			if marks := m.OverflowsByNode()["n1"]; strings.Join(marks, ",") != string(tc.resource) {
				t.Errorf("node marks %v, want %s", marks, tc.resource)
			}

			file := p.DeepCopy()
			file.Spec.NodeName = ""
			if got := ManifestOverflows(file); len(got) != 1 || !strings.HasPrefix(got[0].String(), want) {
				t.Errorf("--pod-file: overflows %v, want one %q…", got, want)
			}
			if strings.HasPrefix(tc.field, "spec.") {
				d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web"},
					Spec: appsv1.DeploymentSpec{Template: v1.PodTemplateSpec{Spec: file.Spec}}}
				wantD := fmt.Sprintf("deployment ns/web: spec.template.%s is %s", field, q.String())
				if got := ManifestOverflows(d); len(got) != 1 || !strings.HasPrefix(got[0].String(), wantD) {
					t.Errorf("--pod-file Deployment: overflows %v, want one %q…", got, wantD)
				}
			}
		})
	}
}

// TestStatusNotReadWithoutResources: a container status that reports no
// resources is not read by PodRequests, so its allocatedResources past
// int64 changes nothing and is not warned about.
func TestStatusNotReadWithoutResources(t *testing.T) {
	p := requesting("p", v1.ResourceList{v1.ResourceCPU: resource.MustParse("100m")})
	p.Status.ContainerStatuses = []v1.ContainerStatus{{Name: "c", AllocatedResources: v1.ResourceList{v1.ResourceCPU: resource.MustParse("1e30")}}}
	if r := cache.ComputePodResource(p, cache.DefaultFeatureGates()).Resource; r.MilliCPU != 100 {
		t.Fatalf("the model counts %dm, want 100m: the status is read after all", r.MilliCPU)
	}
	if got := ManifestOverflows(p); len(got) != 0 {
		t.Errorf("overflows %v, want none", got)
	}
}
