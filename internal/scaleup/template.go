package scaleup

import (
	"sort"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
	"k8s.io/klog/v2"

	"github.com/schedcache/kubectl-schedcache/internal/scaledown"
	"github.com/schedcache/kubectl-schedcache/internal/whatif"
)

// Group is one node group of the cluster and its template.
type Group struct {
	// Name is the group's name (scaledown.GroupOf: the node-pool label's
	// value, else the instance type).
	Name string
	// Nodes counts the group's nodes in the cluster.
	Nodes int
	// Template is the node the new nodes are copied from (whatif.CopyNode
	// makes each copy: hostname label renamed, lifecycle taints and the
	// cordon dropped, Ready).
	Template *v1.Node
	// Pods are the pods every new node runs from the start, bound to it:
	// the template node's mirror pods and those of its DaemonSet pods
	// whose DaemonSet selects the new node, then the system-node-critical
	// DaemonSets of the input not running on the template node that
	// select it.
	Pods []*v1.Pod
	// Dropped are the template node's DaemonSet pods ("namespace/name")
	// whose DaemonSet does not select the new node.
	Dropped []string
}

// systemNodeCritical is the priority class cluster-autoscaler adds a
// missing DaemonSet's pod for, without --force-ds.
const systemNodeCritical = "system-node-critical"

