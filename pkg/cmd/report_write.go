package cmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/schedcache/kubectl-schedcache/internal/report"
	"github.com/schedcache/kubectl-schedcache/internal/termtext"
)

// write writes the page to -o's file (through a temporary file in the same
// directory, renamed when complete, so that a failure leaves no half page)
// or to stdout.
func (o *ReportOptions) write(in *report.Input) error {
	if o.OutFile == "" || o.OutFile == "-" {
		return report.Write(o.Out, in)
	}
	tmp, err := os.CreateTemp(filepath.Dir(o.OutFile), "."+filepath.Base(o.OutFile)+".*")
	if err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	defer os.Remove(tmp.Name())
	counted := &countingWriter{w: tmp}
	if err := report.Write(counted, in); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	if err := os.Rename(tmp.Name(), o.OutFile); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	fmt.Fprintf(o.ErrOut, "wrote %s (%s): %s, %s\n", oneLine(o.OutFile), sizeText(counted.n),
		termtext.Count(len(in.Requested.Nodes), "node"), termtext.Count(pendingCount(in), "pending pod"))
	return nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// sizeText is a file size for people: "1.2 MB", "830 kB", "512 B".
func sizeText(n int64) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1_000:
		return fmt.Sprintf("%d kB", n/1_000)
	}
	return fmt.Sprintf("%d B", n)
}

// pendingCount is the number of pending pods the page decides.
func pendingCount(in *report.Input) int {
	if in.Pending == nil {
		return 0
	}
	return len(in.Pending.Pods)
}
