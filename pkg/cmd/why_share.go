package cmd

import "github.com/spf13/cobra"

// addEvaluateEachFlag registers --evaluate-each. By default why reuses one
// scheduling cycle for the pending pods kube-scheduler cannot tell apart
// (replicas of one template: decide.Input.EvaluateEach); with the flag
// every pod gets its own cycle, and the output must be the same byte for
// byte (TestWhySharedVerdictsAreExact). Hidden: a check, not a choice.
func (o *WhyOptions) addEvaluateEachFlag(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&o.evaluateEach, "evaluate-each", false, "Run every pending pod's own scheduling cycle, never reusing the verdict of a pod that differs only in name and UID")
	_ = cmd.Flags().MarkHidden("evaluate-each")
}
