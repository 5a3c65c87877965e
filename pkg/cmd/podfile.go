package cmd

import (
	"fmt"
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
)

// podFileHolds is what a --pod-file holds, for the error of one that
// holds none.
const podFileHolds = "Pod or workload (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob)"

// workloadKinds are the kinds a --pod-file may hold besides a Pod.
var workloadKinds = []schema.GroupKind{
	{Group: "apps", Kind: "Deployment"}, {Group: "apps", Kind: "ReplicaSet"}, {Group: "apps", Kind: "StatefulSet"},
	{Group: "apps", Kind: "DaemonSet"}, {Group: "batch", Kind: "Job"}, {Group: "batch", Kind: "CronJob"},
}

// readPodFiles reads the Pods and workloads of --pod-file manifests (with
// the same reader and limits as -f). As kubectl apply -f does, an object
// without metadata.namespace is put in the namespace of -n, else the
// kubeconfig context's, else "default"; one whose own namespace differs
// from an explicit -n is refused in kubectl's words. The pods are
// hypothetical: a UID derived for one without goes unsaid (it keys the pod
// in this run only, the same every run).
func readPodFiles(names []string, stdin io.Reader, in *InputFlags, warnings io.Writer) (*load.Cluster, error) {
	c, err := load.ReadFiles(load.FileOptions{Filenames: names, Stdin: stdin, Limits: in.Limits(), ExtraKinds: workloadKinds, Namespace: in.PodNamespace(), Hypothetical: true,
		Holds: podFileHolds}, warnings)
	if err != nil {
		return nil, fmt.Errorf("--pod-file: %w", err)
	}
	if ns := in.Namespace(); ns != "" {
		for _, p := range c.Pods {
			if err := sameNamespace(p.Namespace, ns); err != nil {
				return nil, err
			}
		}
		for _, obj := range c.Objects {
			if m, err := meta.Accessor(obj); err == nil {
				if err := sameNamespace(m.GetNamespace(), ns); err != nil {
					return nil, err
				}
			}
		}
	}
	warnManifestOverflows(warnings, c)
	return c, nil
}

// warnManifestOverflows warns, as for the pods of -f, about the requests of
// the --pod-file pods and workload templates that kube-scheduler's int64
// arithmetic wraps: these pods never enter the model's pod list.
func warnManifestOverflows(warnings io.Writer, c *load.Cluster) {
	if warnings == nil {
		return
	}
	objs := append([]runtime.Object(nil), c.Objects...)
	for _, p := range c.Pods {
		objs = append(objs, p)
	}
	for _, obj := range objs {
		for _, o := range model.ManifestOverflows(obj) {
			fmt.Fprintln(warnings, load.EscapeLine("warning: "+o.String()))
		}
	}
}

// sameNamespace is kubectl's refusal (cli-runtime's RequireNamespace, v0.36)
// of an object whose namespace is not the one -n names: a usage error, as
// conflicting flags are.
func sameNamespace(own, flag string) error {
	if own == flag {
		return nil
	}
	//nolint:staticcheck // ST1005: kubectl's words, verbatim, full stop included
	return usageError(fmt.Errorf("the namespace from the provided object %q does not match the namespace %q. You must pass '--namespace=%s' to perform this operation.", oneLine(own), oneLine(flag), oneLine(own)))
}

// readPodFile reads the one Pod or workload of a --pod-file (readPodFiles).
// Errors name the file: no pod or workload in it, or more than one.
func readPodFile(name string, stdin io.Reader, in *InputFlags, warnings io.Writer) (*pipeline.Workload, error) {
	c, err := readPodFiles([]string{name}, stdin, in, warnings)
	if err != nil {
		return nil, err
	}
	var found []runtime.Object
	for _, p := range c.Pods {
		found = append(found, p)
	}
	found = append(found, c.Objects...)
	if len(found) != 1 {
		return nil, fmt.Errorf("--pod-file %s: want exactly one non-terminal Pod or workload (%s), found %d", oneLine(name), strings.Join(pipeline.WorkloadKindNames()[1:], ", "), len(found))
	}
	return pipeline.WorkloadOf(found[0])
}
