package cmd

import (
	"context"

	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

// runUntilFits is why --until-fits: the scale-up estimate for the selected
// pending pods, or for the replicas of --pod-file, printed as the why table
// of the placement at the count found, with the estimate on stderr (and in
// the report's whatIf field). Exit 1 when no count up to the number of pods
// is enough, or when some pod does not fit the template even alone.
func (o *WhyOptions) runUntilFits(ctx context.Context, in *whatIfInput, cfg *pipeline.Config) error {
	var notes pipeline.Notes
	pods, ok, err := o.podsToPlace(in, &notes)
	if err != nil || !ok {
		return err
	}
	res, err := pipeline.UntilFits(ctx, in, cfg, pods, o.detail(), &notes)
	printNotes(o.ErrOut, &notes)
	if err != nil {
		return pipelineError(err)
	}
	table := func(printers.TableOptions) (*printers.Table, error) { return printers.SchedulingTable(res.Report), nil }
	if err := o.Output.PrintTable(o.Out, res.Report, table, nil); err != nil {
		return err
	}
	notes.AddAll(res.After)
	printNotes(o.ErrOut, &notes)
	if res.Unschedulable() {
		return &exitError{code: ExitError, err: errNotScheduled, silent: true}
	}
	return nil
}

// podsToPlace are the pods a search for new nodes places (--until-fits,
// --scale-up): --pod-file's replicas, or the selected pending pods. ok is
// false when no pod is selected (the "No resources found" case, already
// said); the pod file's notes are printed as it is read.
func (o *WhyOptions) podsToPlace(in *whatIfInput, notes *pipeline.Notes) (pods pipeline.UntilFitsPods, ok bool, err error) {
	pods = pipeline.UntilFitsPods{Replicas: o.Replicas, File: o.PodFile}
	if o.PodFile != "" {
		w, err := readPodFile(o.PodFile, o.In, o.Input, notes.Writer())
		printNotes(o.ErrOut, notes)
		pods.Workload = w
		return pods, err == nil, err
	}
	targets, err := o.targets(in.Model)
	pods.Pods = targets
	return pods, err == nil && len(targets) > 0, err
}
