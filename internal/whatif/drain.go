package whatif

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/kubectl/pkg/drain"

	"github.com/schedcache/kubectl-schedcache/internal/load"
)

// DrainRules are the flags of kubectl drain that decide which of a node's
// pods go: the same names and meanings as kubectl drain v1.36's.
type DrainRules struct {
	// Force deletes pods that declare no controller (--force), and
	// DaemonSet pods whose DaemonSet is gone.
	Force bool
	// IgnoreDaemonSets leaves DaemonSet-managed pods in place instead of
	// refusing to drain (--ignore-daemonsets).
	IgnoreDaemonSets bool
	// DeleteEmptyDirData deletes pods with emptyDir volumes
	// (--delete-emptydir-data).
	DeleteEmptyDirData bool
	// PodSelector restricts the drain to the pods it selects
	// (--pod-selector): kubectl lists only those.
	PodSelector string
	// DaemonSetsComplete says the DaemonSets given are every DaemonSet of
	// the cluster (listed live). Otherwise (a dump, which often lacks
	// them) a DaemonSet a pod names but the input lacks is taken to exist.
	DaemonSetsComplete bool
}

// Disposition is what kubectl drain does with one of the node's pods.
type Disposition string

const (
	// Evict means: the pod is evicted (kubectl's filters let it go).
	Evict Disposition = "evict"
	// Leave means: the pod stays on the node without blocking the drain
	// (DaemonSet pods with --ignore-daemonsets, mirror pods).
	Leave Disposition = "leave"
	// Block means: the pod stops the drain of its node (a filter's error):
	// kubectl then evicts none of the node's pods.
	Block Disposition = "block"
)

// PodRule is kubectl drain's decision for one pod of a drained node.
type PodRule struct {
	Pod  *v1.Pod
	Node string
	Disposition
	// Message is kubectl's text for the decision: the error of a blocking
	// pod ("cannot delete Pods with local storage (use
	// --delete-emptydir-data to override)"), the warning of an evicted or
	// left pod ("deleting Pods that declare no controller", "ignoring
	// DaemonSet-managed Pods"), or "" (a mirror pod, an evicted pod
	// without warning).
	Message string
}

// NodeRules are the decisions for one node's pods, in kubectl's list
// order (namespace, then name, as the API server lists them).
type NodeRules struct {
	Node string
	Pods []PodRule
	// Blocked: some pod blocks the drain, so kubectl evicts none of them
	// (kubectl drain v1.36, deleteOrEvictPodsSimple stops at the filters'
	// errors).
	Blocked bool
}

// DrainPlan is kubectl drain's decision for each pod of the drained
// nodes, node by node.
type DrainPlan struct {
	Nodes []NodeRules
	// AssumedDaemonSets are the "namespace/name" of DaemonSets pods name as
	// their controller that the input lacks, taken to exist (see
	// DrainRules.DaemonSetsComplete), sorted.
	AssumedDaemonSets []string
}

// PlanDrain applies kubectl drain's pod filters (k8s.io/kubectl/pkg/drain
// Helper.GetPodsForDeletion, v0.36.3: deleted-pod skip, DaemonSet,
// mirror-pod, local-storage, unreplicated, in that order) to the pods of
// each node of nodes, given as podsOf (any order). The Helper runs
// against a fake clientset that knows daemonSets (and the assumed ones)
// and lists one pod at a time, so that every pod gets its own verdict in
// kubectl's words. Nothing is sent anywhere.
//
// Errors: a --pod-selector that does not parse.
func PlanDrain(ctx context.Context, nodes []string, podsOf map[string][]*v1.Pod, daemonSets []*appsv1.DaemonSet, rules DrainRules) (*DrainPlan, error) {
	selector, err := labels.Parse(rules.PodSelector)
	if err != nil {
		return nil, fmt.Errorf("--pod-selector: %w", err)
	}
	plan := &DrainPlan{}
	known := make(map[string]*appsv1.DaemonSet, len(daemonSets))
	for _, ds := range daemonSets {
		known[ds.Namespace+"/"+ds.Name] = ds
	}
	if !rules.DaemonSetsComplete {
		for _, node := range nodes {
			for _, p := range podsOf[node] {
				ref := metav1.GetControllerOfNoCopy(p)
				if ref == nil || ref.Kind != "DaemonSet" || !selector.Matches(labels.Set(p.Labels)) {
					continue
				}
				if key := p.Namespace + "/" + ref.Name; known[key] == nil {
					known[key] = &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Namespace: p.Namespace, Name: ref.Name}}
					plan.AssumedDaemonSets = append(plan.AssumedDaemonSets, key)
				}
			}
		}
		sort.Strings(plan.AssumedDaemonSets)
	}
	var listed *v1.Pod // what the pod list returns: the pod being decided
	client := clientFor(known, &listed)
	helper := &drain.Helper{
		Ctx: ctx, Client: client, Force: rules.Force, IgnoreAllDaemonSets: rules.IgnoreDaemonSets,
		DeleteEmptyDirData: rules.DeleteEmptyDirData, Out: io.Discard, ErrOut: io.Discard,
	}
	for _, node := range nodes {
		nr := NodeRules{Node: node}
		for _, p := range listOrder(podsOf[node]) {
			if !selector.Matches(labels.Set(p.Labels)) {
				continue // kubectl lists only the selected pods
			}
			listed = asServed(p)
			r := ruleOf(helper, listed)
			r.Pod = p
			r.Node = node
			nr.Blocked = nr.Blocked || r.Disposition == Block
			nr.Pods = append(nr.Pods, r)
		}
		plan.Nodes = append(plan.Nodes, nr)
	}
	return plan, nil
}

