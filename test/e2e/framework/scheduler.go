package framework

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/schedcache/kubectl-schedcache/internal/schedlog"
)

const (
	// schedulerStartTimeout bounds StartScheduler's wait for the initial sync.
	schedulerStartTimeout = time.Minute
	// dumpTimeout bounds DumpCache when its context has no deadline; the
	// scheduler answers in under a second even with 45,000 pods.
	dumpTimeout = 30 * time.Second
)

// syncedMessage is logged (at V(3), enabled for server.go only via
// --vmodule) once the scheduler's informers and event handlers have synced:
// from then on its cache reflects the cluster, and its SIGUSR2 handler,
// installed before that, is in place. (Before it is installed, SIGUSR2 would
// kill the process.)
const syncedMessage = `"Handlers synced"`

// Scheduler is a running kube-scheduler.
type Scheduler struct {
	// LogPath is the scheduler's log (stdout and stderr).
	LogPath string

	proc *process
	mu   sync.Mutex // one DumpCache at a time, so records are not mixed up
}

// StartScheduler runs the real kube-scheduler against c as admin (no leader
// election, no serving port) and waits until its caches have synced. It is
// stopped in t.Cleanup. args are added to its command line (e.g. --config).
func StartScheduler(t *testing.T, c *Cluster, args ...string) *Scheduler {
	t.Helper()
	began := time.Now()
	s := &Scheduler{LogPath: filepath.Join(c.Dir, "kube-scheduler.log")}
	// A scheduler started again appends to the same log: wait for this
	// start's sync, not the last one's.
	lr := &logReader{path: s.LogPath}
	if fi, err := os.Stat(s.LogPath); err == nil {
		lr.off = fi.Size()
	}
	s.proc = startProcess(t, "kube-scheduler", s.LogPath, c.Binaries.KubeScheduler, append([]string{
		"--kubeconfig=" + c.Kubeconfig(UserAdmin),
		"--leader-elect=false",
		"--secure-port=0",
		"--vmodule=server=3",
	}, args...)...)
	ctx, cancel := context.WithTimeout(t.Context(), schedulerStartTimeout)
	defer cancel()
	err := poll(ctx, "kube-scheduler to sync", 50*time.Millisecond, []*process{s.proc, c.apiserver}, func(context.Context) (bool, error) {
		if err := lr.readMore(); err != nil {
			return false, err
		}
		return bytes.Contains(lr.buf, []byte(syncedMessage)), nil
	})
	if err != nil {
		t.Fatalf("e2e: %v", err)
	}
	t.Logf("e2e: kube-scheduler synced in %v", time.Since(began).Round(time.Millisecond))
	return s
}

// Stop stops the scheduler (SIGTERM, then SIGKILL) and waits for it; a
// scheduler started again with StartScheduler appends to the same log.
func (s *Scheduler) Stop(t *testing.T) {
	t.Helper()
	s.proc.stop(t)
}

// DumpCache sends SIGUSR2 to the scheduler and returns the cache dump it
// logs in response, read with internal/schedlog from what the log gained after
// the signal. It polls the log until that holds a complete dump; ctx bounds
// the wait, or dumpTimeout if ctx has no deadline.
func (s *Scheduler) DumpCache(ctx context.Context) (*schedlog.Dump, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, dumpTimeout)
		defer cancel()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	fi, err := os.Stat(s.LogPath)
	if err != nil {
		return nil, err
	}
	// Only what is logged after the signal counts.
	lr := &logReader{path: s.LogPath, off: fi.Size()}
	if err := s.proc.signal(syscall.SIGUSR2); err != nil {
		return nil, err
	}
	var dump *schedlog.Dump
	err = poll(ctx, "the scheduler's cache dump", 20*time.Millisecond, []*process{s.proc}, func(context.Context) (bool, error) {
		if err := lr.readMore(); err != nil {
			return false, err
		}
		// Until the queue record that ends the dump is written, Parse
		// reports no dump or a truncated one; poll keeps the last error.
		d, err := schedlog.Parse(bytes.NewReader(lr.buf))
		if err != nil {
			return false, err
		}
		dump = d
		return true, nil
	})
	return dump, err
}

// logReader reads a growing log file incrementally.
type logReader struct {
	path string
	off  int64
	buf  []byte
}

func (r *logReader) readMore() error {
	f, err := os.Open(r.path)
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := io.ReadAll(io.NewSectionReader(f, r.off, 1<<62))
	if err != nil {
		return fmt.Errorf("read %s: %w", r.path, err)
	}
	r.off += int64(len(data))
	r.buf = append(r.buf, data...)
	return nil
}
