package gencluster

import (
	"fmt"
	"io"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Generate writes the whole List to w: nodes first (sorted by name), then pods
// sorted by namespace and name, as `kubectl get nodes,pods -A -o json` does.
func Generate(w io.Writer, cfg Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	g := newRNG(cfg.Seed)
	pool := newImagePool(g, 300)
	lw := newListWriter(w, cfg.Indent)

	ds := dsPerNode(cfg)
	states := make([]*nodeState, cfg.Nodes)
	hasClass := map[nodeClass]bool{}
	for i := range states {
		node, st := buildNode(g, pool, i, cfg)
		reserveDaemonSets(st, ds)
		states[i] = st
		if !st.cordoned {
			hasClass[st.class] = true
		}
		if err := lw.Item(node); err != nil {
			return err
		}
	}

	e := &emitter{g: g, pool: pool, pl: newPlacer(states), lw: lw, cfg: cfg, hasClass: hasClass}
	for _, ns := range plan(g, cfg) {
		for _, u := range ns.units {
			if err := e.unit(ns.name, u); err != nil {
				return err
			}
		}
	}
	return lw.Close()
}

// dsKind is one of the DaemonSets that run on every node.
type dsKind struct {
	name     string
	cpu, mem int64
}

// dsKinds: kube-proxy without any resources, and a CNI agent with small
// requests and init containers without requests.
var dsKinds = []dsKind{{name: "kube-flannel-ds", cpu: 100, mem: 50 * mi}, {name: "kube-proxy"}}

func reserveDaemonSets(st *nodeState, perNode int) {
	for _, d := range dsKinds[:perNode] {
		st.freeCPU -= d.cpu
		st.freeMem -= d.mem
		st.freePods--
	}
}

// emitter turns planned units into pods, placing and writing them.
type emitter struct {
	g        *rng
	pool     *imagePool
	pl       *placer
	lw       *listWriter
	cfg      Config
	hasClass map[nodeClass]bool
}

func (e *emitter) unit(ns string, u unit) error {
	if u.kind == kindDaemonSet {
		return e.daemonSet(ns, u)
	}
	var t *template
	if u.system {
		t = corednsTemplate()
	} else {
		t = newTemplate(e.g, e.pool, u, e.hasClass)
		if e.cfg.Shape == ShapeTemplates {
			distinctTemplate(e.g, t, u.name)
		}
	}
	id := e.identity(u, t)
	var used map[int]bool
	if t.antiHost {
		used = map[int]bool{}
	}
	for _, name := range id.names {
		in := podInput{ns: ns, name: name, owner: id.owner, labels: id.labels, totalNodes: e.cfg.Nodes,
			created: after(id.created, e.g.intN(600)), generateName: generateName(u, name)}
		if t.perPodClaim {
			in.claim = "data-" + name
		}
		if u.kind == kindStatefulSet {
			in.labels = stsLabels(id.labels, name)
		}
		e.decide(&in, t, u, used)
		pod := buildPod(e.g, e.pool, t, in)
		reshape(e.g, e.cfg.Shape, pod, u.name)
		if err := e.lw.Item(pod); err != nil {
			return err
		}
	}
	return nil
}

// decide picks the pod's phase and node. Pending and terminal pods are drawn
// with the configured fractions; a pod that fits nowhere stays pending.
func (e *emitter) decide(in *podInput, t *template, u unit, used map[int]bool) {
	x := e.g.r.Float64()
	switch {
	case x < e.cfg.PendingFraction:
		e.pending(in, t)
	case x < e.cfg.PendingFraction+e.cfg.TerminalFraction:
		in.phase = v1.PodSucceeded
		if u.kind != kindJob || e.g.chance(0.2) {
			in.phase = v1.PodFailed
		}
		if i := e.pl.anyNode(e.g); i >= 0 {
			in.node = e.pl.nodes[i]
		} else {
			e.pending(in, t)
		}
	default:
		i := e.pl.place(e.g, t.est, t.class, t.hostPorts, used)
		if i < 0 {
			e.pending(in, t)
			return
		}
		if used != nil {
			used[i] = true
		}
		in.node, in.phase = e.pl.nodes[i], v1.PodRunning
		if u.kind == kindJob {
			in.finalizers = []string{"batch.kubernetes.io/job-tracking"}
		}
		in.terminating = e.g.chance(0.003)
		if t.podRes == nil && t.containers[0].cpu > 0 && e.g.chance(0.003) {
			in.resize = resizeState(1 + e.g.intN(3))
		}
	}
}

func (e *emitter) pending(in *podInput, t *template) {
	in.node, in.phase = nil, v1.PodPending
	in.created = ago(e.g.intN(1800))
	if t.priority > 0 && len(e.pl.nodes) > 0 && e.g.chance(0.3) {
		in.nominated = e.pl.nodes[e.g.intN(len(e.pl.nodes))].name
	}
}

// identity is what a controller stamps on the pods it creates.
type identity struct {
	owner   *metav1.OwnerReference
	labels  map[string]string
	names   []string // sorted
	created metav1.Time
}

func (e *emitter) identity(u unit, t *template) identity {
	g := e.g
	id := identity{labels: t.labels, created: ago(86400*g.between(1, 45) + g.secondsBefore(86400))}
	switch u.kind {
	case kindDeployment:
		hash := g.suffix(10)
		id.owner = controllerRef("apps/v1", "ReplicaSet", u.name+"-"+hash, g)
		id.labels = withLabel(id.labels, "pod-template-hash", hash)
		id.names = uniqueNames(g, u.name+"-"+hash+"-", u.replicas)
	case kindStatefulSet:
		id.owner = controllerRef("apps/v1", "StatefulSet", u.name, g)
		id.labels = withLabel(id.labels, "controller-revision-hash", u.name+"-"+g.suffix(10))
		for i := 0; i < u.replicas; i++ {
			id.names = append(id.names, fmt.Sprintf("%s-%d", u.name, i))
		}
	case kindJob:
		// CronJob-style name: the scheduled time in minutes since the epoch.
		minutes := baseTime.Unix()/60 - int64(g.intN(2880))
		job := fmt.Sprintf("%s-%d", u.name, minutes)
		id.created = ago(int(baseTime.Unix() - minutes*60))
		id.owner = controllerRef("batch/v1", "Job", job, g)
		uid := string(id.owner.UID)
		for _, kv := range [][2]string{{"batch.kubernetes.io/controller-uid", uid}, {"batch.kubernetes.io/job-name", job}, {"controller-uid", uid}, {"job-name", job}} {
			id.labels = withLabel(id.labels, kv[0], kv[1])
		}
		id.names = uniqueNames(g, job+"-", u.replicas)
	case kindBare:
		id.names = []string{u.name}
	}
	sort.Strings(id.names)
	return id
}

// daemonSet emits one pod per node, in pod-name order (which shuffles the
// nodes, as in a real listing).
func (e *emitter) daemonSet(ns string, u unit) error {
	g := e.g
	t := daemonTemplate(u.ds)
	owner := controllerRef("apps/v1", "DaemonSet", u.name, g)
	labels := withLabel(withLabel(t.labels, "controller-revision-hash", g.suffix(10)), "pod-template-generation", "1")
	names := uniqueNames(g, u.name+"-", len(e.pl.nodes))
	order := make([]int, len(names)) // order[k] = node of the k-th pod by name
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return names[order[a]] < names[order[b]] })
	for _, i := range order {
		node := e.pl.nodes[i]
		in := podInput{ns: ns, name: names[i], generateName: u.name + "-", owner: owner, labels: labels, node: node,
			phase: v1.PodRunning, created: ago(86400 + g.secondsBefore(86400*30)), affinity: dsAffinity(node.name), totalNodes: e.cfg.Nodes}
		pod := buildPod(g, e.pool, t, in)
		if e.cfg.Shape == ShapeSmall {
			// The other shapes vary the workloads' pods only.
			pod = smallPod(pod)
		}
		if err := e.lw.Item(pod); err != nil {
			return err
		}
	}
	return nil
}

