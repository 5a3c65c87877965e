package cmd

import (
	"context"
	"fmt"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

// runReplicas answers "how many replicas fit, and where": the pods of the
// --pod-file's Pod or workload, placed one after the other as the
// scheduler would place them, each assumed before the next. It stops at the
// first replica that does not fit (the next ones, identical, would not
// either), except for a DaemonSet, whose pods are each tied to a node.
func (o *WhyOptions) runReplicas(ctx context.Context, m *model.Model, objects []runtime.Object, cfg *pipeline.Config) error {
	w, err := readPodFile(o.PodFile, o.In, o.Input, o.ErrOut)
	if err != nil {
		return err
	}
	report, err := o.replicasUnder(ctx, m, objects, cfg, w)
	if err != nil {
		return err
	}
	report.WhatIf = o.WhatIf.report()
	table := func(printers.TableOptions) (*printers.Table, error) { return printers.SchedulingTable(report), nil }
	var detail func(printers.TableOptions) error
	if o.Output.Wide() {
		detail = func(t printers.TableOptions) error { return printers.PrintSchedulingDetails(o.Out, report, t) }
	}
	if err := o.Output.PrintTable(o.Out, report, table, detail); err != nil {
		return err
	}
	fmt.Fprintln(o.ErrOut, replicaLine(report))
	if report.Replicas.Fit < report.Replicas.Requested {
		return &exitError{code: ExitError, err: errNotScheduled, silent: true}
	}
	return nil
}

// replicasUnder places w's replicas (--replicas, else the workload's own
// count) over m under cfg, and reports them with the replica summary.
func (o *WhyOptions) replicasUnder(ctx context.Context, m *model.Model, objects []runtime.Object, cfg *pipeline.Config, w *pipeline.Workload) (*v1alpha1.SchedulingReport, error) {
	pods, all, err := o.replicasOf(w, m, objects)
	if err != nil {
		return nil, err
	}
	return pipeline.Replicas(ctx, m, all, cfg, w, pods)
}

// replicasOf makes w's replicas (--replicas, else the workload's own
// count) with the objects and the replicas' claims (pipeline.ReplicaPods),
// its warnings on stderr.
func (o *WhyOptions) replicasOf(w *pipeline.Workload, m *model.Model, objects []runtime.Object) ([]*v1.Pod, []runtime.Object, error) {
	var notes pipeline.Notes
	pods, all, err := pipeline.ReplicaPods(w, o.Replicas, m, objects, &notes)
	printNotes(o.ErrOut, &notes)
	return pods, all, err
}

// replicaLine is the stderr summary, e.g. "Deployment shop/web: 3 of 5
// replicas fit (worker-c-2: 2, legacy-c-1: 1); shop/web-…-3 does not".
func replicaLine(r *v1alpha1.SchedulingReport) string {
	s := r.Replicas
	nodes := make([]string, 0, len(s.Nodes))
	for n := range s.Nodes {
		nodes = append(nodes, n)
	}
	sort.Slice(nodes, func(i, j int) bool {
		if s.Nodes[nodes[i]] != s.Nodes[nodes[j]] {
			return s.Nodes[nodes[i]] > s.Nodes[nodes[j]]
		}
		return nodes[i] < nodes[j]
	})
	var where []string
	for _, n := range nodes {
		where = append(where, fmt.Sprintf("%s: %d", n, s.Nodes[n]))
	}
	line := fmt.Sprintf("%s: %d of %s %s", s.Workload, s.Fit, termtext.Count(s.Requested, "replica"), termtext.Agree(s.Fit, "fits", "fit"))
	if strings.HasPrefix(s.Workload, "DaemonSet ") {
		line = fmt.Sprintf("%s: runs on %d of %s", s.Workload, s.Fit, termtext.Count(s.Requested, "node"))
	}
	if len(where) > 0 {
		line += " (" + strings.Join(where, ", ") + ")"
	}
	if s.FirstUnfit != "" && !strings.HasPrefix(s.Workload, "DaemonSet ") {
		line += "; " + s.FirstUnfit + " does not: see its message above"
	}
	return line
}
