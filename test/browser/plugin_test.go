//go:build browser

package browser

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

// pluginEnv names a prebuilt plugin binary (make browser passes
// bin/kubectl-schedcache); without it one is built into a temporary
// directory on first use.
const pluginEnv = "SCHEDCACHE_BROWSER_PLUGIN"

// plugin is the binary the tests run (framework.Plugin).
var plugin = &framework.Plugin{Env: pluginEnv, Prefix: "schedcache-browser-plugin-"}

func TestMain(m *testing.M) {
	code := m.Run()
	plugin.Remove()
	os.Exit(code)
}

func pluginBinary(tb testing.TB) string {
	tb.Helper()
	path, err := plugin.Path()
	if err != nil {
		tb.Fatalf("plugin binary: %v", err)
	}
	return path
}

// writeReport runs `report -o OUT args...` in the repository's root (so
// that the page names examples/cluster.yaml as the README does) and
// returns how long the command took.
func writeReport(tb testing.TB, out string, args ...string) time.Duration {
	tb.Helper()
	root, err := framework.RepoRoot()
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
