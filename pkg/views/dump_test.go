package views

import (
	"testing"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// TestSortPodDumpsByNamespacedName checks the order of a node's pods: by
// "namespace/name" as one string, as the dump has always listed them, so a
// namespace that another one extends ("a" and "a-b") sorts after it
// ('-' < '/'), unlike an order by namespace first.
func TestSortPodDumpsByNamespacedName(t *testing.T) {
	pods := []v1alpha1.PodDump{
		{Namespace: "a", Name: "y"},
		{Namespace: "b", Name: "a"},
		{Namespace: "a-b", Name: "x"},
		{Namespace: "a", Name: "b"},
		{Namespace: "A", Name: "z"},
	}
	sortPodDumps(pods)
	want := []string{"A/z", "a-b/x", "a/b", "a/y", "b/a"}
	for i, p := range pods {
		if got := p.Namespace + "/" + p.Name; got != want[i] {
			t.Fatalf("pod %d is %s, want %s (order %v)", i, got, want[i], want)
		}
	}
}
