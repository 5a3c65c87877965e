package load

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// BenchmarkReadFiles reads one `kubectl get nodes,pods -A -o json`-style v1
// List of 1,000 nodes and 30,000 pods (about the size of a 1,000-node
// cluster), written once to a temporary file.
func BenchmarkReadFiles(b *testing.B) {
	const nodes, pods = 1000, 30000
	path := filepath.Join(b.TempDir(), "cluster.json")
	writeClusterList(b, path, nodes, pods)
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	b.ReportAllocs()
	for b.Loop() {
		c, err := ReadFiles(FileOptions{Filenames: []string{path}}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if len(c.Nodes) != nodes || len(c.Pods) != pods {
			b.Fatalf("read %d nodes and %d pods, want %d and %d", len(c.Nodes), len(c.Pods), nodes, pods)
		}
	}
}

// writeClusterList writes a v1 List of nodes and pods, shaped like stored
// objects (UIDs, labels, owner references, requests, status), as JSON.
func writeClusterList(tb testing.TB, path string, nodes, pods int) {
	tb.Helper()
	items := make([]any, 0, nodes+pods)
	for i := range nodes {
		items = append(items, benchNode(i))
	}
	for i := range pods {
		items = append(items, benchPod(i, fmt.Sprintf("node-%04d", i%nodes)))
	}
	data, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{}, "items": items})
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
}

func benchNode(i int) *corev1.Node {
	capacity := corev1.ResourceList{
		corev1.ResourceCPU:              resource.MustParse("16"),
		corev1.ResourceMemory:           resource.MustParse("64Gi"),
		corev1.ResourceEphemeralStorage: resource.MustParse("100Gi"),
		corev1.ResourcePods:             resource.MustParse("110"),
	}
	name := fmt.Sprintf("node-%04d", i)
	return &corev1.Node{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: metav1.ObjectMeta{
			Name: name,
			UID:  types.UID(fmt.Sprintf("00000000-0000-4000-8000-%012d", i)),
			Labels: map[string]string{
				"kubernetes.io/hostname":      name,
				"topology.kubernetes.io/zone": fmt.Sprintf("zone-%d", i%3),
			},
		},
		Spec: corev1.NodeSpec{PodCIDR: "10.0.0.0/24"},
		Status: corev1.NodeStatus{
			Capacity:    capacity,
			Allocatable: capacity,
			Conditions:  []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady"}},
			Images:      []corev1.ContainerImage{{Names: []string{"registry.k8s.io/pause:3.10"}, SizeBytes: 320000}},
		},
	}
}

func benchPod(i int, node string) *corev1.Pod {
	name := fmt.Sprintf("app-%05d", i)
	return &corev1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      name,
			Namespace: fmt.Sprintf("ns-%d", i%20),
			UID:       types.UID(fmt.Sprintf("10000000-0000-4000-8000-%012d", i)),
			Labels:    map[string]string{"app": fmt.Sprintf("app-%d", i%50), "pod-template-hash": "5d8f9c7b6"},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "apps/v1", Kind: "ReplicaSet", Name: fmt.Sprintf("app-%d-5d8f9c7b6", i%50),
				UID: types.UID(fmt.Sprintf("20000000-0000-4000-8000-%012d", i%50)),
			}},
		},
		Spec: corev1.PodSpec{
			NodeName:      node,
			SchedulerName: corev1.DefaultSchedulerName,
			Containers: []corev1.Container{{
				Name:  "app",
				Image: "registry.example.com/app:1.0",
				Ports: []corev1.ContainerPort{{ContainerPort: 8080, Protocol: corev1.ProtocolTCP}},
				Resources: corev1.ResourceRequirements{
					Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
					Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("256Mi")},
				},
			}},
			Tolerations: []corev1.Toleration{{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute}},
		},
		Status: corev1.PodStatus{
			Phase:  corev1.PodRunning,
			PodIP:  "10.0.0.1",
			HostIP: "192.168.0.1",
			ContainerStatuses: []corev1.ContainerStatus{{
				Name: "app", Ready: true, Image: "registry.example.com/app:1.0", ImageID: "sha256:0123456789abcdef",
			}},
		},
	}
}
