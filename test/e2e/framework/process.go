package framework

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

const (
	// stopGrace is how long a component gets to exit after SIGTERM before its
	// whole process group is killed.
	stopGrace = 10 * time.Second
	// tailLines is how much of a component's log is printed when a test fails.
	tailLines = 40
)

// process is one control-plane component started by the harness.
type process struct {
	name    string
	cmd     *exec.Cmd
	logPath string
	done    chan struct{} // closed once the process has been waited for
	waitErr error         // valid after done is closed
}

// startProcess starts bin in its own process group with stdout and stderr
// appended to logPath, and registers a cleanup that stops it by PID (and
// kills its process group) and prints the log's tail if the test failed.
func startProcess(t testing.TB, name, logPath, bin string, args ...string) *process {
	t.Helper()
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatalf("e2e: %s log: %v", name, err)
	}
	// Closed in the parent right after start: the child keeps its own copy.
	defer logFile.Close()

	cmd := exec.Command(bin, args...)
	// An *os.File (not a pipe) so the child writes directly, with no copying
	// goroutine that could lose the last lines when the process dies.
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		t.Fatalf("e2e: start %s: %v", name, err)
	}
	p := &process{name: name, cmd: cmd, logPath: logPath, done: make(chan struct{})}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.done)
	}()
	t.Logf("e2e: started %s (pid %d), log %s", name, cmd.Process.Pid, logPath)
	t.Cleanup(func() {
		p.stop(t)
		if t.Failed() {
			t.Logf("e2e: last lines of %s (%s):\n%s", name, logPath, p.tail(tailLines))
		}
	})
	return p
}

// exited reports whether the process has ended, with its exit error.
func (p *process) exited() (bool, error) {
	select {
	case <-p.done:
		return true, p.waitErr
	default:
		return false, nil
	}
}

// stop sends SIGTERM to the process group, waits up to stopGrace, then sends
// SIGKILL to the group. The group's ID is the child's PID (Setpgid), so only
// what this harness started is signalled.
func (p *process) stop(t testing.TB) {
	pgid := p.cmd.Process.Pid
	if done, _ := p.exited(); !done {
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(stopGrace):
			t.Logf("e2e: %s did not exit %v after SIGTERM; killing its process group", p.name, stopGrace)
		}
	}
	// Also reaps children left behind by a component that already exited;
	// ESRCH (no such group) is the normal case.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	<-p.done
}

// signal sends sig to the component itself (not its group).
func (p *process) signal(sig syscall.Signal) error {
	if done, err := p.exited(); done {
		return fmt.Errorf("%s has exited: %v", p.name, err)
	}
	return p.cmd.Process.Signal(sig)
}

// tail returns the last n lines of the process log.
func (p *process) tail(n int) string {
	data, err := os.ReadFile(p.logPath)
	if err != nil {
		return fmt.Sprintf("(cannot read log: %v)", err)
	}
	lines := bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}

// errExited reports a component that died while the harness waited on it.
func (p *process) errExited() error {
	_, err := p.exited()
	return fmt.Errorf("%s exited early (%v); last lines of %s:\n%s", p.name, err, p.logPath, p.tail(tailLines))
}

// poll calls cond every interval until it reports true, ctx ends, or one of
// procs exits (so a crashed component fails the wait at once instead of at
// the deadline). The last error from cond is included on timeout.
func poll(ctx context.Context, what string, interval time.Duration, procs []*process, cond func(context.Context) (bool, error)) error {
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	var lastErr error
	for {
		for _, p := range procs {
			if done, _ := p.exited(); done {
				return p.errExited()
			}
		}
		ok, err := cond(ctx)
		if ok {
			return nil
		}
		if err != nil {
			lastErr = err
		}
		select {
		case <-ctx.Done():
			msg := fmt.Sprintf("timed out waiting for %s", what)
			if lastErr != nil {
				msg += ": last error: " + strings.TrimSpace(lastErr.Error())
			}
			return errors.New(msg)
		case <-ticker.C:
		}
	}
}
