package cmd

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/schedcache/kubectl-schedcache/internal/load"
)

// schedulerNamespace is where --from-pod looks when neither it nor -n names
// a namespace: kube-scheduler runs there in kubeadm and most distributions.
const schedulerNamespace = "kube-system"

// defaultContainerAnnotation is kubectl's: the container "kubectl logs"
// reads when the pod has several and none is named.
const defaultContainerAnnotation = "kubectl.kubernetes.io/default-container"

// podLog opens the --from-pod log stream through the pods/log subresource
// (GET, the only permission it needs besides "get pods" to find the
// container). It returns the stream and "NAMESPACE/NAME".
func (o *CompareOptions) podLog(ctx context.Context) (io.ReadCloser, string, error) {
	ns, name, ok := strings.Cut(o.FromPod, "/")
	if !ok {
		name, ns = ns, schedulerNamespace
		if f := o.Input.ConfigFlags.Namespace; f != nil && *f != "" {
			ns = *f
		}
	}
	if ns == "" || name == "" || strings.Contains(name, "/") {
		return nil, "", usageError(fmt.Errorf("--from-pod %q: want [NAMESPACE/]NAME", o.FromPod))
	}
	ref := oneLine(ns + "/" + name)
	client, host, err := o.Input.client(o.ErrOut)
	if err != nil {
		return nil, "", err
	}
	container := o.Container
	if container == "" {
		if container, err = defaultContainer(ctx, client, ns, name); err != nil {
			return nil, "", orUnreached(err, host)
		}
	}
	opts := &v1.PodLogOptions{Container: container, Previous: o.Previous}
	if o.Since > 0 {
		secs := int64(math.Ceil(o.Since.Seconds()))
		opts.SinceSeconds = &secs
	}
	rc, err := client.CoreV1().Pods(ns).GetLogs(name, opts).Stream(ctx)
	if err != nil {
		return nil, "", orUnreached(podLogError(err, ref, "get", "pods/log"), host)
	}
	return rc, ref, nil
}

// orUnreached is err as the listing would report it when the server at
// host could not be reached (exit code ExitUnreachable), else err.
func orUnreached(err error, host string) error {
	if u := load.Unreached(err, host); u != nil {
		return u
	}
	return err
}

// defaultContainer picks the container as "kubectl logs" does: the only one,
// or the one the default-container annotation names. When the pod cannot be
// read (no "get pods" permission) it returns "" and lets the API server
// decide, which works for single-container pods.
func defaultContainer(ctx context.Context, client kubernetes.Interface, ns, name string) (string, error) {
	pod, err := client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
	switch {
	case apierrors.IsForbidden(err):
		return "", nil
	case err != nil:
		return "", podLogError(err, ns+"/"+name, "get", "pods")
	}
	if len(pod.Spec.Containers) == 1 {
		return pod.Spec.Containers[0].Name, nil
	}
	if c := pod.Annotations[defaultContainerAnnotation]; c != "" {
		return c, nil
	}
	var names []string
	for _, c := range pod.Spec.Containers {
		names = append(names, c.Name)
	}
	return "", usageError(fmt.Errorf("pod %s has containers %s: choose one with -c", oneLine(ns+"/"+name), oneLine(strings.Join(names, ", "))))
}

// podLogError explains a failed request for pod ref: a missing permission
// with the rule that grants it, a missing pod, or the server's message.
func podLogError(err error, ref, verb, resource string) error {
	ns, _, _ := strings.Cut(ref, "/")
	switch {
	case apierrors.IsForbidden(err):
		return fmt.Errorf("cannot %s %s of pod %s: %v\nThe rule that allows it, in a Role of namespace %s:\n"+
			"- apiGroups: [\"\"]\n  resources: [%q]\n  verbs: [%q]", verb, resource, ref, err, ns, resource, verb)
	case apierrors.IsNotFound(err):
		return fmt.Errorf("pod %s not found (kube-scheduler pods are usually kube-system/kube-scheduler-<node>)", ref)
	}
	return fmt.Errorf("%s %s of pod %s: %w", verb, resource, ref, err)
}
