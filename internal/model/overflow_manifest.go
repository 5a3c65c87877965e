package model

import (
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// ManifestOverflows lists the quantities of a hypothetical pod (a
// --pod-file Pod) or of a workload's pod template (Deployment, ReplicaSet,
// StatefulSet, DaemonSet, Job, CronJob) that kube-scheduler's int64
// arithmetic wraps, and their sums, as Overflows does for the pods of the
// input: such a pod never enters the model's pod list, yet its requests
// are counted the same way. Object names the pod ("pod ns/p") or the
// workload ("deployment ns/web", fields under "spec.template."); Node is
// empty. Any other object: none.
func ManifestOverflows(obj runtime.Object) []Overflow {
	pod, object, prefix := manifestPod(obj)
	if pod == nil {
		return nil
	}
	out := podFieldOverflows(nil, object, prefix, "", pod)
	for _, o := range podSumOverflows(pod) {
		o.Object, o.Node = object, ""
		out = append(out, o)
	}
	return out
}

// manifestPod returns the pod of obj (itself or its template, as a pod),
// the name of obj in warnings and the prefix of its pod's fields.
func manifestPod(obj runtime.Object) (*v1.Pod, string, string) {
	var template *v1.PodTemplateSpec
	var kind, ns, name, prefix string
	switch o := obj.(type) {
	case *v1.Pod:
		return o, "pod " + o.Namespace + "/" + o.Name, ""
	case *appsv1.Deployment:
		template, kind, ns, name = &o.Spec.Template, "Deployment", o.Namespace, o.Name
	case *appsv1.ReplicaSet:
		template, kind, ns, name = &o.Spec.Template, "ReplicaSet", o.Namespace, o.Name
	case *appsv1.StatefulSet:
		template, kind, ns, name = &o.Spec.Template, "StatefulSet", o.Namespace, o.Name
	case *appsv1.DaemonSet:
		template, kind, ns, name = &o.Spec.Template, "DaemonSet", o.Namespace, o.Name
	case *batchv1.Job:
		template, kind, ns, name = &o.Spec.Template, "Job", o.Namespace, o.Name
	case *batchv1.CronJob:
		template, kind, ns, name, prefix = &o.Spec.JobTemplate.Spec.Template, "CronJob", o.Namespace, o.Name, "spec.jobTemplate."
	default:
		return nil, "", ""
	}
	pod := &v1.Pod{ObjectMeta: template.ObjectMeta, Spec: template.Spec}
	pod.Namespace, pod.Name = ns, name
	return pod, strings.ToLower(kind) + " " + ns + "/" + name, prefix + "spec.template."
}
