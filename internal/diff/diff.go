// Package diff compares two outputs of the same kind (CacheDump or Snapshot
// of pkg/apis/v1alpha1): nodes added and removed, per-node resource, pod and
// generation changes, and the Snapshot's lists. It is pure: no I/O.
package diff

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

func newDiff(compared, from, to string) *v1alpha1.CacheDiff {
	d := &v1alpha1.CacheDiff{Compared: compared, From: from, To: to, AddedNodes: []string{}, RemovedNodes: []string{}, Nodes: []v1alpha1.NodeDiff{}}
	v1alpha1.SetKind(d, "CacheDiff")
	return d
}

// finish sorts, counts and decides Identical.
func finish(d *v1alpha1.CacheDiff) *v1alpha1.CacheDiff {
	sort.Strings(d.AddedNodes)
	sort.Strings(d.RemovedNodes)
	sort.Slice(d.Nodes, func(i, j int) bool { return d.Nodes[i].Name < d.Nodes[j].Name })
	d.Differences = len(d.AddedNodes) + len(d.RemovedNodes)
	for _, n := range d.Nodes {
		d.Differences += len(n.Changes) + len(n.AddedPods) + len(n.RemovedPods) + len(n.ChangedPods)
	}
	for _, l := range d.Lists {
		d.Differences += len(l.Added) + len(l.Removed)
	}
	d.Identical = d.Differences == 0
	return d
}

// Dumps compares two CacheDumps NodeInfo by NodeInfo: zone, placeholder and
// ghost, requested, nonZeroRequested and allocatable (every field, scalar
// resources by name, missing counting as 0), the pods by UID (added,
// removed, and changed state, phase, terminating, nominated node or
// requests), nominated pods, used ports, PVC reference counts and the
// generation. from and to describe the sides.
func Dumps(a, b *v1alpha1.CacheDump, from, to string) *v1alpha1.CacheDiff {
	d := newDiff("CacheDump", from, to)
	before := map[string]*v1alpha1.NodeDump{}
	for i := range a.Nodes {
		before[a.Nodes[i].Name] = &a.Nodes[i]
	}
	seen := map[string]bool{}
	for i := range b.Nodes {
		n := &b.Nodes[i]
		seen[n.Name] = true
		old, ok := before[n.Name]
		if !ok {
			d.AddedNodes = append(d.AddedNodes, n.Name)
			continue
		}
		if nd, changed := dumpNode(old, n); changed {
			d.Nodes = append(d.Nodes, nd)
		}
	}
	for name := range before {
		if !seen[name] {
			d.RemovedNodes = append(d.RemovedNodes, name)
		}
	}
	return finish(d)
}

func dumpNode(a, b *v1alpha1.NodeDump) (v1alpha1.NodeDiff, bool) {
	nd := v1alpha1.NodeDiff{Name: a.Name}
	c := &changes{}
	c.str("zone", a.Zone, b.Zone)
	c.boolean("placeholder", a.Placeholder, b.Placeholder)
	c.boolean("ghost", a.Ghost, b.Ghost)
	c.resource("requested", a.Requested, b.Requested)
	c.nonZero("nonZeroRequested", a.NonZeroRequested, b.NonZeroRequested)
	c.resource("allocatable", a.Allocatable, b.Allocatable)
	c.set("nominatedPods", a.NominatedPods, b.NominatedPods)
	c.set("usedPorts", a.UsedPorts, b.UsedPorts)
	c.counts("pvcRefCounts", a.PVCRefCounts, b.PVCRefCounts)
	nd.Changes = c.list
	nd.AddedPods, nd.RemovedPods, nd.ChangedPods = pods(a.Pods, b.Pods)
	if a.Generation != b.Generation {
		nd.Generation = &v1alpha1.Int64Change{From: a.Generation, To: b.Generation}
	}
	changed := len(nd.Changes)+len(nd.AddedPods)+len(nd.RemovedPods)+len(nd.ChangedPods) > 0 || nd.Generation != nil
	return nd, changed
}

// pods compares two pod lists by UID.
func pods(a, b []v1alpha1.PodDump) (added, removed []v1alpha1.PodRef, changed []v1alpha1.PodChange) {
	before := map[string]*v1alpha1.PodDump{}
	for i := range a {
		before[a[i].UID] = &a[i]
	}
	seen := map[string]bool{}
	for i := range b {
		p := &b[i]
		seen[p.UID] = true
		old, ok := before[p.UID]
		if !ok {
			added = append(added, ref(p))
			continue
		}
		c := &changes{}
		c.str("state", old.State, p.State)
		c.str("phase", old.Phase, p.Phase)
		c.boolean("terminating", old.Terminating, p.Terminating)
		c.str("nominatedNodeName", old.NominatedNodeName, p.NominatedNodeName)
		c.resource("requested", old.Requested, p.Requested)
		c.nonZero("nonZeroRequested", old.NonZeroRequested, p.NonZeroRequested)
		if len(c.list) > 0 {
			changed = append(changed, v1alpha1.PodChange{PodRef: ref(p), Changes: c.list})
		}
	}
	for i := range a {
		if !seen[a[i].UID] {
			removed = append(removed, ref(&a[i]))
		}
	}
	return added, removed, changed
}