// uniqueNames draws n distinct prefix+suffix names. Suffix collisions are
// likely with thousands of DaemonSet pods, so duplicates are redrawn.
func uniqueNames(g *rng, prefix string, n int) []string {
	seen := make(map[string]bool, n)
	out := make([]string, 0, n)
	for len(out) < n {
		s := prefix + g.suffix(5)
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func generateName(u unit, name string) string {
	switch u.kind {
	case kindStatefulSet:
		return u.name + "-"
	case kindBare:
		return ""
	}
	return name[:len(name)-5]
}

func controllerRef(apiVersion, kind, name string, g *rng) *metav1.OwnerReference {
	return &metav1.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: g.uid(), Controller: ptr(true), BlockOwnerDeletion: ptr(true)}
}

// withLabel returns a copy of labels with one more entry; templates share
// their label map, so it is never modified in place.
func withLabel(labels map[string]string, k, v string) map[string]string {
	out := make(map[string]string, len(labels)+1)
	for a, b := range labels {
		out[a] = b
	}
	out[k] = v
	return out
}

func stsLabels(labels map[string]string, pod string) map[string]string {
	ord := pod[strings.LastIndex(pod, "-")+1:]
	return withLabel(withLabel(labels, "statefulset.kubernetes.io/pod-name", pod), "apps.kubernetes.io/pod-index", ord)
}

func dsAffinity(node string) *v1.Affinity {
	return &v1.Affinity{NodeAffinity: &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{
		NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchFields: []v1.NodeSelectorRequirement{{Key: "metadata.name", Operator: v1.NodeSelectorOpIn, Values: []string{node}}}}}}}}
}

