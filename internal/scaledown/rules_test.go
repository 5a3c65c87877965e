package scaledown

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// Each rule of cluster-autoscaler's drainability (simulator/drainability/
// rules, FAQ "What types of pods can prevent CA from removing a node?"),
// one pod on n1 each; n2 (8 CPU, empty) could take any of them.
func TestBlockingRules(t *testing.T) {
	annotated := func(p *v1.Pod, v string) *v1.Pod {
		p.Annotations = map[string]string{SafeToEvictAnnotation: v}
		return p
	}
	withVolume := func(p *v1.Pod, src v1.VolumeSource) *v1.Pod {
		p.Spec.Volumes = []v1.Volume{{Name: "data", VolumeSource: src}}
		return p
	}
	emptyDir := v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}
	hostPath := v1.VolumeSource{HostPath: &v1.HostPathVolumeSource{Path: "/var"}}
	mirror := pod("kube-system", "etcd", "n1", "100m", "")
	mirror.Annotations = map[string]string{v1.MirrorPodAnnotationKey: "x"}
	localSafe := withVolume(pod("shop", "p", "n1", "100m", "ReplicaSet/p"), emptyDir)
	localSafe.Annotations = map[string]string{SafeToEvictLocalVolumesAnnotation: "data"}
	for _, tc := range []struct {
		name    string
		pod     *v1.Pod
		objects []runtime.Object
		edit    func(*Options)
		want    string
		message string
	}{
		{name: "no controller", pod: pod("shop", "p", "n1", "100m", ""), want: "n1:blocked:p:NotReplicated", message: "no controller recreates it"},
		{name: "no controller, safe-to-evict", pod: annotated(pod("shop", "p", "n1", "100m", ""), "true"), want: "n1:removable"},
		{name: "custom controller", pod: pod("shop", "p", "n1", "100m", "Rollout/r"), want: "n1:blocked:p:NotReplicated",
			message: "its controller Rollout r is not one cluster-autoscaler knows to recreate it"},
		{name: "custom controller allowed", pod: pod("shop", "p", "n1", "100m", "Rollout/r"), edit: func(o *Options) { o.SkipNodesWithCustomControllerPods = false }, want: "n1:removable"},
		{name: "kube-system without budget", pod: pod("kube-system", "p", "n1", "100m", "ReplicaSet/p"), want: "n1:blocked:p:UnmovableKubeSystemPod",
			message: "a kube-system pod without a PodDisruptionBudget"},
		{name: "kube-system with budget", pod: pod("kube-system", "p", "n1", "100m", "ReplicaSet/p"), objects: []runtime.Object{pdb("kube-system", "p", "p", 1)}, want: "n1:removable"},
		{name: "kube-system with an exhausted budget", pod: pod("kube-system", "p", "n1", "100m", "ReplicaSet/p"), objects: []runtime.Object{pdb("kube-system", "p", "p", 0)}, want: "n1:blocked:p:NotEnoughPdb"},
		{name: "kube-system, switch off", pod: pod("kube-system", "p", "n1", "100m", "ReplicaSet/p"), edit: func(o *Options) { o.SkipNodesWithSystemPods = false }, want: "n1:removable"},
		{name: "kube-system DaemonSet", pod: pod("kube-system", "p", "n1", "100m", "DaemonSet/p"), want: "n1:removable"},
		{name: "mirror pod", pod: mirror, want: "n1:removable"},
		{name: "safe-to-evict false", pod: annotated(pod("shop", "p", "n1", "100m", "ReplicaSet/p"), "false"), want: "n1:blocked:p:NotSafeToEvictAnnotation"},
		{name: "emptyDir", pod: withVolume(pod("shop", "p", "n1", "100m", "ReplicaSet/p"), emptyDir), want: "n1:blocked:p:LocalStorageRequested",
			message: `local storage in volume "data" (emptyDir or hostPath)`},
		{name: "hostPath", pod: withVolume(pod("shop", "p", "n1", "100m", "ReplicaSet/p"), hostPath), want: "n1:blocked:p:LocalStorageRequested"},
		{name: "emptyDir, safe-to-evict", pod: annotated(withVolume(pod("shop", "p", "n1", "100m", "ReplicaSet/p"), emptyDir), "true"), want: "n1:removable"},
		{name: "emptyDir, safe-to-evict-local-volumes", pod: localSafe, want: "n1:removable"},
		{name: "emptyDir, switch off", pod: withVolume(pod("shop", "p", "n1", "100m", "ReplicaSet/p"), emptyDir), edit: func(o *Options) { o.SkipNodesWithLocalStorage = false }, want: "n1:removable"},
		{name: "budget allows none", pod: pod("shop", "p", "n1", "100m", "ReplicaSet/p"), objects: []runtime.Object{pdb("shop", "p", "p", 0)}, want: "n1:blocked:p:NotEnoughPdb",
			message: "PodDisruptionBudget shop/p allows 0 more disruptions, 1 pod to move"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := plan(t, []*v1.Node{node("n1", "4", nil), node("n2", "8", nil)}, []*v1.Pod{tc.pod}, tc.objects, func(in *Input) {
				in.Nodes = []string{"n1"}
				if tc.edit != nil {
					tc.edit(&in.Options)
				}
			})
			if got := summary(out); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
			if got := out.Nodes[0].Message; tc.message != "" && got != tc.message {
				t.Errorf("message %q, want %q", got, tc.message)
			}
		})
	}
}

