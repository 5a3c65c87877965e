package pipeline

import (
	"context"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedcache/kubectl-schedcache/internal/scaledown"
	"github.com/schedcache/kubectl-schedcache/internal/views"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// ScaleDownOptions are cluster-autoscaler's scale-down flags
// (scaledown.Options).
type ScaleDownOptions = scaledown.Options

// DefaultScaleDownOptions are cluster-autoscaler's defaults.
func DefaultScaleDownOptions() ScaleDownOptions { return scaledown.DefaultOptions() }

// ScaleDownRequest is what scale-down asks: the nodes that may go (nil:
// every node), cluster-autoscaler's flags, the clock of its time budget
// (nil: none) and a progress callback (nil: none; after each candidate,
// the candidates decided and their number).
type ScaleDownRequest struct {
	Nodes    []string
	Options  ScaleDownOptions
	Clock    func() time.Time
	Progress func(done, total int)
}

// ScaleDown answers which nodes of in cluster-autoscaler could remove now
// (scaledown.Plan: its eligibility, its drain rules, kube-scheduler v1.36
// with cfg placing the moved pods), as the scale-down table shows it, with
// in's edits in WhatIf. The node groups' minimum sizes come from
// cluster-autoscaler's status ConfigMap: among the files' objects, or read
// live with one GET. It changes in's model. Notes: a status that cannot be
// read or parsed. Errors: scaledown.Plan's.
func ScaleDown(ctx context.Context, in *Input, cfg *Config, req ScaleDownRequest, notes *Notes) (*v1alpha1.ScaleDownReport, error) {
	sizes := groupSizes(ctx, in, notes, "minimum")
	groups := map[string]int{}
	for _, n := range in.Model.Nodes {
		groups[scaledown.GroupOf(n)]++
	}
	out, err := scaledown.Plan(ctx, scaledown.Input{Model: in.Model, Objects: in.Cluster.Objects, Config: cfg, Nodes: req.Nodes, Sizes: sizes,
		Options: req.Options, Clock: req.Clock, Progress: req.Progress})
	if err != nil {
		return nil, err
	}
	report := views.ScaleDownReport(in.Model.Source, cfg.Source, req.Options.UtilizationThreshold, out, groups, sizes)
	report.WhatIf = in.WhatIf()
	return report, nil
}

// groupSizes reads the node groups' limits from cluster-autoscaler's
// status ConfigMap: from the files' objects, or live with one GET. A
// status that is absent or unreadable leaves the sizes unknown; a note
// says so when it cannot be read or parsed, naming the limit the command
// needs (limit: "minimum" for scale-down, "maximum" for scale-up).
func groupSizes(ctx context.Context, in *Input, notes *Notes, limit string) []scaledown.GroupSize {
	var cm *v1.ConfigMap
	if in.source.IsFiles() {
		for _, obj := range in.Cluster.Objects {
			if c, ok := obj.(*v1.ConfigMap); ok && c.Namespace == metav1.NamespaceSystem && c.Name == scaledown.StatusConfigMap {
				cm = c
			}
		}
	} else if in.source.Client != nil {
		if client, _, err := in.source.Client(notes.Writer()); err == nil {
			got, err := client.CoreV1().ConfigMaps(metav1.NamespaceSystem).Get(ctx, scaledown.StatusConfigMap, metav1.GetOptions{})
			switch {
			case err == nil:
				cm = got
			case !apierrors.IsNotFound(err):
				notes.Add(SeverityNote, "cannot read configmap kube-system/%s (%v): node groups' %s sizes unknown", scaledown.StatusConfigMap, err, limit)
			}
		}
	}
	if cm == nil {
		return nil
	}
	sizes, err := scaledown.ParseStatus(cm)
	if err != nil {
		notes.Add(SeverityNote, "%v: node groups' %s sizes unknown", err, limit)
	}
	return sizes
}
