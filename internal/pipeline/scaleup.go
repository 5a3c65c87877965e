package pipeline

import (
	"context"
	"errors"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedcache/kubectl-schedcache/internal/scaledown"
	"github.com/schedcache/kubectl-schedcache/internal/scaleup"
)

// ScaleUpRequest is what why --scale-up asks.
type ScaleUpRequest struct {
	// Pods are the pods to schedule: the selected pending pods, or a
	// workload's replicas (then Objects are the input's objects with the
	// workload's, and Workload names it, e.g. "Deployment shop/api").
	Pods     []*v1.Pod
	Objects  []runtime.Object
	Workload string
	// Sizes are the node groups' limits from cluster-autoscaler's status;
	// nil when unknown.
	Sizes []scaledown.GroupSize
}

// errNoGroups: no node carries a group label.
var errNoGroups = errors.New("--scale-up: no node group in the input: no node has a node-pool label (cloud.google.com/gke-nodepool, eks.amazonaws.com/nodegroup, kubernetes.azure.com/agentpool, agentpool, karpenter.sh/nodepool) or node.kubernetes.io/instance-type")

// ScaleUp answers, for each node group of in's cluster (scaleup.Templates:
// the template made from one of its nodes), how many new nodes schedule
// req.Pods, and which group least-waste would grow (scaleup.Run). The
// model's cache is changed during each group's search and restored:
// nothing may read it meanwhile. Errors: no node group, or a scheduling
// cycle's error.
func ScaleUp(ctx context.Context, in *Input, cfg *Config, req ScaleUpRequest) (*scaleup.Outcome, error) {
	c := in.Cluster
	groups := scaleup.Templates(c.Nodes, c.Pods, c.Objects)
	if len(groups) == 0 {
		return nil, errNoGroups
	}
	objects := req.Objects
	if objects == nil {
		objects = c.Objects
	}
	return scaleup.Run(ctx, scaleup.Input{Model: in.Model, Objects: objects, Config: cfg, Groups: groups,
		Sizes: req.Sizes, Pods: req.Pods, Workload: req.Workload})
}
