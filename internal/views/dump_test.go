package views

import (
	"math/rand/v2"
	"strings"
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

// TestCompareJoinedMatchesJoinedStrings checks compareJoined against
// strings.Compare of the joined keys on random short strings over an
// alphabet around '/' ('-' and '.' sort before it, letters after), "/"
// within the first part included.
func TestCompareJoinedMatchesJoinedStrings(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		b := make([]byte, r.IntN(4))
		for i := range b {
			b[i] = "-./ab"[r.IntN(5)]
		}
		return string(b)
	}
	for range 100_000 {
		a1, a2, b1, b2 := word(), word(), word(), word()
		if got, want := compareJoined(a1, a2, b1, b2), strings.Compare(a1+"/"+a2, b1+"/"+b2); got != want {
			t.Fatalf("compareJoined(%q, %q, %q, %q) = %d, strings.Compare of the joined keys = %d", a1, a2, b1, b2, got, want)
		}
	}
}
