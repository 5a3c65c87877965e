package model

// This file finds the numbers that kube-scheduler's int64 arithmetic wraps
// (a quantity beyond int64 in its unit, or a node's sum of requests beyond
// int64): the model keeps the scheduler's wrapped numbers, and the
// warnings say so, naming the object and the field.

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"runtime"
	"slices"
	"sort"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/client-go/util/workqueue"
	resourcehelper "k8s.io/component-helpers/resource"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// Overflow is one number the scheduler's int64 arithmetic wraps.
type Overflow struct {
	// Object names the node ("node n1") or pod ("pod ns/p").
	Object string
	// Field is the field (spec.containers[0].resources.requests.cpu) or,
	// for a node's sum, "requested <resource>".
	Field string
	// Value is the value written, or the true sum.
	Value string
	// Wrapped is what the scheduler computes instead (millicores for cpu).
	Wrapped int64
	// Node is the node whose numbers the overflow changes ("" for a pod
	// without a node), and Resource the resource.
	Node, Resource string
}

func (o Overflow) String() string {
	unit := ""
	if o.Resource == string(v1.ResourceCPU) {
		unit = "m"
	}
	return fmt.Sprintf("%s: %s is %s, beyond the int64 kube-scheduler counts in; it wraps to %d%s, in kube-scheduler as here", o.Object, o.Field, o.Value, o.Wrapped, unit)
}

var (
	maxMilli = resource.NewMilliQuantity(math.MaxInt64, resource.DecimalSI)
	minMilli = resource.NewMilliQuantity(math.MinInt64, resource.DecimalSI)
	maxUnits = resource.NewQuantity(math.MaxInt64, resource.DecimalSI)
	minUnits = resource.NewQuantity(math.MinInt64, resource.DecimalSI)
)

func sortedKeys(rl v1.ResourceList) []v1.ResourceName {
	keys := make([]v1.ResourceName, 0, len(rl))
	for k := range rl {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}

// quantityOverflows reports whether q, counted as the scheduler counts
// name (cpu in millicores, anything else in units), is beyond int64, and
// the wrapped value.
func quantityOverflows(name v1.ResourceName, q resource.Quantity) (int64, bool) {
	if name == v1.ResourceCPU {
		return q.MilliValue(), q.Cmp(*maxMilli) > 0 || q.Cmp(*minMilli) < 0
	}
	return q.Value(), q.Cmp(*maxUnits) > 0 || q.Cmp(*minUnits) < 0
}

// anyOverflows reports whether a quantity of rl is beyond int64 as the
// scheduler counts it (quantityOverflows), without allocating: the common
// case, checked first.
func anyOverflows(rl v1.ResourceList) bool {
	for name, q := range rl {
		if _, over := quantityOverflows(name, q); over {
			return true
		}
	}
	return false
}

// listOverflows appends the overflows of rl, at field prefix of object, on
// node.
func listOverflows(out []Overflow, object, node, prefix string, rl v1.ResourceList) []Overflow {
	if !anyOverflows(rl) {
		return out
	}
	for _, name := range sortedKeys(rl) {
		q := rl[name]
		if wrapped, over := quantityOverflows(name, q); over {
			out = append(out, Overflow{Object: object, Field: prefix + "." + string(name), Value: q.String(), Wrapped: wrapped, Node: node, Resource: string(name)})
		}
	}
	return out
}

// Overflows lists, in input order, the quantities of nodes' allocatable
// and of pods' requests and overhead beyond int64, then, node by node in
// name order, each resource whose sum of the pods' requests goes beyond
// int64 on a node of the cache.
func (m *Model) Overflows() (out []Overflow) {
	if m.Cache == nil {
		return m.overflowsIn(nil)
	}
	m.Cache.Inspect(func(d *cache.Dump) { out = m.overflowsIn(d) })
	return out
}

// overflowsIn is Overflows with the node sums taken from d (nil: none).
func (m *Model) overflowsIn(dump *cache.Dump) []Overflow {
	var out []Overflow
	pods := m.Pods
	for _, n := range m.Nodes {
		out = listOverflows(out, "node "+n.Name, n.Name, "status.allocatable", n.Status.Allocatable)
	}
	for _, p := range mayOverflow(pods) {
		out = podFieldOverflows(out, "pod "+p.Namespace+"/"+p.Name, "", p.Spec.NodeName, p)
		out = append(out, podSumOverflows(p)...)
	}
	if dump == nil {
		return out
	}
	names := make([]string, 0, len(dump.Nodes))
	for name := range dump.Nodes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		out = append(out, sumOverflows(name, dump.Nodes[name].Pods)...)
	}
	return out
}

