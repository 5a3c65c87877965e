package gencluster

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Shape varies what the pods look like, so that the reader is measured on
// inputs unlike the default one. Nodes and the placement are the same in
// every shape; only the pods' metadata, templates and statuses change.
type Shape string

const (
	// ShapeDefault is the generator's usual cluster.
	ShapeDefault Shape = ""
	// ShapeLabels gives every pod a long label set (30 more labels, some
	// with a value of its own) and many annotations (20, among them a
	// last-applied-configuration of about 2 KB per workload and a trace id
	// per pod), as Helm- and mesh-managed clusters have.
	ShapeLabels Shape = "labels"
	// ShapeTemplates makes every workload a template of its own with one or
	// two replicas, each container with its own arguments and environment,
	// so that few pods share a spec.
	ShapeTemplates Shape = "templates"
	// ShapeStatus gives running pods large status sections: three readiness
	// gate conditions with messages, and container statuses of restarted
	// containers whose last termination message is a stack trace of 1-2 KB.
	ShapeStatus Shape = "status"
	// ShapeSmall keeps of every pod (DaemonSet pods too) only what the
	// scheduler reads, about 500-700 bytes of compact JSON: up to two
	// labels, the owner reference, the containers' names, images and
	// requests, the node, a priority other than 0, the phase, and the
	// PodScheduled condition and nominated node of pending pods; no
	// managedFields, defaulted spec fields or container statuses. Nodes
	// keep their images. It measures the reader's cost per object, which
	// larger pods hide behind decoding.
	ShapeSmall Shape = "small"
)

// Shapes lists the valid shapes, for flags and errors.
var Shapes = []Shape{ShapeDefault, ShapeLabels, ShapeTemplates, ShapeStatus, ShapeSmall}

func (s Shape) valid() bool {
	for _, v := range Shapes {
		if s == v {
			return true
		}
	}
	return false
}

// templateReplicas is a workload's replica count in ShapeTemplates.
func templateReplicas(g *rng) int { return 1 + g.intN(2) }

// distinctTemplate gives each container of t arguments and environment of
// its own (ShapeTemplates).
func distinctTemplate(g *rng, t *template, workload string) {
	for i := range t.containers {
		c := &t.containers[i].c
		c.Args = []string{"--instance=" + workload, "--shard=" + g.hex(4), fmt.Sprintf("--workers=%d", g.between(1, 64))}
		for k := range 8 {
			c.Env = append(c.Env, v1.EnvVar{Name: fmt.Sprintf("SETTING_%02d", k), Value: g.hex(6 + g.intN(12))})
		}
	}
}

// reshape applies cfg's shape to a pod buildPod made.
func reshape(g *rng, shape Shape, pod *v1.Pod, workloadSeed string) {
	switch shape {
	case ShapeLabels:
		longMetadata(g, pod, workloadSeed)
	case ShapeStatus:
		if pod.Status.Phase == v1.PodRunning {
			largeStatus(g, pod)
		}
	case ShapeSmall:
		*pod = *smallPod(pod)
	}
}

// longMetadata adds labels and annotations (ShapeLabels). workloadSeed is
// the same for all pods of a workload, so that per-workload values repeat
// as a controller stamps them.
func longMetadata(g *rng, pod *v1.Pod, workloadSeed string) {
	labels := make(map[string]string, len(pod.Labels)+30)
	for k, v := range pod.Labels {
		labels[k] = v
	}
	for k := range 20 {
		labels[fmt.Sprintf("team.example.com/attribute-%02d", k)] = fmt.Sprintf("%s-value-%02d", workloadSeed, k)
	}
	for k := range 10 {
		labels[fmt.Sprintf("tracking.example.com/id-%02d", k)] = g.hex(8)
	}
	pod.Labels = labels
	ann := make(map[string]string, len(pod.Annotations)+20)
	for k, v := range pod.Annotations {
		ann[k] = v
	}
	ann["kubectl.kubernetes.io/last-applied-configuration"] = lastApplied(workloadSeed)
	ann["trace.example.com/id"] = g.hex(16)
	ann["checksum/config"] = g.hex(32)
	for k := range 17 {
		ann[fmt.Sprintf("policy.example.com/rule-%02d", k)] = strings.Repeat(workloadSeed+";", 4+k%5)
	}
	pod.Annotations = ann
}

// lastApplied is an applied configuration of about 2 KB for a workload.
func lastApplied(workload string) string {
	var b strings.Builder
	b.WriteString(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"labels":{`)
	for k := range 15 {
		fmt.Fprintf(&b, `"team.example.com/attribute-%02d":"%s-value-%02d",`, k, workload, k)
	}
	fmt.Fprintf(&b, `"app":%q},"name":%q},"spec":{"template":{"spec":{"containers":[{"name":"app","image":"registry.example.com/%s:v1"}]}}}}`, workload, workload, workload)
	return b.String()
}

// largeStatus adds readiness-gate conditions and restarted containers'
// last terminations (ShapeStatus).
func largeStatus(g *rng, pod *v1.Pod) {
	at := metav1.NewTime(pod.CreationTimestamp.Add(60_000_000_000))
	for k := range 3 {
		gate := v1.PodConditionType(fmt.Sprintf("gates.example.com/ready-%d", k))
		pod.Spec.ReadinessGates = append(pod.Spec.ReadinessGates, v1.PodReadinessGate{ConditionType: gate})
		pod.Status.Conditions = append(pod.Status.Conditions, v1.PodCondition{Type: gate, Status: v1.ConditionTrue,
			LastTransitionTime: at, Reason: "TargetRegistered",
			Message: fmt.Sprintf("target %s registered with load balancer lb-%s in target group tg-%s after %d health checks", pod.Name, g.hex(6), g.hex(8), g.between(2, 9))})
	}
	for i := range pod.Status.ContainerStatuses {
		cs := &pod.Status.ContainerStatuses[i]
		cs.RestartCount = int32(g.between(1, 40))
		cs.LastTerminationState.Terminated = &v1.ContainerStateTerminated{ExitCode: 2, Reason: "Error",
			StartedAt: pod.CreationTimestamp, FinishedAt: at, ContainerID: "containerd://" + g.hex(32),
			Message: stackTrace(g, cs.Name)}
	}
}

// stackTrace is a termination message of 1-2 KB, different per container.
func stackTrace(g *rng, container string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "panic: runtime error: invalid memory address or nil pointer dereference in %s\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x%s]\n\ngoroutine %d [running]:\n", container, g.hex(4), g.between(1, 9999))
	for f := range 8 + g.intN(8) {
		fmt.Fprintf(&b, "example.com/service/internal/handler.(*Server).step%d(0x%s, 0x%s)\n\t/src/internal/handler/server.go:%d +0x%x\n", f, g.hex(6), g.hex(6), g.between(10, 900), g.intN(4096))
	}
	return b.String()
}
