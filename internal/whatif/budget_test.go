package whatif

import (
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// TestBudgetsEvict mirrors the eviction API's checks of kube-apiserver
// v1.36.3 (pkg/registry/core/pod/storage/eviction.go), one case each.
func TestBudgetsEvict(t *testing.T) {
	notReady := func(p *v1.Pod) *v1.Pod { p.Status.Conditions = nil; return p }
	phase := func(ph v1.PodPhase) func(*v1.Pod) *v1.Pod {
		return func(p *v1.Pod) *v1.Pod { p.Status.Phase = ph; return p }
	}
	for _, tc := range []struct {
		name    string
		pdbs    []*policyv1.PodDisruptionBudget
		pod     func(*v1.Pod) *v1.Pod
		want    Admission
		allowed int32 // the budget's allowance afterwards
		msg     string
	}{
		{"no budget", nil, nil, Admitted, 0, ""},
		{"allowance taken", []*policyv1.PodDisruptionBudget{webPDB(2, 4, 2)}, nil, Admitted, 1, ""},
		{"allowance 0", []*policyv1.PodDisruptionBudget{webPDB(0, 2, 2)}, nil, Refused, 0,
			BudgetViolation + " (The disruption budget web-pdb needs 2 healthy pods and has 2 currently)"},
		{"negative", []*policyv1.PodDisruptionBudget{webPDB(-1, 1, 2)}, nil, Failed, -1, "pdb disruptions allowed is negative"},
		{"status behind spec", []*policyv1.PodDisruptionBudget{stale(webPDB(1, 3, 2))}, nil, Refused, 1,
			BudgetViolation + " (The disruption budget web-pdb is still being processed by the server.)"},
		{"two budgets", []*policyv1.PodDisruptionBudget{webPDB(1, 3, 2), named(webPDB(1, 3, 2), "other")}, nil, Failed, 1, BudgetsMultiple},
		// Pending, terminal and terminating pods ignore budgets.
		{"pending phase", []*policyv1.PodDisruptionBudget{webPDB(0, 2, 2)}, phase(v1.PodPending), Admitted, 0, ""},
		{"succeeded", []*policyv1.PodDisruptionBudget{webPDB(0, 2, 2)}, phase(v1.PodSucceeded), Admitted, 0, ""},
		// Not Ready: goes without using the allowance when the budget is
		// healthy enough (IfHealthyBudget, the default) or AlwaysAllow.
		{"unready, healthy budget", []*policyv1.PodDisruptionBudget{webPDB(0, 2, 2)}, notReady, Admitted, 0, ""},
		{"unready, unhealthy budget", []*policyv1.PodDisruptionBudget{webPDB(0, 1, 2)}, notReady, Refused, 0,
			BudgetViolation + " (The disruption budget web-pdb needs 2 healthy pods and has 1 currently)"},
		{"unready, AlwaysAllow", []*policyv1.PodDisruptionBudget{alwaysAllow(webPDB(0, 1, 2))}, notReady, Admitted, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bs := NewBudgets(tc.pdbs)
			p := webPod("web-a", "n1")
			if tc.pod != nil {
				p = tc.pod(p)
			}
			ev := bs.Evict(p)
			if ev.Admission != tc.want || ev.Message != tc.msg {
				t.Errorf("got %v %q, want %v %q", ev.Admission, ev.Message, tc.want, tc.msg)
			}
			if len(bs.all) > 0 && bs.all[0].Allowed != tc.allowed {
				t.Errorf("allowance %d, want %d", bs.all[0].Allowed, tc.allowed)
			}
		})
	}
}

// TestBudgetRestore: a placed replacement gives one disruption back.
func TestBudgetRestore(t *testing.T) {
	bs := NewBudgets([]*policyv1.PodDisruptionBudget{webPDB(1, 3, 2)})
	ev := bs.Evict(webPod("web-a", "n1"))
	if !ev.Consumed || bs.Evict(webPod("web-b", "n1")).Admission != Refused {
		t.Fatal("the one disruption should be used by web-a")
	}
	ev.Budget.Restore()
	if b := bs.all[0]; b.Allowed != 1 || b.Healthy != 3 {
		t.Errorf("after restore: allowed %d healthy %d, want 1 and 3", b.Allowed, b.Healthy)
	}
}

// TestBudgetSelectors: a nil selector selects nothing (policy/v1), an
// empty one every pod of the namespace; other namespaces never.
func TestBudgetSelectors(t *testing.T) {
	none, all, elsewhere := webPDB(0, 1, 1), webPDB(0, 1, 1), webPDB(0, 1, 1)
	none.Spec.Selector = nil
	all.Spec.Selector = &metav1.LabelSelector{}
	elsewhere.Namespace = "other"
	var got []string
	for _, b := range NewBudgets([]*policyv1.PodDisruptionBudget{named(none, "none"), named(all, "all"), named(elsewhere, "elsewhere")}).Of(webPod("web-a", "n1")) {
		got = append(got, b.PDB.Name)
	}
	if strings.Join(got, ",") != "all" {
		t.Errorf("selected by %v, want [all]", got)
	}
}

func stale(p *policyv1.PodDisruptionBudget) *policyv1.PodDisruptionBudget {
	p.Generation = 2
	return p
}

func named(p *policyv1.PodDisruptionBudget, name string) *policyv1.PodDisruptionBudget {
	p.Name = name
	return p
}

func alwaysAllow(p *policyv1.PodDisruptionBudget) *policyv1.PodDisruptionBudget {
	p.Spec.UnhealthyPodEvictionPolicy = ptr.To(policyv1.AlwaysAllow)
	return p
}
