package cmd

import (
	"fmt"
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/internal/load"
)

// workloadKinds are the kinds a --pod-file may hold besides a Pod.
var workloadKinds = []schema.GroupKind{
	{Group: "apps", Kind: "Deployment"}, {Group: "apps", Kind: "ReplicaSet"}, {Group: "apps", Kind: "StatefulSet"},
	{Group: "apps", Kind: "DaemonSet"}, {Group: "batch", Kind: "Job"}, {Group: "batch", Kind: "CronJob"},
}

// readPodFile reads the one Pod or workload of a --pod-file (with the same
// reader and limits as -f). Errors name the file: no pod or workload in it,
// or more than one.
func readPodFile(name string, stdin io.Reader, limits load.Limits, warnings io.Writer) (*decide.Workload, error) {
	// The pod is hypothetical: the UID derived for it when it has none
	// goes unsaid (it keys the pod in this run only, the same every run).
	c, err := load.ReadFiles(load.FileOptions{Filenames: []string{name}, Stdin: stdin, Limits: limits, ExtraKinds: workloadKinds, Hypothetical: true}, warnings)
	if err != nil {
		return nil, err
	}
	var found []runtime.Object
	for _, p := range c.Pods {
		found = append(found, p)
	}
	found = append(found, c.Objects...)
	if len(found) != 1 {
		return nil, fmt.Errorf("--pod-file %s: want exactly one non-terminal Pod or workload (%s), found %d", oneLine(name), strings.Join(decide.WorkloadKinds[1:], ", "), len(found))
	}
	return decide.WorkloadOf(found[0])
}
