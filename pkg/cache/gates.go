package cache

import "sort"

// FeatureGates are the kube-scheduler feature gates that change what the
// cache accounts for a pod or a node. (SidecarContainers is not one: from
// v1.28 the arithmetic counts sidecars whatever its value; it only changes
// NodeResourcesFit's verdict.) A gate that does not exist at the
// modelled version holds the value that version's code behaves as: false
// before the gate was introduced, true after it was removed as GA. Use
// FeatureGatesFor (or DefaultFeatureGates for v1.36) rather than the zero
// value.
type FeatureGates struct {
	// PodOverhead (beta, on, v1.18–v1.23; GA v1.24–v1.25): add spec.overhead
	// to the pod's requests. Read by the cache up to v1.23.
	PodOverhead bool
	// LocalStorageCapacityIsolation (beta, on, v1.18–v1.24; GA v1.25–v1.26):
	// count ephemeral-storage in requests and allocatable. Read up to v1.24.
	LocalStorageCapacityIsolation bool
	// InPlacePodVerticalScaling (alpha v1.27–v1.32, beta v1.33–v1.34, GA and
	// locked on from v1.35): take container status resources into account
	// for in-place resize.
	InPlacePodVerticalScaling bool
	// PodLevelResources (alpha v1.32–v1.33, beta on from v1.34):
	// spec.resources replaces the container aggregate for cpu, memory (and
	// hugepages from v1.33).
	PodLevelResources bool
	// InPlacePodLevelResourcesVerticalScaling (alpha v1.35, beta on v1.36):
	// use pod status resources for pod-level in-place resize.
	InPlacePodLevelResourcesVerticalScaling bool
	// DRANodeAllocatableResources (alpha, off, v1.36): add the pod status'
	// node-allocatable resource claim statuses.
	DRANodeAllocatableResources bool
}

// DefaultFeatureGates returns the defaults of kube-scheduler v1.36.
func DefaultFeatureGates() FeatureGates { return FeatureGatesFor(Latest) }

// Gate pre-release stages, as kube's feature gates name them.
const (
	Alpha = "ALPHA"
	Beta  = "BETA"
	GA    = ""
)

// gateStage is a gate's state from minor since on.
type gateStage struct {
	since       int
	def, locked bool
	preRelease  string
}

// gateSpec is one gate's history in kube-scheduler (pkg/features/
// kube_features.go, or versioned_kube_features.go in v1.32, of each
// version).
type gateSpec struct {
	name   string
	stages []gateStage
	// removed is the first minor without the gate; 0: present in v1.36.
	removed int
	// effect says what the cache does with it, for docs/versions.md.
	effect string
	field  func(*FeatureGates) *bool
}

// gateSpecs lists every gate kubectl-schedcache models, in name order.
var gateSpecs = []gateSpec{
	{name: "DRANodeAllocatableResources", stages: []gateStage{{since: 36, preRelease: Alpha}},
		effect: "pod requests include status.nodeAllocatableResourceClaimStatuses",
		field:  func(g *FeatureGates) *bool { return &g.DRANodeAllocatableResources }},
	{name: "InPlacePodLevelResourcesVerticalScaling", stages: []gateStage{{since: 35, preRelease: Alpha}, {since: 36, def: true, preRelease: Beta}},
		effect: "pod-level requests use pod status resources (max of spec, actuated, allocated)",
		field:  func(g *FeatureGates) *bool { return &g.InPlacePodLevelResourcesVerticalScaling }},
	{name: "InPlacePodVerticalScaling", stages: []gateStage{{since: 27, preRelease: Alpha}, {since: 33, def: true, preRelease: Beta}, {since: 35, def: true, locked: true, preRelease: GA}},
		effect: "container requests use status resources (v1.27–v1.31 allocatedResources; v1.32 actuated; v1.33+ max of spec, actuated, allocated)",
		field:  func(g *FeatureGates) *bool { return &g.InPlacePodVerticalScaling }},
	{name: "LocalStorageCapacityIsolation", stages: []gateStage{{since: 18, def: true, preRelease: Beta}, {since: 25, def: true, locked: true, preRelease: GA}}, removed: 27,
		effect: "when off (read up to v1.24), ephemeral-storage counts 0 in requests and allocatable",
		field:  func(g *FeatureGates) *bool { return &g.LocalStorageCapacityIsolation }},
	{name: "PodLevelResources", stages: []gateStage{{since: 32, preRelease: Alpha}, {since: 34, def: true, preRelease: Beta}},
		effect: "spec.resources.requests replace the container aggregate (cpu, memory; hugepages from v1.33)",
		field:  func(g *FeatureGates) *bool { return &g.PodLevelResources }},
	{name: "PodOverhead", stages: []gateStage{{since: 18, def: true, preRelease: Beta}, {since: 24, def: true, locked: true, preRelease: GA}}, removed: 26,
		effect: "when off (read up to v1.23), spec.overhead is not added",
		field:  func(g *FeatureGates) *bool { return &g.PodOverhead }},
}

