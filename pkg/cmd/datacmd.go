package cmd

import "github.com/spf13/cobra"

// newDataCommand completes cmd as a data command: no positional arguments,
// the input and output flags registered, and RunE running validate (a
// failure is a usage error, exit 2) then run.
func newDataCommand(cmd *cobra.Command, in *InputFlags, out *OutputFlags, validate func() error, run func(*cobra.Command) error) *cobra.Command {
	cmd.Args = noArgs
	cmd.RunE = func(c *cobra.Command, _ []string) error {
		if err := validate(); err != nil {
			return usageError(err)
		}
		return run(c)
	}
	in.AddFlags(cmd)
	out.AddFlags(cmd)
	return cmd
}

// validateIO checks the input and output flags every data command shares.
func validateIO(in *InputFlags, out *OutputFlags) error {
	if err := in.Validate(); err != nil {
		return err
	}
	return out.Validate()
}
