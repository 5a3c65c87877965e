package framework

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKubernetesVersionMatchesTools keeps KubernetesVersion (where the tests
// look for binaries) in step with the version hack/e2e-binaries.sh builds.
func TestKubernetesVersionMatchesTools(t *testing.T) {
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "hack", "tools", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "k8s.io/kubernetes" {
			if f[1] != KubernetesVersion {
				t.Fatalf("hack/tools/go.mod builds k8s.io/kubernetes %s but KubernetesVersion is %s", f[1], KubernetesVersion)
			}
			return
		}
	}
	t.Fatal("hack/tools/go.mod does not require k8s.io/kubernetes")
}
