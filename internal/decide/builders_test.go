package decide

import (
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	st "k8s.io/kubernetes/pkg/scheduler/testing"
)

// Builders for test objects, over upstream's own test wrappers
// (pkg/scheduler/testing). Every pod gets a namespace, a UID and the
// default schedulerName, as the API server would give it.

const testNS = "ns"

func pod(name string) *st.PodWrapper {
	return st.MakePod().Namespace(testNS).Name(name).UID(name).SchedulerName(DefaultSchedulerName)
}

func bound(name, node string) *st.PodWrapper { return pod(name).Node(node) }

// node is a node with 2 CPUs, 4Gi of memory and room for 110 pods, plus
// the given extra allocatable resources.
func node(name string, extra ...string) *st.NodeWrapper {
	res := map[v1.ResourceName]string{v1.ResourceCPU: "2", v1.ResourceMemory: "4Gi", v1.ResourcePods: "110"}
	for i := 0; i+1 < len(extra); i += 2 {
		res[v1.ResourceName(extra[i])] = extra[i+1]
	}
	return st.MakeNode().Name(name).Label(v1.LabelHostname, name).Capacity(res)
}

func cpu(q string) map[v1.ResourceName]string { return map[v1.ResourceName]string{v1.ResourceCPU: q} }

func taint(key string, effect v1.TaintEffect) []v1.Taint {
	return []v1.Taint{{Key: key, Value: "x", Effect: effect}}
}

func selector(kv ...string) *metav1.LabelSelector {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return &metav1.LabelSelector{MatchLabels: m}
}

func nodes(ws ...*st.NodeWrapper) []*v1.Node {
	out := make([]*v1.Node, len(ws))
	for i, w := range ws {
		out[i] = w.Obj()
	}
	return out
}

func pods(ws ...*st.PodWrapper) []*v1.Pod {
	out := make([]*v1.Pod, len(ws))
	for i, w := range ws {
		out[i] = w.Obj()
	}
	return out
}
