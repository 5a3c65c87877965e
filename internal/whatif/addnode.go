package whatif

import (
	"fmt"
	"strconv"

	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/schedcache/kubectl-schedcache/internal/load"
)

// CopySuffix joins a template's name and a copy's number:
// TEMPLATE-whatif-1, TEMPLATE-whatif-2, …, the same on every run.
const CopySuffix = "-whatif-"

// CopyName is the name of copy i (from 1) of template.
func CopyName(template string, i int) string {
	return template + CopySuffix + strconv.Itoa(i)
}

// addNodes appends the copies asked for to out: nodes, the template's
// node-bound pods (DaemonSet and static pods, which come with every node
// like it) and its CSINode.
func (a *Applied) addNodes(out, orig *load.Cluster, nodes map[string]*v1.Node, copies []NodeCopies) error {
	taken := sets.KeySet(nodes)
	var csiNodes map[string]*storagev1.CSINode
	for _, nc := range copies {
		tmpl := nc.Node
		if tmpl == nil {
			if tmpl = nodes[nc.Template]; tmpl == nil {
				return fmt.Errorf("--add-node %s: no such node in the input", nc.Template)
			}
		}
		if nc.Count < 1 {
			return fmt.Errorf("--add-node %s: the count must be at least 1, got %d", nc.Template, nc.Count)
		}
		if csiNodes == nil {
			csiNodes = csiNodesOf(orig.Objects)
		}
		var bound []*v1.Pod
		if nc.Node == nil {
			bound = NodeBoundPods(orig.Pods, tmpl.Name)
		}
		added := AddedNodes{Template: tmpl.Name, File: nc.File}
		for i := 1; i <= nc.Count; i++ {
			name := CopyName(tmpl.Name, i)
			if taken.Has(name) {
				return fmt.Errorf("--add-node %s: a node named %s is already in the input or added", tmpl.Name, name)
			}
			taken.Insert(name)
			out.Nodes = append(out.Nodes, CopyNode(tmpl, name))
			for _, p := range bound {
				out.Pods = append(out.Pods, copyBoundPod(p, name))
			}
			if csi := csiNodes[tmpl.Name]; csi != nil && nc.Node == nil {
				c := csi.DeepCopy()
				c.ObjectMeta = metav1.ObjectMeta{Name: name, UID: types.UID("whatif-" + name)}
				out.Objects = append(out.Objects, c)
			}
			added.Names = append(added.Names, name)
		}
		a.AddedNodes = append(a.AddedNodes, added)
	}
	return nil
}

func csiNodesOf(objects []runtime.Object) map[string]*storagev1.CSINode {
	out := map[string]*storagev1.CSINode{}
	for _, o := range objects {
		if c, ok := o.(*storagev1.CSINode); ok {
			out[c.Name] = c
		}
	}
	return out
}

// CopyNode returns a new, Ready node named name like tmpl: its labels
// (kubernetes.io/hostname rewritten to name; zone and region labels kept),
// taints, capacity, allocatable, node info and declared features. Not
// copied: the cordon (a new node registers schedulable) with the
// unschedulable taint, the node lifecycle taints of a node that is not
// ready, annotations, addresses, images (a new node has pulled none, so
// ImageLocality scores it 0) and attached volumes.
func CopyNode(tmpl *v1.Node, name string) *v1.Node {
	n := &v1.Node{
		TypeMeta: tmpl.TypeMeta,
		ObjectMeta: metav1.ObjectMeta{
			Name:   name,
			UID:    types.UID("whatif-" + name),
			Labels: make(map[string]string, len(tmpl.Labels)),
		},
	}
	for k, v := range tmpl.Labels {
		n.Labels[k] = v
	}
	if _, ok := n.Labels[v1.LabelHostname]; ok {
		n.Labels[v1.LabelHostname] = name
	}
	for _, t := range tmpl.Spec.Taints {
		switch t.Key {
		case UnschedulableTaintKey, v1.TaintNodeNotReady, v1.TaintNodeUnreachable:
			continue
		}
		t.TimeAdded = nil
		n.Spec.Taints = append(n.Spec.Taints, t)
	}
	n.Status.Capacity = tmpl.Status.Capacity.DeepCopy()
	n.Status.Allocatable = tmpl.Status.Allocatable.DeepCopy()
	n.Status.NodeInfo = tmpl.Status.NodeInfo
	n.Status.DeclaredFeatures = append([]string(nil), tmpl.Status.DeclaredFeatures...)
	n.Status.Conditions = []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionTrue}}
	return n
}

// NodeBoundPods are the pods of node that a node like it runs as well:
// DaemonSet pods and static (mirror) pods.
func NodeBoundPods(pods []*v1.Pod, node string) []*v1.Pod {
	var out []*v1.Pod
	for _, p := range pods {
		if p.Spec.NodeName != node {
			continue
		}
		if _, mirror := p.Annotations[v1.MirrorPodAnnotationKey]; mirror || RecreationOf(p) == NotMoved {
			out = append(out, p)
		}
	}
	return out
}

// copyBoundPod is p as it runs on the copy node: named after p and the
// node, bound to it.
func copyBoundPod(p *v1.Pod, node string) *v1.Pod {
	c := p.DeepCopy()
	c.Name = p.Name + "-" + node
	c.UID = types.UID(string(p.UID) + "-" + node)
	c.Spec.NodeName = node
	c.ResourceVersion = ""
	return c
}