// clientFor is the client kubectl's Helper reads through: a fake
// clientset (no object tracker: building one parses the whole API's
// schema) whose pod list returns *listed and whose DaemonSet GET finds the
// DaemonSets of known ("namespace/name"), or answers NotFound as the API
// server would.
func clientFor(known map[string]*appsv1.DaemonSet, listed **v1.Pod) *fake.Clientset {
	client := &fake.Clientset{}
	client.AddReactor("list", "pods", func(k8stesting.Action) (bool, runtime.Object, error) {
		out := &v1.PodList{}
		if *listed != nil {
			out.Items = append(out.Items, **listed)
		}
		return true, out, nil
	})
	client.AddReactor("get", "daemonsets", func(a k8stesting.Action) (bool, runtime.Object, error) {
		get := a.(k8stesting.GetAction)
		if ds := known[get.GetNamespace()+"/"+get.GetName()]; ds != nil {
			return true, ds, nil
		}
		return true, nil, apierrors.NewNotFound(appsv1.Resource("daemonsets"), get.GetName())
	})
	return client
}

// ruleOf runs kubectl's filters on p alone (the Helper's pod list returns
// just p) and reads its verdict back from what the Helper returns: the
// pods to delete, the warnings and the errors, each "<text>: ns/name".
func ruleOf(helper *drain.Helper, p *v1.Pod) PodRule {
	suffix := ": " + p.Namespace + "/" + p.Name
	list, errs := helper.GetPodsForDeletion(p.Spec.NodeName)
	if len(errs) > 0 {
		return PodRule{Pod: p, Disposition: Block, Message: strings.TrimSuffix(errs[0].Error(), suffix)}
	}
	r := PodRule{Pod: p, Disposition: Leave, Message: strings.TrimSuffix(list.Warnings(), suffix)}
	if len(list.Pods()) > 0 {
		r.Disposition = Evict
	}
	return r
}

// asServed returns p, or a copy of it whose controller reference names the
// apps/v1 kind of a retired workload version (load.ServedKind): kubectl
// drain v0.36 takes a pod for a DaemonSet's only when its controller is
// "apps/v1" "DaemonSet" (filters.go isControllerRefDaemonSet), which the
// pods of a v1.15-or-older cluster's DaemonSets ("extensions/v1beta1",
// "apps/v1beta2") never say; their DaemonSets are served as apps/v1 now,
// and kubectl of those clusters' days looked at the kind alone.
func asServed(p *v1.Pod) *v1.Pod {
	ref := metav1.GetControllerOfNoCopy(p)
	if ref == nil {
		return p
	}
	named := schema.FromAPIVersionAndKind(ref.APIVersion, ref.Kind)
	gvk := load.ServedKind(named)
	if gvk == named {
		return p
	}
	out := *p
	out.OwnerReferences = append([]metav1.OwnerReference(nil), p.OwnerReferences...)
	for i := range out.OwnerReferences {
		if r := &out.OwnerReferences[i]; r.Controller != nil && *r.Controller {
			r.APIVersion = gvk.GroupVersion().String()
		}
	}
	return &out
}

// listOrder sorts pods as the API server lists them (by namespace, then
// name: the order of their storage keys).
func listOrder(pods []*v1.Pod) []*v1.Pod {
	out := append([]*v1.Pod(nil), pods...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Namespace != out[j].Namespace {
			return out[i].Namespace < out[j].Namespace
		}
		return out[i].Name < out[j].Name
	})
	return out
}
