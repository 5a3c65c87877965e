package cmd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// cancelOn is stderr that cancels the command's context when a line
// starting with prefix is written: Ctrl-C at that point of the run.
type cancelOn struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	prefix string
	cancel context.CancelFunc
}

func (w *cancelOn) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.prefix != "" && bytes.HasPrefix(p, []byte(w.prefix)) {
		w.cancel()
	}
	return w.buf.Write(p)
}

// TestCtrlCDuringAFileCommand: Ctrl-C while the files are read (before
// anything) or once the model is built (the note naming the modelled
// version; the decisions still to come) ends every command as an
// interruption (exit 130) with nothing on stdout and no page written —
// never with output computed after the interruption, which the
// framework's cut-short cycles would make wrong.
func TestCtrlCDuringAFileCommand(t *testing.T) {
	page := filepath.Join(t.TempDir(), "page.html")
	commands := [][]string{
		{"dump"}, {"requested"}, {"why", "-A"}, {"report", "-o", page},
		{"simulate", "--pending", "-A"}, {"drain", "worker-a-1"}, {"next-nodes"},
	}
	for _, at := range []string{"", "note: modelling"} {
		for _, args := range commands {
			name := strings.Join(args[:1], " ") + " at " + map[string]string{"": "start", "note: modelling": "model"}[at]
			t.Run(name, func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if at == "" {
					cancel()
				}
				var out bytes.Buffer
				errOut := &cancelOn{prefix: at, cancel: cancel}
				root := NewCmdSchedCache(genericiooptions.IOStreams{In: &bytes.Buffer{}, Out: &out, ErrOut: errOut})
				root.SetArgs(append(args, "-f", example))
				err := root.ExecuteContext(ctx)
				if msg, code := Outcome(ctx, err); msg != "interrupted" || code != ExitInterrupted {
					t.Errorf("Outcome = %q, %d; want interrupted, %d (error %v)\nstderr:\n%s", msg, code, ExitInterrupted, err, errOut.buf.String())
				}
				if at == "" && out.Len() > 0 {
					t.Errorf("stdout after Ctrl-C at the start:\n%s", out.String())
				}
				if _, err := os.Stat(page); err == nil {
					t.Errorf("a page was written after Ctrl-C")
				}
			})
		}
	}
}
