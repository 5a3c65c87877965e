package framework

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// KubernetesVersion is the release the binaries are built from; it must match
// k8s.io/kubernetes in hack/tools/go.mod.
const KubernetesVersion = "v1.36.3"

// BinDirEnv overrides where the control-plane binaries are looked up.
const BinDirEnv = "SCHEDCACHE_E2E_BIN_DIR"

const modulePath = "github.com/schedcache/kubectl-schedcache"

// Binaries holds the paths of the control-plane executables.
type Binaries struct {
	Etcd          string
	KubeAPIServer string
	KubeScheduler string
}

// LocateBinaries finds the binaries built by hack/e2e-binaries.sh. When one is
// missing the test fails with the command to run, or is skipped under -short
// (so `go test -short` never needs the ~10 minute build).
func LocateBinaries(t testing.TB) Binaries {
	t.Helper()
	dir := os.Getenv(BinDirEnv)
	if dir == "" {
		root, err := repoRoot()
		if err != nil {
			t.Fatalf("e2e: %v; set %s to the directory holding etcd, kube-apiserver and kube-scheduler", err, BinDirEnv)
		}
		dir = filepath.Join(root, "hack", "tools", "bin", KubernetesVersion)
	}
	b := Binaries{
		Etcd:          filepath.Join(dir, "etcd"),
		KubeAPIServer: filepath.Join(dir, "kube-apiserver"),
		KubeScheduler: filepath.Join(dir, "kube-scheduler"),
	}
	for _, p := range []string{b.Etcd, b.KubeAPIServer, b.KubeScheduler} {
		if fi, err := os.Stat(p); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			msg := fmt.Sprintf("e2e: control-plane binary %s is missing; run `make e2e` "+
				"(or `make e2e-binaries`, or point %s at a directory holding etcd, kube-apiserver and kube-scheduler)", p, BinDirEnv)
			if testing.Short() {
				t.Skip(msg)
			}
			t.Fatal(msg)
		}
	}
	return b
}

// RepoRoot returns the root of this module's checkout (the directory of its
// go.mod), found from the working directory; tests use it to build or find
// the plugin binary.
func RepoRoot() (string, error) { return repoRoot() }

// repoRoot walks up from the working directory (go test runs in the package
// directory) to the go.mod of this module. It does not rely on the source
// path recorded at compile time, which -trimpath would hide.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if isModuleRoot(filepath.Join(dir, "go.mod")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("cannot find the go.mod of %s above the working directory", modulePath)
		}
		dir = parent
	}
}

func isModuleRoot(goMod string) bool {
	f, err := os.Open(goMod)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) == 2 && fields[0] == "module" {
			return strings.Trim(fields[1], `"`) == modulePath
		}
	}
	return false
}