// daemonTemplate builds the DaemonSet pod templates: host-network pods that
// tolerate every taint, so they also run on tainted and cordoned nodes.
func daemonTemplate(d dsKind) *template {
	t := &template{labels: map[string]string{"k8s-app": d.name}, restart: v1.RestartPolicyAlways, grace: 30, daemon: true, hostNetwork: true,
		priorityName: "system-node-critical", priority: 2000001000, sa: d.name}
	for _, k := range []string{v1.TaintNodeNotReady, v1.TaintNodeUnreachable} {
		t.tolerations = append(t.tolerations, v1.Toleration{Key: k, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute})
	}
	for _, k := range []string{v1.TaintNodeDiskPressure, v1.TaintNodeMemoryPressure, v1.TaintNodePIDPressure, v1.TaintNodeUnschedulable, v1.TaintNodeNetworkUnavailable} {
		t.tolerations = append(t.tolerations, v1.Toleration{Key: k, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoSchedule})
	}
	// A catch-all toleration, as CNI and kube-proxy manifests carry.
	t.tolerations = append(t.tolerations, v1.Toleration{Operator: v1.TolerationOpExists})
	if d.cpu == 0 {
		t.containers = []ctr{newCtr("kube-proxy", "registry.k8s.io/kube-proxy:v1.36.3", v1.ResourceRequirements{}, 0, 0)}
		return t
	}
	rl := v1.ResourceList{v1.ResourceCPU: milli(d.cpu), v1.ResourceMemory: bin(d.mem)}
	t.containers = []ctr{newCtr("kube-flannel", "ghcr.io/flannel-io/flannel:v0.27.4", v1.ResourceRequirements{Requests: rl, Limits: rl.DeepCopy()}, d.cpu, d.mem)}
	t.inits = []ctr{
		newCtr("install-cni-plugin", "ghcr.io/flannel-io/flannel-cni-plugin:v1.8.0-flannel1", v1.ResourceRequirements{}, 0, 0),
		newCtr("install-cni", "ghcr.io/flannel-io/flannel:v0.27.4", v1.ResourceRequirements{}, 0, 0),
	}
	return t
}

// corednsTemplate is the cluster DNS Deployment in kube-system.
func corednsTemplate() *template {
	c := newCtr("coredns", "registry.k8s.io/coredns/coredns:v1.12.3", v1.ResourceRequirements{
		Requests: v1.ResourceList{v1.ResourceCPU: milli(100), v1.ResourceMemory: bin(70 * mi)},
		Limits:   v1.ResourceList{v1.ResourceMemory: bin(170 * mi)},
	}, 100, 70*mi)
	c.c.Ports = []v1.ContainerPort{{Name: "dns", ContainerPort: 53, Protocol: v1.ProtocolUDP}, {Name: "dns-tcp", ContainerPort: 53, Protocol: v1.ProtocolTCP}, {Name: "metrics", ContainerPort: 9153, Protocol: v1.ProtocolTCP}}
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"k8s-app": "kube-dns"}}
	t := &template{labels: map[string]string{"k8s-app": "kube-dns"}, restart: v1.RestartPolicyAlways, grace: 30, sa: "coredns",
		priorityName: "system-cluster-critical", priority: 2000000000, containers: []ctr{c}, class: classGeneral,
		affinity: &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []v1.WeightedPodAffinityTerm{
			{Weight: 100, PodAffinityTerm: v1.PodAffinityTerm{LabelSelector: sel, TopologyKey: "kubernetes.io/hostname"}}}}},
		tolerations: []v1.Toleration{{Key: "CriticalAddonsOnly", Operator: v1.TolerationOpExists}}}
	t.est = estimate(t)
	return t
}
