package load

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestOldWorkloadVersionsReadAsAppsV1: an old cluster's dump names its
// DaemonSets, ReplicaSets and StatefulSets in the versions removed in
// v1.16; they are read as the apps/v1 objects the API server serves them
// as today (kubectl drain's DaemonSet lookup, PodTopologySpread's default
// selectors), in a List and in a typed List alike.
func TestOldWorkloadVersionsReadAsAppsV1(t *testing.T) {
	in := `apiVersion: v1
kind: List
items:
- apiVersion: extensions/v1beta1
  kind: DaemonSet
  metadata: {name: agent, namespace: kube-system}
  spec: {templateGeneration: 3, selector: {matchLabels: {app: agent}}}
- apiVersion: apps/v1beta2
  kind: ReplicaSet
  metadata: {name: web-5d, namespace: shop}
  spec: {replicas: 2, selector: {matchLabels: {app: web}}}
- apiVersion: apps/v1beta1
  kind: StatefulSet
  metadata: {name: db, namespace: shop}
  spec: {selector: {matchLabels: {app: db}}}
- apiVersion: extensions/v1beta1
  kind: Ingress
  metadata: {name: front, namespace: shop}
- ` + nodeDoc("n", "1") + `
---
apiVersion: extensions/v1beta1
kind: ReplicaSetList
items:
- metadata: {name: api-7f, namespace: shop}
  spec: {selector: {matchLabels: {app: api}}}
`
	c, err := ReadFiles(FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(in), Objects: true,
		ExtraKinds: []schema.GroupKind{{Group: "apps", Kind: "DaemonSet"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range c.Objects {
		got = append(got, fmt.Sprintf("%T", o))
	}
	want := []string{"*v1.DaemonSet", "*v1.ReplicaSet", "*v1.StatefulSet", "*v1.ReplicaSet"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("objects (-want,+got):\n%s", diff)
	}
	if ds := c.Objects[0].(*appsv1.DaemonSet); ds.Spec.Selector.MatchLabels["app"] != "agent" {
		t.Errorf("DaemonSet selector %v", ds.Spec.Selector)
	}
	if rs := c.Objects[3].(*appsv1.ReplicaSet); rs.Name != "api-7f" || rs.Spec.Selector.MatchLabels["app"] != "api" {
		t.Errorf("typed List item %s, selector %v", rs.Name, rs.Spec.Selector)
	}
}

func TestServedKind(t *testing.T) {
	tests := []struct{ in, want schema.GroupVersionKind }{
		{schema.GroupVersionKind{Group: "extensions", Version: "v1beta1", Kind: "DaemonSet"}, appsv1.SchemeGroupVersion.WithKind("DaemonSet")},
		{schema.GroupVersionKind{Group: "apps", Version: "v1beta1", Kind: "StatefulSet"}, appsv1.SchemeGroupVersion.WithKind("StatefulSet")},
		{schema.GroupVersionKind{Group: "apps", Version: "v1beta2", Kind: "Deployment"}, appsv1.SchemeGroupVersion.WithKind("Deployment")},
		{schema.GroupVersionKind{Group: "extensions", Version: "v1beta1", Kind: "Ingress"}, schema.GroupVersionKind{Group: "extensions", Version: "v1beta1", Kind: "Ingress"}},
		{schema.GroupVersionKind{Group: "apps.kruise.io", Version: "v1alpha1", Kind: "DaemonSet"}, schema.GroupVersionKind{Group: "apps.kruise.io", Version: "v1alpha1", Kind: "DaemonSet"}},
	}
	for _, tc := range tests {
		if got := ServedKind(tc.in); got != tc.want {
			t.Errorf("ServedKind(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
