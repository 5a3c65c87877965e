package views

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// TestPendingElsewhereHint: the pending pods of other namespaces that the
// selector matches, counted by hand from the list below.
func TestPendingElsewhereHint(t *testing.T) {
	pod := func(ns, app string) *v1.Pod {
		return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "p", Labels: map[string]string{"app": app}}}
	}
	pending := []*v1.Pod{pod("apps", "web"), pod("apps", "web"), pod("apps", "db"), pod("batch", "web"), pod("c", "x"), pod("d", "x")}
	web := labels.SelectorFromSet(labels.Set{"app": "web"})
	for _, tc := range []struct {
		name    string
		pending []*v1.Pod
		ns      string
		sel     labels.Selector
		want    string
	}{
		{"none pending", nil, "default", nil, ""},
		{"only in ns", pending[:3], "apps", nil, ""},
		{"one namespace", pending[:3], "default", nil, "3 pods are Pending in namespace apps: -n apps or -A shows them"},
		{"one pod", pending[3:4], "default", nil, "1 pod is Pending in namespace batch: -n batch or -A shows it"},
		{"selector", pending, "default", web, "3 pods are Pending in 2 other namespaces (apps, batch): -A shows them"},
		{"selector elsewhere", pending, "apps", web, "1 pod is Pending in namespace batch: -n batch or -A shows it"},
		{"selector matches none", pending, "default", labels.SelectorFromSet(labels.Set{"app": "nope"}), ""},
		{"many namespaces", pending, "default", nil, "6 pods are Pending in 4 other namespaces (apps, batch, c, 1 more): -A shows them"},
	} {
		if got := PendingElsewhereHint(tc.pending, tc.ns, tc.sel); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
