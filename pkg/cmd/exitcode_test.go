package cmd

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestOutcome checks what main prints and exits with, in particular that
// Ctrl-C (main's context canceled) mid-listing is reported as an
// interruption, while a cancellation the user did not cause is an error.
func TestOutcome(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	listCut := fmt.Errorf("list pods: %w", context.Canceled)
	tests := []struct {
		name string
		ctx  context.Context
		err  error
		msg  string
		code int
	}{
		{"success", context.Background(), nil, "", ExitOK},
		{"runtime error", context.Background(), errors.New("boom"), "error: boom", ExitError},
		{"usage error", context.Background(), usageError(errors.New("bad flag")), "error: bad flag", ExitUsage},
		{"Ctrl-C mid-listing", canceled, listCut, "interrupted", ExitInterrupted},
		{"canceled, not by the user", context.Background(), listCut, "error: list pods: context canceled", ExitError},
		{"another error after Ctrl-C", canceled, errors.New("boom"), "error: boom", ExitError},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			msg, code := Outcome(tc.ctx, tc.err)
			if msg != tc.msg || code != tc.code {
				t.Errorf("Outcome = %q, %d; want %q, %d", msg, code, tc.msg, tc.code)
			}
		})
	}
}
