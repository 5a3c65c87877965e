package framework

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// etcdQuotaBackendBytes lifts etcd's 2 GiB default so loads of tens of
// thousands of pods do not hit "mvcc: database space exceeded".
const etcdQuotaBackendBytes = 4 << 30

// startEtcd starts a single-member etcd on loopback and waits for /health.
// It returns the client URL. An etcd whose port was taken meanwhile is
// started again on other ports (maxPortTries).
func startEtcd(ctx context.Context, t testing.TB, bin, logDir string) (string, *process) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		clientURL, p, err := tryEtcd(ctx, t, bin, logDir)
		if err == nil {
			return clientURL, p
		}
		if attempt == maxPortTries || !portTaken(p) {
			t.Fatalf("e2e: %v", err)
		}
		setAsideLog(t, p, attempt)
	}
}

// tryEtcd starts etcd once, on new ports and a new data dir, and waits for
// /health; the process is returned with the error when it did not answer.
func tryEtcd(ctx context.Context, t testing.TB, bin, logDir string) (string, *process, error) {
	t.Helper()
	dataDir := etcdDataDir(t)
	addrs := freeAddrs(t, 2)
	clientURL, peerURL := "http://"+addrs[0], "http://"+addrs[1]
	p := startProcess(t, "etcd", filepath.Join(logDir, "etcd.log"), bin,
		"--name=e2e",
		"--data-dir="+dataDir,
		"--listen-client-urls="+clientURL,
		"--advertise-client-urls="+clientURL,
		"--listen-peer-urls="+peerURL,
		"--initial-advertise-peer-urls="+peerURL,
		"--initial-cluster=e2e="+peerURL,
		"--initial-cluster-state=new",
		"--quota-backend-bytes="+strconv.FormatInt(etcdQuotaBackendBytes, 10),
		// The data is thrown away after the test; fsync only costs time.
		"--unsafe-no-fsync",
	)
	hc := &http.Client{Timeout: 2 * time.Second}
	err := poll(ctx, "etcd /health", 100*time.Millisecond, []*process{p}, func(ctx context.Context) (bool, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, clientURL+"/health", nil)
		if err != nil {
			return false, err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return false, err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return false, fmt.Errorf("etcd /health: %s", resp.Status)
		}
		return true, nil
	})
	return clientURL, p, err
}

// etcdDataDir prefers /dev/shm: etcd on tmpfs is much faster than on disk,
// which matters once tests load thousands of objects.
func etcdDataDir(t testing.TB) string {
	t.Helper()
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		removeStaleShmDirs()
		prefix := fmt.Sprintf("%s%d-", shmPrefix, os.Getpid())
		if dir, err := os.MkdirTemp("/dev/shm", prefix); err == nil {
			// Registered before etcd starts, so it runs after etcd is stopped.
			t.Cleanup(func() { _ = os.RemoveAll(dir) })
			return filepath.Join(dir, "data")
		}
	}
	return filepath.Join(t.TempDir(), "etcd-data")
}

// shmPrefix names the harness's etcd data dirs in /dev/shm, followed by the
// PID of the test binary that made them.
const shmPrefix = "schedcache-e2e-etcd-"

// removeStaleShmDirs deletes data dirs left in /dev/shm by test binaries
// that died without running their cleanups (e.g. a -timeout panic; etcd
// itself is killed then through Pdeathsig). tmpfs is memory, so they would
// otherwise pile up. Only dirs whose PID no longer exists are touched.
func removeStaleShmDirs() {
	matches, _ := filepath.Glob(filepath.Join("/dev/shm", shmPrefix+"*"))
	for _, m := range matches {
		pidStr, _, ok := strings.Cut(strings.TrimPrefix(filepath.Base(m), shmPrefix), "-")
		pid, err := strconv.Atoi(pidStr)
		if !ok || err != nil || pid <= 0 {
			continue
		}
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			_ = os.RemoveAll(m)
		}
	}
}