// mayOverflow returns, in order, the pods some quantity of which could
// reach int64 (not sumCannotOverflow). Every command checks every pod once
// the model is built, on one goroutine with the other cores idle (0.1 to
// 0.2 s at 150,000 pods), so the pods are checked in pieces on
// GOMAXPROCS goroutines; the common pod is in none of the results.
func mayOverflow(pods []*v1.Pod) []*v1.Pod {
	pieces := 1
	if len(pods) >= 2*minOverflowPiece {
		pieces = min(len(pods)/minOverflowPiece, runtime.GOMAXPROCS(0))
	}
	found := make([][]*v1.Pod, pieces)
	piece := func(k int) {
		lo, hi := k*len(pods)/pieces, (k+1)*len(pods)/pieces
		for _, p := range pods[lo:hi] {
			if !sumCannotOverflow(p) {
				found[k] = append(found[k], p)
			}
		}
	}
	if pieces == 1 { // no goroutine to start for a few pods
		piece(0)
		return found[0]
	}
	workqueue.ParallelizeUntil(context.Background(), pieces, pieces, piece)
	return slices.Concat(found...)
}

// minOverflowPiece is the fewest pods mayOverflow hands a goroutine.
const minOverflowPiece = 4096

// podFieldOverflows appends the overflows of every quantity of pod that
// reaches kube-scheduler v1.36's count of its requests (component-helpers
// PodRequests with the v1.36 defaults: in-place resize on for containers,
// sidecars and the pod level): the requests of containers, init containers
// (sidecars included), the pod level and overhead, and, of a container
// whose status reports resources, the resources it reports and those
// allocated to it (and the same at the pod level). object names the pod,
// prefix comes before "spec." ("spec.template." for a workload's template).
func podFieldOverflows(out []Overflow, object, prefix, node string, p *v1.Pod) []Overflow {
	// Each list is checked before its field is named: the common pod
	// formats nothing.
	add := func(rl v1.ResourceList, field string) {
		out = listOverflows(out, object, node, prefix+field, rl)
	}
	for i, c := range p.Spec.InitContainers {
		if anyOverflows(c.Resources.Requests) {
			add(c.Resources.Requests, fmt.Sprintf("spec.initContainers[%d].resources.requests", i))
		}
	}
	for i, c := range p.Spec.Containers {
		if anyOverflows(c.Resources.Requests) {
			add(c.Resources.Requests, fmt.Sprintf("spec.containers[%d].resources.requests", i))
		}
	}
	if p.Spec.Resources != nil {
		add(p.Spec.Resources.Requests, "spec.resources.requests")
	}
	add(p.Spec.Overhead, "spec.overhead")
	statuses := func(kind string, list []v1.ContainerStatus) {
		for i, cs := range list {
			if cs.Resources == nil {
				continue // PodRequests reads neither list then
			}
			if anyOverflows(cs.Resources.Requests) {
				add(cs.Resources.Requests, fmt.Sprintf("status.%s[%d].resources.requests", kind, i))
			}
			if anyOverflows(cs.AllocatedResources) {
				add(cs.AllocatedResources, fmt.Sprintf("status.%s[%d].allocatedResources", kind, i))
			}
		}
	}
	statuses("containerStatuses", p.Status.ContainerStatuses)
	statuses("initContainerStatuses", p.Status.InitContainerStatuses)
	if p.Spec.Resources != nil && p.Status.Resources != nil {
		add(p.Status.Resources.Requests, "status.resources.requests")
		add(p.Status.AllocatedResources, "status.allocatedResources")
	}
	return out
}

// podSumField names a pod's sum of requests of one resource in warnings.
const podSumField = "the sum of its %s requests (containers, init containers, overhead)"

// podSumOverflows lists the resources whose sum over pod's containers,
// init containers and overhead (component-helpers' PodRequests, which
// kube-scheduler calls and converts to int64) is beyond int64 although no
// single quantity of that resource is: kube-scheduler's number for the pod
// wraps.
func podSumOverflows(pod *v1.Pod) []Overflow {
	if sumCannotOverflow(pod) {
		return nil
	}
	single := map[string]bool{}
	for _, o := range podFieldOverflows(nil, "", "", "", pod) {
		single[o.Resource] = true
	}
	var out []Overflow
	// kube-scheduler v1.36's options (pkg/cache ComputePodResource with
	// DefaultFeatureGates): in-place resize on for containers and the pod.
	sums := resourcehelper.PodRequests(pod, resourcehelper.PodResourcesOptions{UseStatusResources: true, InPlacePodLevelResourcesVerticalScalingEnabled: true})
	for _, name := range sortedKeys(sums) {
		if single[string(name)] {
			continue // warned about by its field
		}
		if wrapped, over := quantityOverflows(name, sums[name]); over {
			q := sums[name]
			out = append(out, Overflow{Object: "pod " + pod.Namespace + "/" + pod.Name, Field: fmt.Sprintf(podSumField, name), Value: q.String(),
				Wrapped: wrapped, Node: pod.Spec.NodeName, Resource: string(name)})
		}
	}
	return out
}

