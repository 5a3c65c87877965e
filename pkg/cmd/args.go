package cmd

import (
	"fmt"

	"github.com/spf13/cobra"
)

// noArgs rejects positional arguments as a usage error (exit 2).
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageError(fmt.Errorf("unexpected argument %q for %q; see '%s --help'", args[0], cmd.CommandPath(), cmd.CommandPath()))
	}
	return nil
}
