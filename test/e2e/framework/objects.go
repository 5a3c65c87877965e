package framework

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// Resources builds a ResourceList from name/quantity pairs, e.g.
// Resources("cpu", "2", "memory", "4Gi", "pods", "110"). It panics on an odd
// argument count or a bad quantity: those are mistakes in the test itself.
func Resources(pairs ...string) corev1.ResourceList {
	if len(pairs)%2 != 0 {
		panic(fmt.Sprintf("Resources: odd number of arguments %q", pairs))
	}
	rl := corev1.ResourceList{}
	for i := 0; i < len(pairs); i += 2 {
		rl[corev1.ResourceName(pairs[i])] = resource.MustParse(pairs[i+1])
	}
	return rl
}

// NewNode returns a Ready node whose capacity and allocatable are both
// allocatable, labelled like a kubelet would label it. Tests adjust the
// returned object (labels, images, taints, capacity) before creating it.
func NewNode(name string, allocatable corev1.ResourceList) *corev1.Node {
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name:   name,
			Labels: map[string]string{"kubernetes.io/hostname": name, "kubernetes.io/os": "linux"},
		},
		Status: corev1.NodeStatus{
			Capacity:    allocatable.DeepCopy(),
			Allocatable: allocatable.DeepCopy(),
			Conditions: []corev1.NodeCondition{{
				Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady",
				LastHeartbeatTime: metav1.Now(), LastTransitionTime: metav1.Now(),
			}},
		},
	}
}

// NewPod returns a single-container pod requesting requests. With a
// nodeName it is bound on creation (no scheduler involved); with "" it waits
// for a scheduler. Its grace period is 0 because no kubelet will ever
// confirm a graceful deletion: a plain Delete removes it at once.
func NewPod(namespace, name, nodeName string, requests corev1.ResourceList) *corev1.Pod {
	var zero int64
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, Labels: map[string]string{"app": "schedcache-e2e"}},
		Spec: corev1.PodSpec{
			NodeName:                      nodeName,
			TerminationGracePeriodSeconds: &zero,
			Containers: []corev1.Container{{
				Name:      "app",
				Image:     "registry.k8s.io/pause:3.10",
				Resources: corev1.ResourceRequirements{Requests: requests.DeepCopy()},
			}},
		},
	}
}

// CreateNode creates node as admin. Unlike for pods, the apiserver keeps the
// status sent in a node's CREATE body (capacity, allocatable, images, ...).
func (c *Cluster) CreateNode(ctx context.Context, node *corev1.Node) (*corev1.Node, error) {
	return createNode(ctx, c.admin, node)
}

// CreatePod creates pod as admin and, if it carries a status, writes that
// through the status subresource (see SetPodStatus).
func (c *Cluster) CreatePod(ctx context.Context, pod *corev1.Pod) (*corev1.Pod, error) {
	return createPod(ctx, c.admin, pod)
}

// SetPodStatus writes pod.Status (phase, containerStatuses including
// resources for in-place resize, nominatedNodeName, conditions, ...) through
// the status subresource as admin, and returns the stored pod.
func (c *Cluster) SetPodStatus(ctx context.Context, pod *corev1.Pod) (*corev1.Pod, error) {
	return setPodStatus(ctx, c.admin, pod)
}

func createNode(ctx context.Context, client kubernetes.Interface, node *corev1.Node) (*corev1.Node, error) {
	created, err := client.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{})
	if err != nil {
		return nil, fmt.Errorf("create node %s: %w", node.Name, err)
	}
	return created, nil
}

func createPod(ctx context.Context, client kubernetes.Interface, pod *corev1.Pod) (*corev1.Pod, error) {
	created, err := client.CoreV1().Pods(pod.Namespace).Create(ctx, pod, metav1.CreateOptions{})
	if err != nil {
		return nil, fmt.Errorf("create pod %s/%s: %w", pod.Namespace, pod.Name, err)
	}
	if !hasStatus(pod) {
		return created, nil
	}
	// The create dropped pod.Status (the apiserver resets it to Pending), so
	// send the caller's status on top of the created object.
	withStatus := created.DeepCopy()
	withStatus.Status = *pod.Status.DeepCopy()
	return setPodStatus(ctx, client, withStatus)
}

func setPodStatus(ctx context.Context, client kubernetes.Interface, pod *corev1.Pod) (*corev1.Pod, error) {
	p := pod.DeepCopy()
	// Pods allow unconditional updates: with no resourceVersion the status is
	// written whatever the stored version is, so callers need no GET first
	// and a loader does one request per pod.
	p.ResourceVersion = ""
	// The body replaces the whole status. A pod without kubelet is Pending,
	// so keep that rather than storing an empty phase. (An empty qosClass is
	// backfilled by the apiserver.)
	if p.Status.Phase == "" {
		p.Status.Phase = corev1.PodPending
	}
	updated, err := client.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, p, metav1.UpdateOptions{})
	if err != nil {
		return nil, fmt.Errorf("update status of pod %s/%s: %w", p.Namespace, p.Name, err)
	}
	return updated, nil
}

// hasStatus reports whether pod carries status a create would drop.
func hasStatus(pod *corev1.Pod) bool {
	s := &pod.Status
	return (s.Phase != "" && s.Phase != corev1.PodPending) ||
		len(s.Conditions) > 0 || len(s.ContainerStatuses) > 0 || len(s.InitContainerStatuses) > 0 ||
		s.NominatedNodeName != "" || s.Message != "" || s.Reason != ""
}