// sumCannotOverflow reports whether no sum PodRequests makes of pod can go
// beyond int64: fewer than 2^16 lists are summed (containers, init
// containers, overhead, the pod level, and with in-place resize the
// resources the containers' and the pod's status report and those
// allocated to them), each of whose quantities counts less than 2^46
// (quantityOverflows' units) in magnitude. It lets the common pod skip
// computing its requests a second time — a pod of a v1.33+ kubelet reports
// status resources for every container, so they are bounded here too
// rather than sending every pod of a current cluster the long way.
func sumCannotOverflow(pod *v1.Pod) bool {
	statuses := len(pod.Status.ContainerStatuses) + len(pod.Status.InitContainerStatuses)
	if len(pod.Spec.InitContainers)+len(pod.Spec.Containers)+2*statuses+5 >= safePods {
		return false
	}
	small := func(rl v1.ResourceList) bool {
		for name, q := range rl {
			if name == v1.ResourceCPU {
				if q.CmpInt64(safeValue/1000) >= 0 || q.CmpInt64(-safeValue/1000) <= 0 {
					return false
				}
			} else if q.CmpInt64(safeValue) >= 0 || q.CmpInt64(-safeValue) <= 0 {
				return false
			}
		}
		return true
	}
	for _, c := range pod.Spec.InitContainers {
		if !small(c.Resources.Requests) {
			return false
		}
	}
	for _, c := range pod.Spec.Containers {
		if !small(c.Resources.Requests) {
			return false
		}
	}
	for _, list := range [][]v1.ContainerStatus{pod.Status.ContainerStatuses, pod.Status.InitContainerStatuses} {
		for _, cs := range list {
			if cs.Resources != nil && (!small(cs.Resources.Requests) || !small(cs.AllocatedResources)) {
				return false
			}
		}
	}
	if pod.Spec.Resources != nil && !small(pod.Spec.Resources.Requests) {
		return false
	}
	if pod.Status.Resources != nil && (!small(pod.Status.Resources.Requests) || !small(pod.Status.AllocatedResources)) {
		return false
	}
	return small(pod.Spec.Overhead)
}

// PodOverflows lists, sorted, the resources of pod that kube-scheduler's
// int64 arithmetic wraps: a quantity of its requests or overhead, or their
// sum. Tables mark the pod's cells of those resources (with NodeOverflows,
// the one rule for the overflow mark).
func PodOverflows(pod *v1.Pod) []string {
	all := podFieldOverflows(nil, "", "", "", pod)
	all = append(all, podSumOverflows(pod)...)
	return resourcesOf(all)
}

// NodeOverflows lists, sorted, the resources of ni whose numbers
// kube-scheduler's int64 arithmetic wraps: its node's allocatable, a pod's
// own requests (PodOverflows), or the sum of its pods' requests. It is the
// rule by which every table marks a node's cells "overflow".
func NodeOverflows(ni *cache.NodeInfo) []string {
	return PodsOverflows(ni.Node(), ni.Pods)
}

