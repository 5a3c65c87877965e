package whatif

import (
	"context"
	"fmt"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// oldOwnerPod is a pod of node n1 whose controller is kind/name of
// apiVersion, with an emptyDir volume (kubectl's local-storage rule comes
// after its DaemonSet rule).
func oldOwnerPod(name, apiVersion, kind, owner string) *v1.Pod {
	p := testPod("kube-system", name, "n1", "100m", kind+"/"+owner)
	p.OwnerReferences[0].APIVersion = apiVersion
	p.Spec.Volumes = []v1.Volume{{Name: "buf", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}}}
	return p
}

// TestPlanDrainOldDaemonSetOwners: the pods of a DaemonSet created as
// extensions/v1beta1 or apps/v1beta2 (served as apps/v1 since v1.16) are
// DaemonSet pods to the drain, as to kubectl of those clusters: without
// flags they block as DaemonSet-managed (not as local storage), with
// --ignore-daemonsets they stay. kubectl drain v0.36.3's own filter wants
// "apps/v1" (isControllerRefDaemonSet), so a kind of another group (a
// custom resource named DaemonSet) stays a plain controller: its pod is
// judged by the later rules (here: local storage).
func TestPlanDrainOldDaemonSetOwners(t *testing.T) {
	const (
		blocked = `block "cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore)"`
		ignored = `leave "ignoring DaemonSet-managed Pods"`
		local   = `block "cannot delete Pods with local storage (use --delete-emptydir-data to override)"`
	)
	tests := []struct {
		apiVersion          string
		noFlags, ignoreDSes string
	}{
		{"apps/v1", blocked, ignored},
		{"extensions/v1beta1", blocked, ignored},
		{"apps/v1beta2", blocked, ignored},
		{"apps.kruise.io/v1alpha1", local, local},
	}
	for _, tc := range tests {
		t.Run(tc.apiVersion, func(t *testing.T) {
			pod := oldOwnerPod("agent-n1", tc.apiVersion, "DaemonSet", "agent")
			pods := map[string][]*v1.Pod{"n1": {pod}}
			known := []*appsv1.DaemonSet{{ObjectMeta: metav1.ObjectMeta{Namespace: "kube-system", Name: "agent"}}}
			for _, rules := range []struct {
				rules DrainRules
				want  string
			}{
				{DrainRules{DaemonSetsComplete: true}, tc.noFlags},
				{DrainRules{DaemonSetsComplete: true, IgnoreDaemonSets: true}, tc.ignoreDSes},
			} {
				plan, err := PlanDrain(context.Background(), []string{"n1"}, pods, known, rules.rules)
				if err != nil {
					t.Fatal(err)
				}
				r := plan.Nodes[0].Pods[0]
				if got := fmt.Sprintf("%s %q", r.Disposition, r.Message); got != rules.want {
					t.Errorf("%+v: got %s, want %s", rules.rules, got, rules.want)
				}
				if r.Pod != pod {
					t.Error("the rule must name the input's pod, not kubectl's copy")
				}
			}
			if got := pod.OwnerReferences[0].APIVersion; got != tc.apiVersion {
				t.Errorf("the input pod was modified: apiVersion %s", got)
			}
		})
	}
}

// TestRecreationOfOldOwners: what a controller does with its evicted pod
// depends on its kind, whatever version its reference names.
func TestRecreationOfOldOwners(t *testing.T) {
	tests := []struct {
		apiVersion, kind string
		want             Recreation
		sameName         bool
	}{
		{"extensions/v1beta1", "ReplicaSet", Recreated, false},
		{"apps/v1beta2", "ReplicaSet", Recreated, false},
		{"apps/v1beta1", "StatefulSet", Recreated, true},
		{"apps/v1beta2", "StatefulSet", Recreated, true},
		{"extensions/v1beta1", "DaemonSet", NotMoved, false},
		{"apps/v1beta2", "DaemonSet", NotMoved, false},
	}
	for _, tc := range tests {
		pod := oldOwnerPod("p-0", tc.apiVersion, tc.kind, "owner")
		if got := RecreationOf(pod); got != tc.want {
			t.Errorf("%s %s: %s, want %s", tc.apiVersion, tc.kind, got, tc.want)
		}
		if got := Replacement(pod).Name == pod.Name; got != tc.sameName {
			t.Errorf("%s %s: replacement keeps the name: %v, want %v", tc.apiVersion, tc.kind, got, tc.sameName)
		}
	}
}