func ref(p *v1alpha1.PodDump) v1alpha1.PodRef {
	return v1alpha1.PodRef{Namespace: p.Namespace, Name: p.Name, UID: p.UID}
}

// Snapshots compares two Snapshots: the generation, nodes added to and
// removed from the scan list, per node its zone, pod count, position in
// the scan order and generation, and the affinity and PVC lists.
func Snapshots(a, b *v1alpha1.Snapshot, from, to string) *v1alpha1.CacheDiff {
	d := newDiff("Snapshot", from, to)
	d.Generation = &v1alpha1.Int64Change{From: a.Generation, To: b.Generation}
	type entry struct {
		n   *v1alpha1.SnapshotNode
		pos int
	}
	before := map[string]entry{}
	for i := range a.Nodes {
		before[a.Nodes[i].Name] = entry{&a.Nodes[i], i + 1}
	}
	seen := map[string]bool{}
	for i := range b.Nodes {
		n := &b.Nodes[i]
		seen[n.Name] = true
		old, ok := before[n.Name]
		if !ok {
			d.AddedNodes = append(d.AddedNodes, n.Name)
			continue
		}
		c := &changes{}
		c.str("zone", old.n.Zone, n.Zone)
		c.number("pods", int64(old.n.Pods), int64(n.Pods))
		c.number("position", int64(old.pos), int64(i+1))
		nd := v1alpha1.NodeDiff{Name: n.Name, Changes: c.list}
		if old.n.Generation != n.Generation {
			nd.Generation = &v1alpha1.Int64Change{From: old.n.Generation, To: n.Generation}
		}
		if len(nd.Changes) > 0 || nd.Generation != nil {
			d.Nodes = append(d.Nodes, nd)
		}
	}
	for name := range before {
		if !seen[name] {
			d.RemovedNodes = append(d.RemovedNodes, name)
		}
	}
	for _, l := range []struct {
		name string
		a, b []string
	}{
		{"havePodsWithAffinity", a.HavePodsWithAffinity, b.HavePodsWithAffinity},
		{"havePodsWithRequiredAntiAffinity", a.HavePodsWithRequiredAntiAffinity, b.HavePodsWithRequiredAntiAffinity},
		{"usedPVCSet", a.UsedPVCSet, b.UsedPVCSet},
	} {
		if added, removed := setDiff(l.a, l.b); len(added)+len(removed) > 0 {
			d.Lists = append(d.Lists, v1alpha1.ListChange{List: l.name, Added: added, Removed: removed})
		}
	}
	return finish(d)
}

// changes collects FieldChanges.
type changes struct{ list []v1alpha1.FieldChange }

func (c *changes) str(field, a, b string) {
	if a != b {
		c.list = append(c.list, v1alpha1.FieldChange{Field: field, From: a, To: b})
	}
}

func (c *changes) number(field string, a, b int64) {
	c.str(field, strconv.FormatInt(a, 10), strconv.FormatInt(b, 10))
}

func (c *changes) boolean(field string, a, b bool) {
	c.str(field, strconv.FormatBool(a), strconv.FormatBool(b))
}

func (c *changes) resource(prefix string, a, b v1alpha1.Resource) {
	c.number(prefix+".milliCPU", a.MilliCPU, b.MilliCPU)
	c.number(prefix+".memory", a.Memory, b.Memory)
	c.number(prefix+".ephemeralStorage", a.EphemeralStorage, b.EphemeralStorage)
	c.number(prefix+".allowedPodNumber", a.AllowedPodNumber, b.AllowedPodNumber)
	for _, k := range keys(a.ScalarResources, b.ScalarResources) {
		c.number(fmt.Sprintf("%s.scalarResources[%s]", prefix, k), a.ScalarResources[k], b.ScalarResources[k])
	}
}

func (c *changes) nonZero(prefix string, a, b v1alpha1.NonZeroResource) {
	c.number(prefix+".milliCPU", a.MilliCPU, b.MilliCPU)
	c.number(prefix+".memory", a.Memory, b.Memory)
}

func (c *changes) counts(prefix string, a, b map[string]int) {
	for _, k := range sets.List(sets.KeySet(a).Union(sets.KeySet(b))) {
		c.number(fmt.Sprintf("%s[%s]", prefix, k), int64(a[k]), int64(b[k]))
	}
}

// set records what entered and left a list as one change: "+x -y".
func (c *changes) set(field string, a, b []string) {
	added, removed := setDiff(a, b)
	if len(added)+len(removed) == 0 {
		return
	}
	c.list = append(c.list, v1alpha1.FieldChange{Field: field, From: strings.Join(removed, ","), To: strings.Join(added, ",")})
}

// setDiff returns the sorted elements of b not in a, and of a not in b.
func setDiff(a, b []string) (added, removed []string) {
	sa, sb := sets.New(a...), sets.New(b...)
	return sets.List(sb.Difference(sa)), sets.List(sa.Difference(sb))
}

// keys returns the names in a or b, sorted.
func keys(a, b map[string]int64) []string {
	return sets.List(sets.KeySet(a).Union(sets.KeySet(b)))
}