// Templates groups nodes by scaledown.GroupOf (nodes without a group are
// left out: cluster-autoscaler grows node groups only) and makes each
// group's template, as cluster-autoscaler's mixed template provider does
// (processors/nodeinfosprovider): the first node by name that is Ready,
// schedulable and not being deleted, else the first by name. pods are
// the cluster's pods, objects the loaded objects (the DaemonSets among
// them). The groups come sorted by name.
func Templates(nodes []*v1.Node, pods []*v1.Pod, objects []runtime.Object) []Group {
	byGroup := map[string][]*v1.Node{}
	for _, n := range nodes {
		if g := scaledown.GroupOf(n); g != "" {
			byGroup[g] = append(byGroup[g], n)
		}
	}
	onNode := map[string][]*v1.Pod{}
	for _, p := range pods {
		if p.Spec.NodeName != "" {
			onNode[p.Spec.NodeName] = append(onNode[p.Spec.NodeName], p)
		}
	}
	sets := daemonSetsOf(objects)
	out := make([]Group, 0, len(byGroup))
	for name, ns := range byGroup {
		sort.Slice(ns, func(i, j int) bool { return ns[i].Name < ns[j].Name })
		tmpl := ns[0]
		for _, n := range ns {
			if goodTemplate(n) {
				tmpl = n
				break
			}
		}
		g := Group{Name: name, Nodes: len(ns), Template: tmpl}
		g.Pods, g.Dropped = templatePods(tmpl, onNode[tmpl.Name], sets)
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// goodTemplate: Ready, not cordoned, not being deleted (no deletion
// timestamp, no cluster-autoscaler ToBeDeleted taint).
func goodTemplate(n *v1.Node) bool {
	if n.Spec.Unschedulable || n.DeletionTimestamp != nil {
		return false
	}
	for _, t := range n.Spec.Taints {
		if t.Key == toBeDeletedTaint {
			return false
		}
	}
	for _, c := range n.Status.Conditions {
		if c.Type == v1.NodeReady {
			return c.Status == v1.ConditionTrue
		}
	}
	return false
}

// toBeDeletedTaint is the taint cluster-autoscaler puts on a node it
// deletes.
const toBeDeletedTaint = "ToBeDeletedByClusterAutoscaler"

type daemonSets struct {
	byUID  map[types.UID]*appsv1.DaemonSet
	byName map[types.NamespacedName]*appsv1.DaemonSet
	all    []*appsv1.DaemonSet
}

func daemonSetsOf(objects []runtime.Object) daemonSets {
	d := daemonSets{byUID: map[types.UID]*appsv1.DaemonSet{}, byName: map[types.NamespacedName]*appsv1.DaemonSet{}}
	for _, o := range objects {
		if ds, ok := o.(*appsv1.DaemonSet); ok {
			d.all = append(d.all, ds)
			if ds.UID != "" {
				d.byUID[ds.UID] = ds
			}
			d.byName[types.NamespacedName{Namespace: ds.Namespace, Name: ds.Name}] = ds
		}
	}
	sort.Slice(d.all, func(i, j int) bool {
		return d.all[i].Namespace+"/"+d.all[i].Name < d.all[j].Namespace+"/"+d.all[j].Name
	})
	return d
}

func (d daemonSets) of(p *v1.Pod, ref *metav1.OwnerReference) *appsv1.DaemonSet {
	if ds := d.byUID[ref.UID]; ds != nil && ref.UID != "" {
		return ds
	}
	return d.byName[types.NamespacedName{Namespace: p.Namespace, Name: ref.Name}]
}

// templatePods are the pods a new node like tmpl runs (Group.Pods), from
// the pods on tmpl, and the DaemonSet pods left out (Group.Dropped).
func templatePods(tmpl *v1.Node, pods []*v1.Pod, sets daemonSets) (keep []*v1.Pod, dropped []string) {
	copyNode := whatif.CopyNode(tmpl, whatif.CopyName(tmpl.Name, 1))
	sort.Slice(pods, func(i, j int) bool { return pods[i].Namespace+"/"+pods[i].Name < pods[j].Namespace+"/"+pods[j].Name })
	running := map[types.UID]bool{}
	for _, p := range pods {
		if p.DeletionTimestamp != nil || p.Status.Phase == v1.PodSucceeded || p.Status.Phase == v1.PodFailed {
			continue
		}
		if _, mirror := p.Annotations[v1.MirrorPodAnnotationKey]; mirror {
			keep = append(keep, p)
			continue
		}
		ref := metav1.GetControllerOf(p)
		if ref == nil || ref.Kind != "DaemonSet" {
			continue
		}
		ds := sets.of(p, ref)
		spec := &p.Spec
		if ds != nil {
			running[ds.UID] = true
			spec = &ds.Spec.Template.Spec
		} else {
			spec = withoutNodeName(spec)
		}
		if selects(spec, copyNode) {
			keep = append(keep, p)
		} else {
			dropped = append(dropped, p.Namespace+"/"+p.Name)
		}
	}
	for _, ds := range sets.all {
		if running[ds.UID] || !preemptingSystemNodeCritical(&ds.Spec.Template.Spec) || !selects(&ds.Spec.Template.Spec, copyNode) {
			continue
		}
		keep = append(keep, daemonPod(ds, tmpl.Name))
	}
	return keep, dropped
}

// selects reports whether a DaemonSet with pod spec spec runs a pod on
// node, as the DaemonSet controller decides it (NodeShouldRunDaemonPod):
// the required node affinity and node selector match, and every
// NoSchedule and NoExecute taint is tolerated.
func selects(spec *v1.PodSpec, node *v1.Node) bool {
	p := &v1.Pod{Spec: *spec}
	if ok, err := nodeaffinity.GetRequiredNodeAffinity(p).Match(node); err != nil || !ok {
		return false
	}
	_, untolerated := corev1helpers.FindMatchingUntoleratedTaint(klog.Background(), node.Spec.Taints, spec.Tolerations, func(t *v1.Taint) bool {
		return t.Effect == v1.TaintEffectNoSchedule || t.Effect == v1.TaintEffectNoExecute
	}, true)
	return !untolerated
}

// withoutNodeName is a DaemonSet pod's spec without the node affinity
// term the DaemonSet controller pins it to its node with (a matchFields
// metadata.name requirement replacing the DaemonSet's own terms), for a
// pod whose DaemonSet is not in the input: its nodeSelector and
// tolerations still say where the DaemonSet runs.
func withoutNodeName(spec *v1.PodSpec) *v1.PodSpec {
	a := spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return spec
	}
	out := spec.DeepCopy()
	req := out.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	var terms []v1.NodeSelectorTerm
	for _, t := range req.NodeSelectorTerms {
		var fields []v1.NodeSelectorRequirement
		for _, f := range t.MatchFields {
			if f.Key != metav1.ObjectNameField {
				fields = append(fields, f)
			}
		}
		t.MatchFields = fields
		if len(t.MatchFields)+len(t.MatchExpressions) > 0 {
			terms = append(terms, t)
		}
	}
	if len(terms) == 0 {
		out.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = nil
	} else {
		req.NodeSelectorTerms = terms
	}
	return out
}

func preemptingSystemNodeCritical(spec *v1.PodSpec) bool {
	return spec.PriorityClassName == systemNodeCritical &&
		(spec.PreemptionPolicy == nil || *spec.PreemptionPolicy == v1.PreemptLowerPriority)
}

// daemonPod is the pod ds would run on node, controlled by ds.
func daemonPod(ds *appsv1.DaemonSet, node string) *v1.Pod {
	p := &v1.Pod{ObjectMeta: *ds.Spec.Template.ObjectMeta.DeepCopy(), Spec: *ds.Spec.Template.Spec.DeepCopy()}
	// Each copy's pod is named after this one and the copy.
	p.Namespace, p.Name = ds.Namespace, ds.Name
	p.UID = types.UID(string(ds.UID) + "-template")
	yes := true
	p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: ds.Name, UID: ds.UID, Controller: &yes}}
	p.Spec.NodeName = node
	p.Status.Phase = v1.PodRunning
	return p
}
