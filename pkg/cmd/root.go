// Package cmd holds the kubectl-schedcache command tree: one file per
// subcommand, each with an Options type whose Complete/Validate/Run methods
// read flags, check them and do the work against injected IOStreams.
package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/termtext"
)

// NewCmdSchedCache returns the root "kubectl schedcache" command with every
// subcommand attached.
func NewCmdSchedCache(streams genericiooptions.IOStreams) *cobra.Command {
	// Every stderr write goes through one StatusLine, which clears the
	// progress line (written to it too, see progressOut) before any other
	// output, so that a note never lands on it.
	quiet := &quietWriter{w: load.NewStatusLine(streams.ErrOut)}
	streams.ErrOut = quiet
	root := &cobra.Command{
		Use:   "kubectl-schedcache",
		Short: "Show a cluster the way kube-scheduler's cache sees it",
		Long: `Show a cluster exactly the way kube-scheduler's internal cache sees it: node
requested resources as the scheduler accounts them, cache dumps and snapshots,
the zone round-robin node order, and simulated assume/forget/expire outcomes,
as kube-scheduler v1.18 to v1.36 does (--kube-version; default: the cluster's
own version, or with -f the one every node's kubelet reports, else v1.36).

Namespaces: -n/--namespace and -A/--all-namespaces mean what they mean in
kubectl. Cluster views (dump, requested, snapshot) hold and count every pod
and show all namespaces unless -n is given; -n filters the pods they list,
never a node's totals. A pod named without its namespace (why POD, requested
--pod) is looked up in -n, else the kubeconfig context's namespace, else
"default"; objects of -f and --pod-file files without metadata.namespace are
put there too, and a --pod-file object of another namespace than -n is refused,
as kubectl apply -f does. Commands that show nodes only (next-nodes, diff,
drain, report) accept -n and -A, as kubectl get nodes does: they filter
nothing (-n is only the namespace of an --evict NAME).

` + ExitCodesHelp(),
		Annotations:   map[string]string{cobra.CommandDisplayNameAnnotation: "kubectl schedcache"},
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetUsageTemplate(wrappedFlags(root.UsageTemplate()))
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	root.SetIn(streams.In)
	root.PersistentFlags().BoolVarP(&quiet.on, "quiet", "q", false,
		"Print no notes, warnings or progress on stderr (errors still go there), for scripts")
	root.SuggestionsMinimumDistance = 2
	root.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return usageError(fmt.Errorf("unknown command %q for %q%s; see '%s --help'", args[0], cmd.CommandPath(), didYouMean(cmd.SuggestionsFor(args[0])), cmd.CommandPath()))
		}
		return nil
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		// "dumpp -f x": the mistyped command, not the root's lack of -f.
		if c == root && c.Flags().NArg() > 0 {
			return root.Args(c, c.Flags().Args())
		}
		return usageError(withFlagSuggestion(c, err))
	})
	root.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	root.AddCommand(
		NewCmdDump(streams),
		NewCmdRequested(streams),
		NewCmdNextNodes(streams),
		NewCmdSnapshot(streams),
		NewCmdSimulate(streams),
		NewCmdWhy(streams),
		NewCmdDrain(streams),
		NewCmdScaleDown(streams),
		NewCmdReport(streams),
		NewCmdCompare(streams),
		NewCmdDiff(streams),
		NewCmdVersion(streams),
	)
	root.SetHelpCommand(newCmdHelp(root))
	// cobra's completion command: a wrong shell is a usage error too.
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			// Runnable, so that an unknown shell reaches Args instead
			// of cobra printing the help and exiting 0.
			c.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
			usageArgs(c)
			for _, sub := range c.Commands() {
				usageArgs(sub)
			}
		}
	}
	return root
}

// helpWidth is the widest line of every --help: flag descriptions wrap to
// it, as kubectl's help does, and the texts are written to fit.
const helpWidth = 120

// wrappedFlags is cobra's usage template with the flags' descriptions
// wrapped to helpWidth (pflag's FlagUsagesWrapped); every subcommand
// inherits it.
func wrappedFlags(template string) string {
	w := fmt.Sprintf("FlagUsagesWrapped %d", helpWidth)
	return strings.NewReplacer(".LocalFlags.FlagUsages", ".LocalFlags."+w, ".InheritedFlags.FlagUsages", ".InheritedFlags."+w).Replace(template)
}

// newCmdHelp replaces cobra's help command, which prints "Unknown help
// topic" and exits 0: an unknown topic is a usage error, with a suggestion.
func newCmdHelp(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		ValidArgsFunction: func(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			var names []string
			if len(args) == 0 {
				for _, c := range root.Commands() {
					if c.IsAvailableCommand() && strings.HasPrefix(c.Name(), toComplete) {
						names = append(names, c.Name())
					}
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(_ *cobra.Command, args []string) error {
			c, rest, err := root.Find(args)
			if err != nil || len(rest) > 0 {
				topic := strings.Join(args, " ")
				return usageError(fmt.Errorf("unknown help topic %q%s; see '%s --help'", topic, didYouMean(root.SuggestionsFor(args[0])), root.CommandPath()))
			}
			c.InitDefaultHelpFlag()
			return c.Help()
		},
	}
}

// usageArgs makes c's argument errors usage errors (exit 2).
func usageArgs(c *cobra.Command) {
	if args := c.Args; args != nil {
		c.Args = func(c *cobra.Command, a []string) error { return usageError(args(c, a)) }
	}
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
