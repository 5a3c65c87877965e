//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

// pluginEnv names a prebuilt plugin binary to test (make e2e sets it to
// bin/kubectl-schedcache after `make build`). Without it the binary is built
// once per test run with `go build` into a temporary directory, so a plain
// `go test -tags e2e ./test/e2e/...` never runs a stale binary.
const pluginEnv = "SCHEDCACHE_E2E_PLUGIN"

// pluginTimeout bounds one run of the plugin; every command here finishes in
// a few seconds, so hitting it means a hang.
const pluginTimeout = 2 * time.Minute

// plugin is the binary the tests run (framework.Plugin).
var plugin = &framework.Plugin{Env: pluginEnv, Prefix: "schedcache-e2e-plugin-"}

// TestMain removes the directory the plugin was built in, if any.
func TestMain(m *testing.M) {
	code := m.Run()
	plugin.Remove()
	os.Exit(code)
}

// pluginBinary returns the path of the real kubectl-schedcache binary,
// building it on first use.
func pluginBinary(t *testing.T) string {
	t.Helper()
	path, err := plugin.Path()
	if err != nil {
		t.Fatalf("e2e: plugin binary: %v", err)
	}
	return path
}

// runResult is one finished run of the plugin.
type runResult struct {
	args           []string
	stdout, stderr string
	code           int
	elapsed        time.Duration
}

func (r runResult) String() string {
	return fmt.Sprintf("kubectl-schedcache %s: exit %d after %v\nstderr:\n%s", strings.Join(r.args, " "), r.code,
		r.elapsed.Round(time.Millisecond), r.stderr)
}

// runPlugin runs the built binary with args (and stdin, which may be nil),
// with no KUBECONFIG from the environment and colour off, and returns how it
// ended. It fails the test if the binary cannot start or hangs.
func runPlugin(t *testing.T, stdin io.Reader, args ...string) runResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), pluginTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, pluginBinary(t), args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr, cmd.Stdin = &stdout, &stderr, stdin
	env := []string{"NO_COLOR=1", "HOME=" + t.TempDir()}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "KUBECONFIG=") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	began := time.Now()
	err := cmd.Run()
	r := runResult{args: args, stdout: stdout.String(), stderr: stderr.String(), elapsed: time.Since(began)}
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("kubectl-schedcache %s did not finish within %v; stderr:\n%s", strings.Join(args, " "), pluginTimeout, r.stderr)
	case errors.As(err, &exitErr):
		r.code = exitErr.ExitCode()
	case err != nil:
		t.Fatalf("run kubectl-schedcache %s: %v", strings.Join(args, " "), err)
	}
	return r
}

// mustRun runs the plugin and fails the test unless it exits 0; it returns
// standard output.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	r := runPlugin(t, nil, args...)
	if r.code != 0 {
		t.Fatalf("%v", r)
	}
	return r.stdout
}

// decodeKind decodes the plugin's -o json output into T, after checking its
// apiVersion and kind.
func decodeKind[T any](t *testing.T, kind, out string) *T {
	t.Helper()
	var tm struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := json.Unmarshal([]byte(out), &tm); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if want := v1alpha1.SchemeGroupVersion.String(); tm.APIVersion != want || tm.Kind != kind {
		t.Fatalf("output is apiVersion %q kind %q, want %q %q", tm.APIVersion, tm.Kind, want, kind)
	}
	v := new(T)
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("decode %s: %v", kind, err)
	}
	return v
}

// topLevelSource matches the top-level "source" line of the plugin's -o json
// output (cli-runtime's JSON printer indents top-level keys by 4 spaces).
var topLevelSource = regexp.MustCompile(`(?m)^    "source": "(?:[^"\\]|\\.)*",?$`)

// blankSource replaces the value of the top-level "source" field with "",
// leaving every other byte alone.
func blankSource(t *testing.T, out string) string {
	t.Helper()
	if n := len(topLevelSource.FindAllStringIndex(out, -1)); n != 1 {
		t.Fatalf("want exactly one top-level \"source\" line in the JSON output, found %d:\n%s", n, out)
	}
	return topLevelSource.ReplaceAllStringFunc(out, func(line string) string {
		if strings.HasSuffix(line, ",") {
			return `    "source": "",`
		}
		return `    "source": ""`
	})
}

// firstDiff describes where two texts first differ, line by line, with a
// little context.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < max(len(al), len(bl)); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y || i >= len(al) || i >= len(bl) {
			from := max(0, i-3)
			var ctx strings.Builder
			for j := from; j < i && j < len(al); j++ {
				fmt.Fprintf(&ctx, "   %s\n", al[j])
			}
			return fmt.Sprintf("first difference at line %d (of %d vs %d):\n%s - %s\n + %s", i+1, len(al), len(bl), ctx.String(), x, y)
		}
	}
	return "no difference"
}

// tableLine returns the first line of a table whose first column is name.
func tableLine(t *testing.T, table, name string) string {
	t.Helper()
	for _, line := range strings.Split(table, "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == name {
			return line
		}
	}
	t.Fatalf("no table row %q in:\n%s", name, table)
	return ""
}

// waitUntil polls cond every 200 ms until it holds or ctx ends; on timeout
// the test fails with what and cond's last explanation.
func waitUntil(ctx context.Context, t *testing.T, what string, cond func() (bool, string)) {
	t.Helper()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		ok, why := cond()
		if ok {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("timed out waiting for %s:\n%s", what, why)
		case <-tick.C:
		}
	}
}
