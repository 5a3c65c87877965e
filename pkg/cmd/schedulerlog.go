package cmd

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	"github.com/schedcache/kubectl-schedcache/internal/schedlog"
)

// SchedulerLogFlags is --scheduler-log: a running kube-scheduler's own log
// (-v=2 or more, klog text or JSON), whose NodeTree records give the order
// it keeps the nodes in (schedlog.ParseNodeTree). next-nodes prints that
// order; why and simulate scan the nodes in it.
type SchedulerLogFlags struct {
	File string
	tree *schedlog.NodeTreeLog
}

// withSchedulerLog gives the command --scheduler-log.
func (f *InputFlags) withSchedulerLog() *InputFlags {
	f.SchedulerLog = &SchedulerLogFlags{}
	return f
}

// AddFlags registers --scheduler-log.
func (s *SchedulerLogFlags) AddFlags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&s.File, "scheduler-log", s.File,
		"kube-scheduler's log at -v=2 or more (kubectl logs, or a file; text or JSON): its NodeTree records give the running scheduler's node order")
}

// Complete reads the log. Errors name the flag and the file: it cannot be
// read, or holds no NodeTree record, or one that does not parse.
func (s *SchedulerLogFlags) Complete() error {
	if s == nil || s.File == "" {
		return nil
	}
	f, err := os.Open(s.File)
	if err != nil {
		return fmt.Errorf("--scheduler-log: %w", err)
	}
	defer f.Close()
	if s.tree, err = schedlog.ParseNodeTree(f); err != nil {
		return fmt.Errorf("--scheduler-log %s: %w", s.File, err)
	}
	return nil
}

// nodeOrder is the pipeline's NodeOrder of the log; nil without
// --scheduler-log.
func (s *SchedulerLogFlags) nodeOrder() *pipeline.NodeOrder {
	if s == nil || s.tree == nil {
		return nil
	}
	return &pipeline.NodeOrder{File: s.File, Tree: s.tree}
}
