//go:build browser

package browser

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// pluginEnv names a prebuilt plugin binary (make browser passes
// bin/kubectl-schedcache); without it one is built into a temporary
// directory on first use.
const pluginEnv = "SCHEDCACHE_BROWSER_PLUGIN"

var (
	pluginOnce sync.Once
	pluginPath string
	pluginErr  error
	pluginTmp  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if pluginTmp != "" {
		_ = os.RemoveAll(pluginTmp)
	}
	os.Exit(code)
}

// repoRoot is the directory of the main module's go.mod above the test.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && !strings.Contains(dir, filepath.Join("hack", "tools")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the test")
		}
		dir = parent
	}
}

func pluginBinary(tb testing.TB) string {
	tb.Helper()
	pluginOnce.Do(func() {
		if p := os.Getenv(pluginEnv); p != "" {
			pluginPath, pluginErr = filepath.Abs(p)
			return
		}
		root, err := repoRoot()
		if err != nil {
			pluginErr = err
			return
		}
		if pluginTmp, err = os.MkdirTemp("", "schedcache-browser-plugin-"); err != nil {
			pluginErr = err
			return
		}
		out := filepath.Join(pluginTmp, "kubectl-schedcache")
		cmd := exec.Command("go", "build", "-o", out, "./cmd/kubectl-schedcache")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if b, err := cmd.CombinedOutput(); err != nil {
			pluginErr = fmt.Errorf("go build ./cmd/kubectl-schedcache: %v\n%s", err, b)
			return
		}
		pluginPath = out
	})
	if pluginErr != nil {
		tb.Fatalf("plugin binary: %v", pluginErr)
	}
	return pluginPath
}

// writeReport runs `report -o OUT args...` in the repository's root (so
// that the page names examples/cluster.yaml as the README does) and
// returns how long the command took.
func writeReport(tb testing.TB, out string, args ...string) time.Duration {
	tb.Helper()
	root, err := repoRoot()
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(pluginBinary(tb), append([]string{"report", "-o", out}, args...)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "KUBECONFIG=/dev/null")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	began := time.Now()
	if err := cmd.Run(); err != nil {
		tb.Fatalf("kubectl-schedcache report %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return time.Since(began)
}