// GateState is one feature gate as kube-scheduler at some version knows it.
type GateState struct {
	Name string
	// Default is the gate's default value; Locked means it cannot be changed.
	Default, Locked bool
	// PreRelease is Alpha, Beta or GA ("").
	PreRelease string
}

// stageAt returns the gate's stage at minor, and false when the gate does
// not exist then.
func (g *gateSpec) stageAt(minor int) (gateStage, bool) {
	if minor < g.stages[0].since || g.removed != 0 && minor >= g.removed {
		return gateStage{}, false
	}
	st := g.stages[0]
	for _, s := range g.stages[1:] {
		if minor >= s.since {
			st = s
		}
	}
	return st, true
}

// fixedValue is what the code of minor behaves as when the gate cannot be
// set: false before the gate existed, true once it was removed (GA), the
// default while it is locked.
func (g *gateSpec) fixedValue(minor int) (value, fixed bool) {
	st, ok := g.stageAt(minor)
	switch {
	case !ok:
		return minor >= g.stages[0].since, true
	case st.locked:
		return st.def, true
	}
	return false, false
}

// KnownGates lists, in name order, the feature gates kubectl-schedcache
// models that exist in kube-scheduler v, with their default, lock and stage.
func KnownGates(v Version) []GateState {
	var out []GateState
	for i := range gateSpecs {
		if st, ok := gateSpecs[i].stageAt(v.Minor); ok {
			out = append(out, GateState{Name: gateSpecs[i].name, Default: st.def, Locked: st.locked, PreRelease: st.preRelease})
		}
	}
	return out
}

// GateDependencies maps a gate to the gates it needs enabled at v (only
// among the modelled gates): from v1.35 kube-scheduler refuses to start
// with InPlacePodLevelResourcesVerticalScaling on and InPlacePodVerticalScaling
// or PodLevelResources off (pkg/features/kube_features.go,
// defaultKubernetesFeatureGateDependencies, v1.35.4 and v1.36.3).
func GateDependencies(v Version) map[string][]string {
	if v.Minor < 35 {
		return nil
	}
	return map[string][]string{"InPlacePodLevelResourcesVerticalScaling": {"InPlacePodVerticalScaling", "PodLevelResources"}}
}

// FeatureGatesFor returns the gate values of kube-scheduler v's defaults.
func FeatureGatesFor(v Version) FeatureGates {
	var g FeatureGates
	for i := range gateSpecs {
		st, ok := gateSpecs[i].stageAt(v.Minor)
		*gateSpecs[i].field(&g) = st.def
		if !ok {
			*gateSpecs[i].field(&g), _ = gateSpecs[i].fixedValue(v.Minor)
		}
	}
	return g
}

// FeatureGatesWith returns v's defaults with the named gates set. Names
// that are not gates of v are ignored, and gates that cannot be changed at
// v keep their fixed value: callers validate first (pkg/cmd does, with
// k8s.io/component-base/featuregate and KnownGates).
func FeatureGatesWith(v Version, set map[string]bool) FeatureGates {
	g := FeatureGatesFor(v)
	for name, value := range set {
		for i := range gateSpecs {
			if gateSpecs[i].name == name {
				*gateSpecs[i].field(&g) = value
			}
		}
	}
	return g.normalized(v)
}

// normalized forces every gate that cannot be set at v to its fixed value.
func (g FeatureGates) normalized(v Version) FeatureGates {
	for i := range gateSpecs {
		if value, fixed := gateSpecs[i].fixedValue(v.Minor); fixed {
			*gateSpecs[i].field(&g) = value
		}
	}
	return g
}

// Enabled returns the gates that are on, in name order, for notes.
func (g FeatureGates) Enabled() []string {
	var out []string
	for i := range gateSpecs {
		if *gateSpecs[i].field(&g) {
			out = append(out, gateSpecs[i].name)
		}
	}
	sort.Strings(out)
	return out
}
