package cmd

import (
	"context"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
)

// runner is the shape of every command's Options, as in kubectl: Complete
// derives what the flags and arguments imply (and takes the live
// connection from f), Validate checks the result and changes nothing, Run
// does the work against the injected IOStreams.
type runner interface {
	Complete(f genericclioptions.RESTClientGetter, cmd *cobra.Command, args []string) error
	Validate() error
	Run() error
}

// runCommand runs o's Complete, Validate and Run. A Complete or Validate
// failure is a usage error (exit 2): both only read flags and arguments.
// Once the command's context is done (Ctrl-C), Run's outcome is the
// interruption, whatever Run returned: what it printed may be cut short.
func runCommand(o runner, f genericclioptions.RESTClientGetter, cmd *cobra.Command, args []string) error {
	if err := o.Complete(f, cmd, args); err != nil {
		return usageError(err)
	}
	if err := o.Validate(); err != nil {
		return usageError(err)
	}
	err := o.Run()
	if ctx := cmd.Context(); ctx != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// newDataCommand completes cmd as a data command: no positional arguments
// unless cmd sets Args, the input and output flags registered, and RunE
// running o with the input's ConfigFlags as the connection.
func newDataCommand(cmd *cobra.Command, in *InputFlags, out *OutputFlags, o runner) *cobra.Command {
	if cmd.Args == nil {
		cmd.Args = noArgs
	}
	cmd.RunE = func(c *cobra.Command, args []string) error {
		return runCommand(o, in.ConfigFlags, c, args)
	}
	in.AddFlags(cmd)
	out.AddFlags(cmd)
	return cmd
}

// runContext holds the context of the command's invocation (Ctrl-C
// cancels it), captured by Complete for Run.
type runContext struct{ ctx context.Context }

// setContext keeps cmd's context (Background when it has none).
func (r *runContext) setContext(cmd *cobra.Command) {
	r.ctx = context.Background()
	if cmd != nil && cmd.Context() != nil {
		r.ctx = cmd.Context()
	}
}

// context is the invocation's context; Background before Complete.
func (r *runContext) context() context.Context {
	if r.ctx == nil {
		return context.Background()
	}
	return r.ctx
}

// completeIO completes the input flags every data command shares, and
// keeps cmd's context.
func completeIO(r *runContext, in *InputFlags, f genericclioptions.RESTClientGetter, cmd *cobra.Command) error {
	r.setContext(cmd)
	in.memory = pipeline.MemoryOf(r.context())
	return in.Complete(f)
}

// validateIO checks the input and output flags every data command shares.
func validateIO(in *InputFlags, out *OutputFlags) error {
	if err := in.Validate(); err != nil {
		return err
	}
	return out.Validate()
}
