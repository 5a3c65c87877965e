package pipeline

import (
	"context"
	"errors"
	"fmt"

	"github.com/schedcache/kubectl-schedcache/internal/scaleup"
	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/internal/views"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// errNoGroups: no node carries a group label.
var errNoGroups = errors.New("--scale-up: no node group in the input: no node has a node-pool label (cloud.google.com/gke-nodepool, eks.amazonaws.com/nodegroup, kubernetes.azure.com/agentpool, agentpool, karpenter.sh/nodepool) or node.kubernetes.io/instance-type")

// ScaleUp is why --scale-up on in: for each node group of the cluster
// (scaleup.Templates: a template made from one of its nodes, with the
// DaemonSet pods a new node would run), the smallest number of new nodes
// with which every pod of pods that fits one alone is scheduled
// (whatif.UntilFits' search, kube-scheduler v1.36's cycle with cfg),
// capped by the group's maximum size from cluster-autoscaler's status
// ConfigMap (groupSizes; no maximum without it), and the group least-waste would grow
// (scaleup.Run). A DaemonSet's replicas are refused (*UsageError). The
// model's cache is changed during each group's search and restored.
// Notes: what the pods refer to that the input lacks. Errors: no node
// group, the engine's, the workload's replicas'.
func ScaleUp(ctx context.Context, in *Input, cfg *Config, pods UntilFitsPods, notes *Notes) (*v1alpha1.ScaleUpReport, error) {
	c := in.Cluster
	groups := scaleup.Templates(c.Nodes, c.Pods, c.Objects)
	if len(groups) == 0 {
		return nil, errNoGroups
	}
	run := scaleup.Input{Model: in.Model, Objects: c.Objects, Config: cfg, Groups: groups, Sizes: groupSizes(ctx, in, notes, "maximum"), Pods: pods.Pods}
	if w := pods.Workload; w != nil {
		if w.PerNode {
			return nil, &UsageError{Err: fmt.Errorf("--scale-up with --pod-file %s: a %s runs one pod on every node, so no count of nodes is missing; give a Deployment, StatefulSet, Job or Pod", termtext.Line(pods.File), w.Kind)}
		}
		replicas, objects, err := ReplicaPods(w, pods.Replicas, in.Model, c.Objects, notes)
		if err != nil {
			return nil, err
		}
		run.Pods, run.Objects, run.Workload = replicas, objects, fmt.Sprintf("%s %s/%s", w.Kind, w.Namespace, w.Name)
	} else {
		WarnMissing(notes, pods.Pods, c.Objects)
	}
	out, err := scaleup.Run(ctx, run)
	if err != nil {
		return nil, err
	}
	report := views.ScaleUpReport(in.Model.Source, cfg.Source, run.Workload, len(run.Pods), out)
	report.WhatIf = in.WhatIf()
	return report, nil
}
