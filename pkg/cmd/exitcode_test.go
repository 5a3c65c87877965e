package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"
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
		{"control characters escaped, lines kept", context.Background(), errors.New("pod \x1b]52;c;aGk=\x07\u009b31m: no\nhint line\n"),
			`error: pod ^[]52;c;aGk=\x07\x9b31m: no` + "\nhint line", ExitError},
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

// TestStderrEscapes: whatever a command writes to its stderr (warnings,
// notes) reaches the terminal without control sequences; newlines stay.
func TestStderrEscapes(t *testing.T) {
	var out strings.Builder
	q := &quietWriter{w: &out}
	in := "warning: skipped 1 object (Ser\x1b[31mvice \x1b]0;title\x07\u009b2J)\nnote: next\n"
	if n, err := q.Write([]byte(in)); n != len(in) || err != nil {
		t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(in))
	}
	if got, want := out.String(), `warning: skipped 1 object (Ser^[[31mvice ^[]0;title\x07\x9b2J)`+"\nnote: next\n"; got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
}