// Utilization (simulator/utilization): n1 has 4 CPU and 8Gi; app requests
// 1 CPU and 2Gi, the DaemonSet pod 1 CPU, the mirror pod 1 CPU. cpu =
// 3/4 = 0.75, memory = 2/8 = 0.25; without DaemonSet pods 2/4 = 0.5,
// without both 1/4 = 0.25 (a tie with memory: cpu is named). A GPU node's
// utilization is its GPU's: 1 of 4 = 0.25. The requests are the cache's.
func TestUtilization(t *testing.T) {
	app := pod("shop", "app", "n1", "1", "ReplicaSet/app")
	app.Spec.Containers[0].Resources.Requests[v1.ResourceMemory] = resource.MustParse("2Gi")
	ds := pod("kube-system", "ds", "n1", "1", "DaemonSet/ds")
	mirror := pod("kube-system", "static", "n1", "1", "")
	mirror.Annotations = map[string]string{v1.MirrorPodAnnotationKey: "x"}
	gpu := node("g1", "4", nil)
	gpu.Status.Allocatable[GPUResource] = resource.MustParse("4")
	train := pod("ml", "train", "g1", "3", "Job/train")
	train.Spec.Containers[0].Resources.Requests[GPUResource] = resource.MustParse("1")
	big := pod("shop", "big", "m1", "1", "ReplicaSet/big")
	big.Spec.Containers[0].Resources.Requests[v1.ResourceMemory] = resource.MustParse("6Gi")
	m, err := model.Build(&load.Cluster{Nodes: []*v1.Node{node("n1", "4", nil), gpu, node("m1", "4", nil)},
		Pods: []*v1.Pod{app, ds, mirror, train, big}}, cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	utilization := func(name string, opts Options) Utilization {
		ni, _ := m.Cache.GetNodeInfo(name)
		return utilizationOf(ni.Node(), ni.Pods, &opts)
	}
	for _, tc := range []struct {
		opts     Options
		value    float64
		resource v1.ResourceName
	}{
		{Options{}, 0.75, v1.ResourceCPU},
		{Options{IgnoreDaemonSetsUtilization: true}, 0.5, v1.ResourceCPU},
		{Options{IgnoreDaemonSetsUtilization: true, IgnoreMirrorPodsUtilization: true}, 0.25, v1.ResourceCPU},
	} {
		u := utilization("n1", tc.opts)
		if u.Value != tc.value || u.Resource != tc.resource || u.Memory != 0.25 {
			t.Errorf("%+v: got %+v, want %v of %s, memory 0.25", tc.opts, u, tc.value, tc.resource)
		}
	}
	if u := utilization("g1", Options{}); u.Value != 0.25 || u.Resource != GPUResource || u.CPU != 0.75 {
		t.Errorf("GPU node: got %+v, want 0.25 of %s (cpu 0.75 not counted)", u, GPUResource)
	}
	if u := utilization("m1", Options{}); u.Value != 0.75 || u.Resource != v1.ResourceMemory {
		t.Errorf("memory-heavy node: got %+v, want 0.75 of memory", u)
	}
}
