package framework

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

// Plugin is the kubectl-schedcache binary a test package runs: the one the
// environment variable Env names (make builds it and sets the variable),
// else one built once per test run with `go build` into a temporary
// directory whose name starts with Prefix, so that a plain `go test` never
// runs a stale binary. The end-to-end and the browser tests share it.
type Plugin struct {
	Env, Prefix string

	once sync.Once
	path string
	err  error
	tmp  string
}

// Path returns the binary's absolute path, building it on the first call.
// Errors: Env names no executable file, or the build failed (its output
// included).
func (p *Plugin) Path() (string, error) {
	p.once.Do(func() { p.path, p.err = p.locate() })
	return p.path, p.err
}

func (p *Plugin) locate() (string, error) {
	if given := os.Getenv(p.Env); given != "" {
		abs, err := filepath.Abs(given)
		if err != nil {
			return "", err
		}
		if fi, err := os.Stat(abs); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			return "", fmt.Errorf("%s=%s is not an executable file (run `make build`)", p.Env, given)
		}
		return abs, nil
	}
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	if p.tmp, err = os.MkdirTemp("", p.Prefix); err != nil {
		return "", err
	}
	out := filepath.Join(p.tmp, "kubectl-schedcache")
	began := time.Now()
	cmd := exec.Command("go", "build", "-o", out, "./cmd/kubectl-schedcache")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/kubectl-schedcache: %v\n%s", err, b)
	}
	fmt.Fprintf(os.Stderr, "built the plugin into %s in %v\n", out, time.Since(began).Round(time.Millisecond))
	return out, nil
}

// Remove deletes the directory the binary was built in, if any (TestMain
// calls it once the tests are done).
func (p *Plugin) Remove() {
	if p.tmp != "" {
		_ = os.RemoveAll(p.tmp)
	}
}