// PodsOverflows is NodeOverflows of a NodeInfo of node (nil for a
// placeholder) holding pods.
func PodsOverflows(node *v1.Node, pods []*cache.PodInfo) []string {
	var all []Overflow
	if node != nil {
		all = listOverflows(all, "", "", "", node.Status.Allocatable)
	}
	var out []string
	for _, pi := range pods {
		out = append(out, PodOverflows(pi.Pod)...)
	}
	for _, o := range append(all, sumOverflows("", pods)...) {
		out = append(out, o.Resource)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Below these, no node can wrap: fewer than 2^16 pods, each counting less
// than 2^46 of every resource (46 TB of memory, 70 billion cores), sum to
// less than 2^62.
const (
	safePods  = 1 << 16
	safeValue = 1 << 46
)

// MayOverflow reports whether a node holding pod (with its computed
// resource r) could have a number that wraps: the pod's own quantities
// wrap, or one of its counted values is at least 2^46 in magnitude. A node
// none of whose pods may overflow, holding fewer than 2^16 pods and with an
// allocatable that does not wrap, has no overflow (NodeOverflows is
// empty): callers that follow a node event by event compute NodeOverflows
// only for nodes where this, AllocatableOverflows or the pod count says it
// may.
func MayOverflow(pod *v1.Pod, r cache.Resource) bool {
	if len(PodOverflows(pod)) > 0 {
		return true
	}
	big := func(v int64) bool { return v >= safeValue || v <= -safeValue }
	if big(r.MilliCPU) || big(r.Memory) || big(r.EphemeralStorage) {
		return true
	}
	for _, v := range r.ScalarResources {
		if big(v) {
			return true
		}
	}
	return false
}

// AllocatableOverflows reports whether node's allocatable has a quantity
// beyond int64.
func AllocatableOverflows(node *v1.Node) bool {
	return node != nil && len(listOverflows(nil, "", "", "", node.Status.Allocatable)) > 0
}

// TooManyPodsToBeSafe reports whether n pods on one node are too many for
// MayOverflow's bound.
func TooManyPodsToBeSafe(n int) bool { return n >= safePods }

func resourcesOf(os []Overflow) []string {
	var out []string
	for _, o := range os {
		out = append(out, o.Resource)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// sumOverflows checks, for each resource, the exact sum of the requests
// of pods (a NodeInfo's) against int64.
func sumOverflows(node string, pods []*cache.PodInfo) []Overflow {
	var cpu, memory, storage exactSum
	var scalars map[string]*exactSum
	for _, pi := range pods {
		r := pi.Resource.Resource
		cpu.add(r.MilliCPU)
		memory.add(r.Memory)
		storage.add(r.EphemeralStorage)
		for name, v := range r.ScalarResources {
			s := scalars[string(name)]
			if s == nil {
				if scalars == nil {
					scalars = map[string]*exactSum{}
				}
				s = &exactSum{}
				scalars[string(name)] = s
			}
			s.add(v)
		}
	}
	if len(pods) == 0 {
		return nil
	}
	sums := map[string]*exactSum{"cpu": &cpu, "memory": &memory, "ephemeral-storage": &storage}
	for name, s := range scalars {
		sums[name] = s
	}
	var out []Overflow
	keys := make([]string, 0, len(sums))
	for k := range sums {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if s := sums[k]; !s.fits() {
			value := s.big().String()
			if k == "cpu" {
				value += "m"
			}
			out = append(out, Overflow{Object: "node " + node, Field: "requested " + k, Value: value, Wrapped: s.wrapped(), Node: node, Resource: k})
		}
	}
	return out
}

// exactSum is an exact sum of int64 values in 128-bit two's complement
// (hi·2^64 + lo): exact for fewer than 2^63 terms, far more than a node
// holds, without a big.Int per pod (sumOverflows runs over every pod of
// every node for each dump).
type exactSum struct {
	hi int64
	lo uint64
}

func (s *exactSum) add(v int64) {
	var carry uint64
	s.lo, carry = bits.Add64(s.lo, uint64(v), 0)
	s.hi += v>>63 + int64(carry) // v>>63 is v's sign extended: 0 or -1
}

// fits reports whether the sum is within int64: the high word is the low
// word's sign extended.
func (s *exactSum) fits() bool { return s.hi == int64(s.lo)>>63 }

// wrapped is the sum as an int64 addition wraps it, as kube-scheduler's
// counts do.
func (s *exactSum) wrapped() int64 { return int64(s.lo) }

func (s *exactSum) big() *big.Int {
	b := new(big.Int).Lsh(big.NewInt(s.hi), 64)
	return b.Add(b, new(big.Int).SetUint64(s.lo))
}

// OverflowsByNode maps a node's name to the resources, sorted, that
// overflowed on it (Overflows, less pending pods).
func (m *Model) OverflowsByNode() (out map[string][]string) {
	m.Cache.Inspect(func(d *cache.Dump) { out = m.OverflowsByNodeIn(d) })
	return out
}

// OverflowsByNodeIn is OverflowsByNode with d, a Dump of m.Cache or the
// cache's own NodeInfos (Cache.Inspect) read by the caller: views that hold
// one spare the cache a second look; it reads d without retaining any of it.
func (m *Model) OverflowsByNodeIn(d *cache.Dump) map[string][]string {
	out := map[string][]string{}
	for _, o := range m.overflowsIn(d) {
		if o.Node == "" || slices.Contains(out[o.Node], o.Resource) {
			continue
		}
		out[o.Node] = append(out[o.Node], o.Resource)
		sort.Strings(out[o.Node])
	}
	return out
}
