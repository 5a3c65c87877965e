// Package cmd holds the kubectl-schedcache command tree: one file per
// subcommand, each with an Options type whose Complete/Validate/Run methods
// read flags, check them and do the work against injected IOStreams.
package cmd

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/pkg/termtext"
)

// NewCmdSchedCache returns the root "kubectl schedcache" command with every
// subcommand attached.
func NewCmdSchedCache(streams genericiooptions.IOStreams) *cobra.Command {
	quiet := &quietWriter{w: streams.ErrOut}
	streams.ErrOut = quiet
	root := &cobra.Command{
		Use:   "kubectl-schedcache",
		Short: "Show a cluster the way kube-scheduler's cache sees it",
		Long: `Show a cluster exactly the way kube-scheduler's internal cache sees it: node
requested resources as the scheduler accounts them, cache dumps and snapshots,
the zone round-robin node order, and simulated assume/forget/expire outcomes,
as kube-scheduler v1.18 to v1.36 does (--kube-version; default: the cluster's
own version, or v1.36 with -f).`,
		Annotations:   map[string]string{cobra.CommandDisplayNameAnnotation: "kubectl schedcache"},
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	root.SetIn(streams.In)
	root.PersistentFlags().BoolVarP(&quiet.on, "quiet", "q", false,
		"Print no notes, warnings or progress on stderr (errors still go there), for scripts")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError(err) })
	root.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return usageError(fmt.Errorf("unknown command %q for %q; see '%s --help'", args[0], cmd.CommandPath(), cmd.CommandPath()))
		}
		return nil
	}
	root.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	root.AddCommand(
		NewCmdDump(streams),
		NewCmdRequested(streams),
		NewCmdNextNodes(streams),
		NewCmdSnapshot(streams),
		NewCmdSimulate(streams),
		NewCmdWhy(streams),
		NewCmdCompare(streams),
		NewCmdDiff(streams),
		NewCmdVersion(streams),
	)
	return root
}

// quietWriter is the commands' stderr: with --quiet it drops what they
// write (notes, warnings, progress, summaries); main still prints errors,
// which do not go through it.
type quietWriter struct {
	w  io.Writer
	on bool
}

// Write drops p with --quiet; else it writes p with every control
// character escaped (termtext.Text): whatever a name or value in a
// warning or note holds, nothing reaches the terminal as a sequence.
func (q *quietWriter) Write(p []byte) (int, error) {
	if q.on {
		return len(p), nil
	}
	if s := string(p); termtext.Text(s) != s {
		if _, err := io.WriteString(q.w, termtext.Text(s)); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return q.w.Write(p)
}

// unwrapQuiet returns the writer behind a quietWriter that is not quiet
// (for terminal checks), io.Discard behind a quiet one, else w.
func unwrapQuiet(w io.Writer) io.Writer {
	q, ok := w.(*quietWriter)
	switch {
	case !ok:
		return w
	case q.on:
		return io.Discard
	}
	return q.w
}
