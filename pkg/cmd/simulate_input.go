package cmd

import (
	"fmt"
	"os"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/discovery"

	"github.com/schedcache/kubectl-schedcache/pkg/load"
	"github.com/schedcache/kubectl-schedcache/pkg/model"
	"github.com/schedcache/kubectl-schedcache/pkg/simulate"
)

// readScript reads and parses --script; a mistake in it exits 2.
func (o *SimulateOptions) readScript() ([]simulate.Step, error) {
	if o.Script == "" {
		return nil, nil
	}
	data, err := os.ReadFile(o.Script)
	if err != nil {
		return nil, fmt.Errorf("reading --script: %w", err)
	}
	steps, err := simulate.ParseScript(data)
	if err != nil {
		return nil, usageError(fmt.Errorf("%s: %w", o.Script, err))
	}
	return steps, nil
}

// resolveTTL picks the TTL from --ttl, --kube-version, the live server's
// version (kube-scheduler is normally the API server's version), or the
// latest kube-scheduler.
func (o *SimulateOptions) resolveTTL() (simulate.TTLChoice, error) {
	if o.ttl != nil || o.KubeVersion != "" {
		return simulate.ResolveTTL(o.ttl, o.KubeVersion, "")
	}
	if len(o.Input.Filenames) > 0 {
		return simulate.ResolveTTL(nil, "", "no --kube-version")
	}
	v, err := o.serverVersion()
	if err != nil {
		return simulate.ResolveTTL(nil, "", "server version unknown: "+err.Error())
	}
	if choice, err := simulate.ResolveTTL(nil, v, "from the server version"); err == nil {
		return choice, nil
	}
	return simulate.ResolveTTL(nil, "", fmt.Sprintf("server version %q not understood", v))
}

// serverVersion asks the live API server for its git version.
func (o *SimulateOptions) serverVersion() (string, error) {
	var d discovery.ServerVersionInterface
	if o.Input.clientForTest != nil {
		d = o.Input.clientForTest.Discovery()
	} else {
		dc, err := o.Input.ConfigFlags.ToDiscoveryClient()
		if err != nil {
			return "", err
		}
		d = dc
	}
	info, err := d.ServerVersion()
	if err != nil {
		return "", err
	}
	return info.GitVersion, nil
}

// podsToSimulate returns the --pod-file pods, then the selected pending
// pods. Without a script there must be at least one; naming an unknown
// --node is a usage error.
func (o *SimulateOptions) podsToSimulate(m *model.Model) ([]*v1.Pod, error) {
	if o.Node != "" && !hasNode(m, o.Node) {
		return nil, usageError(fmt.Errorf("--node %s: no such node in the input", o.Node))
	}
	var pods []*v1.Pod
	if len(o.PodFiles) > 0 {
		c, err := load.ReadFiles(load.FileOptions{Filenames: o.PodFiles, Stdin: o.In}, o.ErrOut)
		if err != nil {
			return nil, err
		}
		if len(c.Pods) == 0 {
			return nil, fmt.Errorf("--pod-file: no pods in %s", strings.Join(o.PodFiles, ", "))
		}
		pods = c.Pods
	}
	pending, where := o.pendingPods(m)
	pods = append(pods, pending...)
	if len(pods) == 0 && o.Script == "" {
		return nil, fmt.Errorf("no pods to simulate: no pending pods %s", where)
	}
	return pods, nil
}

// pendingPods selects the model's pending pods by namespace and labels,
// and says where it looked, for the error when there are none.
func (o *SimulateOptions) pendingPods(m *model.Model) ([]*v1.Pod, string) {
	if !o.Pending {
		return nil, ""
	}
	ns, where := "", "in any namespace"
	if !o.AllNamespaces {
		ns = o.namespace()
		where = fmt.Sprintf("in namespace %q (-A: all namespaces)", ns)
	}
	if o.Selector != "" {
		where += fmt.Sprintf(" matching %q", o.Selector)
	}
	var out []*v1.Pod
	for _, p := range m.Pending {
		if (ns == "" || p.Namespace == ns) && o.selector.Matches(labels.Set(p.Labels)) {
			out = append(out, p)
		}
	}
	return out, where
}

// namespace is -n, else the kubeconfig context's namespace, else "default".
func (o *SimulateOptions) namespace() string {
	if ns := o.Input.ConfigFlags.Namespace; ns != nil && *ns != "" {
		return *ns
	}
	if ns, _, err := o.Input.ConfigFlags.ToRawKubeConfigLoader().Namespace(); err == nil && ns != "" {
		return ns
	}
	return v1.NamespaceDefault
}

func hasNode(m *model.Model, name string) bool {
	for _, n := range m.Nodes {
		if n.Name == name {
			return true
		}
	}
	return false
}
