// Package cmd holds the kubectl-schedcache command tree: one file per
// subcommand, each with an Options type whose Complete/Validate/Run methods
// read flags, check them and do the work against injected IOStreams.
package cmd

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// NewCmdSchedCache returns the root "kubectl schedcache" command with every
// subcommand attached.
func NewCmdSchedCache(streams genericiooptions.IOStreams) *cobra.Command {
	root := &cobra.Command{
		Use:   "schedcache",
		Short: "Show a cluster the way kube-scheduler's cache sees it",
		Long: `Show a cluster exactly the way kube-scheduler's internal cache sees it: node
requested resources as the scheduler accounts them, cache dumps and snapshots,
the zone round-robin node order, and simulated assume/forget/expire outcomes.`,
		Annotations:   map[string]string{cobra.CommandDisplayNameAnnotation: "kubectl schedcache"},
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(NewCmdVersion(streams))
	return root
}
