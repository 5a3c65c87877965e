package cmd

import (
	"errors"
	"fmt"
	"io"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	"github.com/schedcache/kubectl-schedcache/internal/simulate/script"
)

// readScript reads and parses --script; a mistake in it exits 2.
func (o *SimulateOptions) readScript() ([]script.Step, error) {
	if o.Script == "" {
		return nil, nil
	}
	name := oneLine(o.Script)
	if o.Script == "-" {
		name = load.StdinSource
	}
	// Read no more than a script may hold, whatever --max-document-size.
	data, err := load.ReadFile(o.Script, o.In, load.Limits{MaxDocumentBytes: script.MaxBytes})
	if load.IsTooLarge(err) {
		return nil, usageError(fmt.Errorf("%s: %w", name, script.ErrTooLarge))
	}
	if err != nil {
		return nil, fmt.Errorf("reading --script: %w", err)
	}
	steps, err := script.Parse(data)
	if err != nil {
		return nil, usageError(fmt.Errorf("%s: %w", name, err))
	}
	return steps, nil
}

// errNoPendingPods: --pending selected no pod and nothing else is to be
// simulated; Run says "No resources found" as kubectl get does, and exits 0.
var errNoPendingPods = errors.New("no pending pods selected")

// podsToSimulate returns the --pod-file pods (their warnings on warnings),
// then the selected pending pods. Without a script there must be at least
// one (else errNoPendingPods); naming an unknown --node is a usage error.
func (o *SimulateOptions) podsToSimulate(m *model.Model, warnings io.Writer) ([]*v1.Pod, error) {
	if o.Node != "" && !hasNode(m, o.Node) {
		return nil, usageError(fmt.Errorf("--node %s: no such node in the input", oneLine(o.Node)))
	}
	var pods []*v1.Pod
	if len(o.PodFiles) > 0 {
		var err error
		if pods, err = o.podFilePods(m, warnings); err != nil {
			return nil, err
		}
	}
	pods = append(pods, o.pendingPods(m)...)
	if len(pods) == 0 && o.Script == "" {
		return nil, errNoPendingPods
	}
	return pods, nil
}

// podFilePods reads the --pod-file pods, and the replicas of the
// workloads in them (their own count, or --replicas).
func (o *SimulateOptions) podFilePods(m *model.Model, warnings io.Writer) ([]*v1.Pod, error) {
	c, err := readPodFiles(o.PodFiles, o.In, o.Input, warnings)
	if err != nil {
		return nil, err
	}
	pods := c.Pods
	for _, obj := range c.Objects {
		w, err := pipeline.WorkloadOf(obj)
		if err != nil {
			continue // a scheduling kind of the pod files, not a workload
		}
		n := w.DefaultReplicas
		if o.Replicas >= 0 {
			n = o.Replicas
		}
		replicas, _, err := w.Replicas(n, m.Nodes, nil)
		if err != nil {
			return nil, err
		}
		for _, p := range replicas {
			load.DefaultPod(p)
		}
		pods = append(pods, replicas...)
	}
	if len(pods) == 0 {
		return nil, usageError(fmt.Errorf("--pod-file: no pods or workloads in %s", oneLine(strings.Join(o.PodFiles, ", "))))
	}
	return pods, nil
}

// pendingNamespace is the namespace --pending takes its pods from, "" for
// all (-A).
func (o *SimulateOptions) pendingNamespace() string {
	if o.Input.AllNamespaces {
		return ""
	}
	return o.Input.PodNamespace()
}

// pendingPods selects the model's pending pods by namespace and labels.
func (o *SimulateOptions) pendingPods(m *model.Model) []*v1.Pod {
	if !o.Pending {
		return nil
	}
	ns := o.pendingNamespace()
	var out []*v1.Pod
	for _, p := range m.Pending {
		if (ns == "" || p.Namespace == ns) && o.selector.Matches(labels.Set(p.Labels)) {
			out = append(out, p)
		}
	}
	return out
}

func hasNode(m *model.Model, name string) bool {
	for _, n := range m.Nodes {
		if n.Name == name {
			return true
		}
	}
	return false
}
