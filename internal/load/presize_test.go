package load

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPodsHint(t *testing.T) {
	tests := []struct {
		name                string
		pods                int
		podText, read, size int64
		want                int
	}{
		// 1,000 bytes a pod, after 42,048,000 bytes of 150,000,000:
		// 107,952,000 / 1,000 more.
		{"small pods after the nodes", 2048, 2_048_000, 42_048_000, 150_000_000, 110_000},
		{"size unknown", 2048, 2_048_000, 42_048_000, 0, 2048},
		{"all read", 2048, 2_048_000, 42_048_000, 42_048_000, 2048},
		// 10 bytes a pod would make 10.7 M more; no pod is under 100 bytes.
		{"bounded", 2048, 20_480, 42_048_000, 150_000_000, 2048 + 1_500_000},
	}
	for _, tc := range tests {
		if got := podsHint(tc.pods, tc.podText, tc.read, tc.size); got != tc.want {
			t.Errorf("%s: podsHint = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestPodKeysSizedKeepTheirKeys: once the collector sizes its map of pod
// keys for the whole file, a pod read before keeps its key: a later pod of
// the same name replaces it, as an update would.
func TestPodKeysSizedKeepTheirKeys(t *testing.T) {
	var list strings.Builder
	list.WriteString(`{"apiVersion":"v1","kind":"List","items":[`)
	pod := func(i int, node string) string {
		return fmt.Sprintf(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p%d","namespace":"ns","uid":"u%d"},"spec":{"nodeName":%q,"containers":[{"name":"c"}]},"status":{"phase":"Running"}}`, i, i, node)
	}
	for i := range 3 * podKeysAt {
		list.WriteString(pod(i, "a") + ",")
	}
	list.WriteString(pod(10, "b") + "]}")
	name := filepath.Join(t.TempDir(), "pods.json")
	if err := os.WriteFile(name, []byte(list.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	var warnings bytes.Buffer
	c, err := ReadFiles(FileOptions{Filenames: []string{name}}, &warnings)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Pods) != 3*podKeysAt {
		t.Errorf("%d pods, want %d", len(c.Pods), 3*podKeysAt)
	}
	if !strings.Contains(warnings.String(), `pod "ns/p10" in `) || c.Pods[10].Spec.NodeName != "b" {
		t.Errorf("pod p10 not replaced (on %s); warnings:\n%s", c.Pods[10].Spec.NodeName, warnings.String())
	}
}
