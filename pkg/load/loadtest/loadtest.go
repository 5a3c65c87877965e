// Package loadtest gives benchmarks and tests the synthetic clusters of
// hack/gen-cluster: the `kubectl get nodes,pods -A -o json`-style List a
// cluster of the given size would export, written to a file.
package loadtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// Large is the size the benchmarks measure: the published limits of a
// Kubernetes cluster (5,000 nodes, 150,000 pods).
const (
	LargeNodes = 5000
	LargePods  = 150000
)

// GenCluster runs hack/gen-cluster (seed 1, so the same sizes always give
// the same bytes) to write nodes and pods into dir, and returns the file's
// path. It needs the go command, as `go test` does; it skips tb when the
// module root or go cannot be found.
func GenCluster(tb testing.TB, dir string, nodes, pods int) string {
	tb.Helper()
	root, err := moduleRoot()
	if err != nil {
		tb.Skipf("loadtest: %v", err)
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		tb.Skipf("loadtest: the go command is needed to run hack/gen-cluster: %v", err)
	}
	path := filepath.Join(dir, fmt.Sprintf("cluster-%dn-%dp.json", nodes, pods))
	cmd := exec.Command(gobin, "run", "./hack/gen-cluster", "-nodes", strconv.Itoa(nodes), "-pods", strconv.Itoa(pods), "-seed", "1", "-o", path)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("loadtest: gen-cluster: %v\n%s", err, out)
	}
	return path
}

// moduleRoot walks up from the working directory (a package directory under
// go test) to the directory holding hack/gen-cluster.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if fi, err := os.Stat(filepath.Join(dir, "hack", "gen-cluster")); err == nil && fi.IsDir() {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no hack/gen-cluster above the working directory")
		}
		dir = parent
	}
}
