package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/termtext"
)

// Exit codes of kubectl-schedcache (documented in docs/exit-codes.md).
const (
	// ExitOK means success (for "requested --pod": the pod fits some node).
	ExitOK = 0
	// ExitError means a runtime error, or for "requested --pod" that the pod fits no node.
	ExitError = 1
	// ExitUsage means bad flags or arguments (and, for "requested --pod", any error).
	ExitUsage = 2
	// ExitDiffer means "compare" or "diff" found differences (and printed them).
	ExitDiffer = 3
	// ExitUnreachable means the cluster could not be reached, in every
	// command alike (--watch's first listing too): no kubeconfig, a
	// connection refused or reset, a DNS or TLS failure, no answer in
	// time (load.Unreachable).
	ExitUnreachable = 4
	// ExitInterrupted means the command was interrupted (Ctrl-C): 128 + SIGINT,
	// as a shell reports a command killed by it.
	ExitInterrupted = 130
)

// exitCodes is the one table of exit codes: "--help" prints it (ExitCodesHelp)
// and docs/exit-codes.md repeats it.
var exitCodes = []struct {
	code    int
	meaning string
}{
	{ExitOK, "success; requested --pod/--pod-file: the pod fits some node; why: every pod would be scheduled; why --scale-up: a node group is chosen; scale-down: some node is removable"},
	{ExitError, "runtime error (Forbidden, Unauthorized); requested --pod: fits no node; why: some pod stays Pending; simulate --pending/--pod-file: some pod ends Unschedulable; why --scale-up: no node group can take the pods; scale-down: no node is removable"},
	{ExitUsage, "usage error: unknown command, flag, output format, column or resource, bad or conflicting flag values (-n with -A); bad input (a file missing, unreadable, malformed or holding nothing to use), in every command; requested --pod, why, drain, scale-down: any other error"},
	{ExitDiffer, "compare, diff: the two sides differ"},
	{ExitUnreachable, "cannot reach the cluster (no kubeconfig, refused, DNS, TLS, no answer in time), in every command"},
	{ExitInterrupted, "interrupted (Ctrl-C)"},
}

// ExitCodesHelp renders exitCodes for --help, each meaning wrapped to 80
// columns under its own indent.
func ExitCodesHelp() string {
	var b strings.Builder
	b.WriteString("Exit codes:")
	for _, c := range exitCodes {
		fmt.Fprintf(&b, "\n  %-5d", c.code)
		col := 7
		for i, word := range strings.Fields(c.meaning) {
			if i > 0 && col+1+len(word) > 80 {
				b.WriteString("\n       ")
				col = 7
			} else if i > 0 {
				b.WriteString(" ")
				col++
			}
			b.WriteString(word)
			col += len(word)
		}
	}
	return b.String()
}

// exitError carries an explicit exit code through cobra's RunE.
type exitError struct {
	code int
	err  error
	// silent: the command already said everything (e.g. "why" exits 1
	// when a pod would stay Pending, after printing why; "compare" exits 3
	// after printing the differences); no error line.
	silent bool
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// ExitCode maps an error returned by the command tree to the process exit code.
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	switch load.KindOf(err) {
	case load.Unreachable:
		return ExitUnreachable
	case load.InvalidInput:
		// A file that cannot be read, is malformed or holds nothing to
		// use: the same code in every command, and never 1, which the
		// decision commands keep for their answer.
		return ExitUsage
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return ExitError
}

// usageError marks err as a usage error (exit 2).
func usageError(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: ExitUsage, err: err}
}

// Outcome returns what main writes to stderr for err (empty for nothing) and
// the exit code, for the command tree run with ctx. When ctx was canceled
// (main cancels it on SIGINT) and err is that cancellation, the message is
// "interrupted" and the code ExitInterrupted, whatever was in flight: a
// listing cut short reports no partial result.
func Outcome(ctx context.Context, err error) (string, int) {
	switch {
	case err == nil:
		return "", ExitOK
	case ctx.Err() != nil && errors.Is(err, context.Canceled):
		return "interrupted", ExitInterrupted
	}
	var ee *exitError
	if errors.As(err, &ee) && ee.silent {
		return "", ee.code
	}
	return "error: " + termtext.Text(strings.TrimSpace(err.Error())), ExitCode(err)
}

// differError is the outcome of a comparison that found n differences,
// already printed: exit code ExitDiffer, no message.
func differError(n int) error {
	return &exitError{code: ExitDiffer, err: errors.New(termtext.Count(n, "difference")), silent: true}
}

// oneLine is termtext.Line, for names and values (pods, nodes, files,
// flag values) written into a message: a newline or an escape sequence in
// one can neither forge a line nor reach the terminal.
func oneLine(s string) string { return termtext.Line(s) }

// decisionExit maps the error of a decision command's run (why, drain) to
// its exit code: the command's "no" (answer, exit 1) stays as it is, and
// any other error that would exit 1 exits 2 instead, since these commands
// keep 1 for the answer.
func decisionExit(err, answer error) error {
	if err != nil && !errors.Is(err, answer) && ExitCode(err) == ExitError {
		return &exitError{code: ExitUsage, err: err}
	}
	return err
}
