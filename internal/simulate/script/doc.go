// Package script parses the scripts of `simulate --script`: a YAML (or JSON)
// list of steps, each an operation on the scheduler cache (AssumePod,
// FinishBinding, AddPod, ForgetPod, the cleanup loop, node events...) or an
// advance of the virtual clock. Parse checks every step before anything
// runs, so a mistake stops the command with exit code 2 and names the
// 1-based step; the simulate package runs the steps.
//
// It is a package of its own, importing only the API types and internal/load's
// defaulting, so that its fuzz target (FuzzParse) instruments a small build
// rather than the scheduler framework the simulator pulls in.
package script
