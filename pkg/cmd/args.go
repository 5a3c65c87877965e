package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// noArgs rejects positional arguments as a usage error (exit 2).
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageError(fmt.Errorf("unexpected argument %q for %q; see '%s --help'", args[0], cmd.CommandPath(), cmd.CommandPath()))
	}
	return nil
}

// argsForFlag is noArgs for a command whose positional arguments a user
// may mean as a flag's values (dump NODE for dump --node NODE): the error
// says how to write them.
func argsForFlag(flag string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		var suggestion []string
		for _, a := range args {
			suggestion = append(suggestion, flag+" "+oneLine(a))
		}
		return usageError(fmt.Errorf("unexpected argument %q for %q; did you mean %s? see '%s --help'", args[0], cmd.CommandPath(), strings.Join(suggestion, " "), cmd.CommandPath()))
	}
}
