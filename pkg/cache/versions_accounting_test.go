package cache

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// This file checks NodeInfo accounting per kube-scheduler version. Every
// expectation is computed by hand from the algorithm of the version named
// (K = k8s.io/kubernetes at that version): v1.18–v1.26 calculateResource in
// K/pkg/scheduler/nodeinfo/node_info.go (v1.18) or
// K/pkg/scheduler/framework/types.go; v1.27–v1.31 the same function over
// K/pkg/api/v1/resource/helpers.go PodRequests; v1.32+ over
// k8s.io/component-helpers resource/helpers.go of the matching v0.x.

// profileAt is the profile of version s with its default gates, changed by
// set (nil: none).
func profileAt(t *testing.T, s string, set func(*FeatureGates)) Profile {
	t.Helper()
	ver, err := ParseVersion(s)
	mustNil(t, err)
	g := FeatureGatesFor(ver)
	if set != nil {
		set(&g)
	}
	return NewProfile(ver, &g)
}

func (b *podBuilder) overhead(rl v1.ResourceList) *podBuilder { b.p.Spec.Overhead = rl; return b }

// status gives the first container a status with actuated and allocated
// cpu ("" = none).
func (b *podBuilder) status(actuated, allocated string) *podBuilder {
	cs := v1.ContainerStatus{Name: b.p.Spec.Containers[0].Name}
	if actuated != "" {
		cs.Resources = &v1.ResourceRequirements{Requests: rl(actuated, "")}
	}
	if allocated != "" {
		cs.AllocatedResources = rl(allocated, "")
	}
	b.p.Status.ContainerStatuses = append(b.p.Status.ContainerStatuses, cs)
	return b
}

func (b *podBuilder) resizeInfeasibleField() *podBuilder {
	b.p.Status.Resize = v1.PodResizeStatusInfeasible
	return b
}

func (b *podBuilder) resizeInfeasibleCondition() *podBuilder {
	b.p.Status.Conditions = append(b.p.Status.Conditions, v1.PodCondition{Type: v1.PodResizePending, Status: v1.ConditionTrue, Reason: v1.PodReasonInfeasible})
	return b
}

func (b *podBuilder) podLevel(rl v1.ResourceList) *podBuilder {
	b.p.Spec.Resources = &v1.ResourceRequirements{Requests: rl}
	return b
}

// got is what a pod adds, in the units the tests compare: millicores and
// bytes, NonZero cpu and memory, scalar resources.
type got struct {
	CPU, Mem, Eph, NZCPU, NZMem int64
	Scalar                      map[v1.ResourceName]int64
}

func accounted(p Profile, pod *v1.Pod) got {
	r := p.PodResource(pod)
	return got{CPU: r.Resource.MilliCPU, Mem: r.Resource.Memory, Eph: r.Resource.EphemeralStorage,
		NZCPU: r.NonZeroMilliCPU, NZMem: r.NonZeroMemory, Scalar: r.Resource.ScalarResources}
}

type accountingCase struct {
	version string
	gates   func(*FeatureGates)
	want    got
}

func checkAccounting(t *testing.T, pod *v1.Pod, cases []accountingCase) {
	t.Helper()
	for _, tc := range cases {
		p := profileAt(t, tc.version, tc.gates)
		if diff := cmp.Diff(tc.want, accounted(p, pod)); diff != "" {
			t.Errorf("%s (gates %+v): (-want,+got):\n%s", tc.version, p.Gates, diff)
		}
	}
}

// A sidecar (100m/100Mi), then an init container (300m/100Mi), and an app
// (200m/100Mi). Before v1.28 the sidecar is a plain init container:
// max(200, 100, 300) = 300m. From v1.28 (K/pkg/api/v1/resource PodRequests
// v1.28.15) the sidecar joins the sum (300m) and the init phase is 300+100:
// 400m, 200Mi.
func TestAccountingSidecarAndInit(t *testing.T) {
	p := pod("p").init("100m", "100Mi", true).init("300m", "100Mi", false).req("200m", "100Mi").obj()
	before := got{CPU: 300, Mem: 100 * mi, NZCPU: 300, NZMem: 100 * mi}
	after := got{CPU: 400, Mem: 200 * mi, NZCPU: 400, NZMem: 200 * mi}
	checkAccounting(t, p, []accountingCase{{"v1.18", nil, before}, {"v1.26", nil, before}, {"v1.27", nil, before},
		{"v1.28", nil, after}, {"v1.31", nil, after}, {"v1.32", nil, after}, {"v1.36", nil, after}})
}

// A sidecar without requests and an app (200m/100Mi). v1.27–v1.31 apply
// the NonZero defaults to the sidecar's init phase only (100m, 200Mi, below
// or equal to the app's): NonZero 200m/200Mi. From v1.32 each container is
// defaulted before summing (K v1.32.13 framework/types.go: second
// PodRequests call with NonMissingContainerRequests): 300m/300Mi.
func TestAccountingSidecarWithoutRequests(t *testing.T) {
	p := pod("p").init("", "", true).req("200m", "100Mi").obj()
	old := got{CPU: 200, Mem: 100 * mi, NZCPU: 200, NZMem: 200 * mi}
	checkAccounting(t, p, []accountingCase{{"v1.26", nil, old}, {"v1.27", nil, old}, {"v1.28", nil, old}, {"v1.31", nil, old},
		{"v1.32", nil, got{CPU: 200, Mem: 100 * mi, NZCPU: 300, NZMem: 300 * mi}},
		{"v1.36", nil, got{CPU: 200, Mem: 100 * mi, NZCPU: 300, NZMem: 300 * mi}}})
}

// A sidecar (100m) and an app (200m), no memory. In v1.28–v1.31 the
// ContainerFn sums regular containers only (200m) and takes the max with
// the sidecar's phase (100m): NonZero 200m although the pod requests 300m.
// v1.32+: 300m, and 200Mi per container.
func TestAccountingSidecarLeftOutOfNonZero(t *testing.T) {
	p := pod("p").init("100m", "", true).req("200m", "").obj()
	checkAccounting(t, p, []accountingCase{
		{"v1.27", nil, got{CPU: 200, NZCPU: 200, NZMem: 200 * mi}},
		{"v1.28", nil, got{CPU: 300, NZCPU: 200, NZMem: 200 * mi}},
		{"v1.32", nil, got{CPU: 300, NZCPU: 300, NZMem: 400 * mi}},
		{"v1.36", nil, got{CPU: 300, NZCPU: 300, NZMem: 400 * mi}},
	})
}

// Overhead 250m/120Mi on a 100m container: added with gate PodOverhead
// (beta, on) up to v1.23 (K v1.23.17 framework/types.go calculateResource
// checks the gate), always from v1.24 (the gate is GA and locked).
func TestAccountingOverheadGate(t *testing.T) {
	p := pod("p").req("100m", "").overhead(v1.ResourceList{v1.ResourceCPU: resource.MustParse("250m"), v1.ResourceMemory: resource.MustParse("120Mi")}).obj()
	with := got{CPU: 350, Mem: 120 * mi, NZCPU: 350, NZMem: 320 * mi}
	without := got{CPU: 100, NZCPU: 100, NZMem: 200 * mi}
	off := func(g *FeatureGates) { g.PodOverhead = false }
	checkAccounting(t, p, []accountingCase{{"v1.18", nil, with}, {"v1.18", off, without}, {"v1.23", off, without},
		{"v1.24", off, with}, {"v1.27", nil, with}, {"v1.32", nil, with}, {"v1.36", nil, with}})
}

// Ephemeral storage counts only with gate LocalStorageCapacityIsolation up
// to v1.24 (K v1.24.17 framework/types.go Resource.Add), in requests and in
// allocatable alike; from v1.25 always.
func TestAccountingEphemeralGate(t *testing.T) {
	p := pod("p").container(v1.Container{Name: "c", Resources: v1.ResourceRequirements{Requests: v1.ResourceList{
		v1.ResourceEphemeralStorage: resource.MustParse("500")}}}).obj()
	off := func(g *FeatureGates) { g.LocalStorageCapacityIsolation = false }
	checkAccounting(t, p, []accountingCase{
		{"v1.24", nil, got{Eph: 500, NZCPU: 100, NZMem: 200 * mi}},
		{"v1.24", off, got{NZCPU: 100, NZMem: 200 * mi}},
		{"v1.25", off, got{Eph: 500, NZCPU: 100, NZMem: 200 * mi}},
	})
	alloc := v1.ResourceList{v1.ResourceEphemeralStorage: resource.MustParse("10Gi")}
	if p := profileAt(t, "v1.24", off); p.NewResource(alloc).EphemeralStorage != 0 {
		t.Errorf("v1.24 without LocalStorageCapacityIsolation: allocatable ephemeral-storage counted")
	}
	if p := profileAt(t, "v1.25", off); p.NewResource(alloc).EphemeralStorage != 10*1024*mi {
		t.Errorf("v1.25: allocatable ephemeral-storage not counted")
	}
}

// In-place resize: spec 500m, actuated 100m, allocated 200m.
//   - v1.26 and v1.27 with the gate off: the spec, 500m.
//   - v1.27–v1.31 with the gate: max(spec, allocated) = 500m, the allocated
//     200m when status.resize is Infeasible (K v1.27.16 pkg/api/v1/resource).
//   - v1.32 with the gate: max(spec, actuated) = 500m, the actuated 100m
//     when status.resize is Infeasible (component-helpers v0.32.13).
//   - v1.33+ (gate on by default): max of all three = 500m; with condition
//     PodResizePending/Infeasible max(actuated, allocated) = 200m; the
//     deprecated status.resize no longer counts (component-helpers v0.33.13
//     determineContainerReqs).
func TestAccountingInPlaceResize(t *testing.T) {
	on := func(g *FeatureGates) { g.InPlacePodVerticalScaling = true }
	c := func(cpu int64) got { return got{CPU: cpu, NZCPU: cpu, NZMem: 200 * mi} }
	plain := pod("p").req("500m", "").status("100m", "200m").obj()
	checkAccounting(t, plain, []accountingCase{{"v1.26", nil, c(500)}, {"v1.27", nil, c(500)}, {"v1.27", on, c(500)},
		{"v1.32", on, c(500)}, {"v1.33", nil, c(500)}, {"v1.36", nil, c(500)}})
	field := pod("p").req("500m", "").status("100m", "200m").resizeInfeasibleField().obj()
	checkAccounting(t, field, []accountingCase{{"v1.27", nil, c(500)}, {"v1.27", on, c(200)}, {"v1.31", on, c(200)},
		{"v1.32", on, c(100)}, {"v1.33", nil, c(500)}})
	cond := pod("p").req("500m", "").status("100m", "200m").resizeInfeasibleCondition().obj()
	checkAccounting(t, cond, []accountingCase{{"v1.32", on, c(500)}, {"v1.33", nil, c(200)}, {"v1.36", nil, c(200)}})
	// A spec below the status: spec 100m, actuated 300m, allocated 200m.
	grown := pod("p").req("100m", "").status("300m", "200m").obj()
	checkAccounting(t, grown, []accountingCase{{"v1.27", on, c(200)}, {"v1.32", on, c(300)}, {"v1.33", nil, c(300)}})
	// Allocated above both (a resize admitted, not yet actuated): spec 100m,
	// actuated 150m, allocated 400m; v1.32 alone leaves allocated out
	// (component-helpers v0.36.3 determineEffectiveRequests: max of all three).
	admitted := pod("p").req("100m", "").status("150m", "400m").obj()
	checkAccounting(t, admitted, []accountingCase{{"v1.27", on, c(400)}, {"v1.32", on, c(150)}, {"v1.33", nil, c(400)}, {"v1.36", nil, c(400)}})
}

// Pod-level requests cpu 1 and hugepages-2Mi 4Mi over containers of 100m
// and 200m. Ignored before v1.32 and with gate PodLevelResources off (alpha
// in v1.32–v1.33). With the gate, v1.32 replaces cpu only (supported
// pod-level resources: cpu, memory; component-helpers v0.32.13) and v1.33+
// hugepages too (v0.33.13 IsSupportedPodLevelResource). NonZero: only
// memory, missing from the result, gets the 200Mi default per container.
func TestAccountingPodLevelResources(t *testing.T) {
	p := pod("p").req("100m", "").req("200m", "").podLevel(v1.ResourceList{
		v1.ResourceCPU: resource.MustParse("1"), "hugepages-2Mi": resource.MustParse("4Mi")}).obj()
	on := func(g *FeatureGates) { g.PodLevelResources = true }
	containers := got{CPU: 300, NZCPU: 300, NZMem: 400 * mi}
	checkAccounting(t, p, []accountingCase{{"v1.31", nil, containers}, {"v1.32", nil, containers},
		{"v1.32", on, got{CPU: 1000, NZCPU: 1000, NZMem: 400 * mi}},
		{"v1.33", on, got{CPU: 1000, NZCPU: 1000, NZMem: 400 * mi, Scalar: map[v1.ResourceName]int64{"hugepages-2Mi": 4 * mi}}},
		{"v1.34", nil, got{CPU: 1000, NZCPU: 1000, NZMem: 400 * mi, Scalar: map[v1.ResourceName]int64{"hugepages-2Mi": 4 * mi}}}})
}

// An explicit cpu "0" is kept in NonZero in every version (v1.18.20
// util/non_zero.go GetNonzeroRequestForResource: "not if explicitly set to
// zero"; component-helpers applyNonMissing: only missing keys).
func TestAccountingExplicitZero(t *testing.T) {
	p := pod("p").req("0", "").obj()
	want := got{NZCPU: 0, NZMem: 200 * mi}
	checkAccounting(t, p, []accountingCase{{"v1.18", nil, want}, {"v1.27", nil, want}, {"v1.32", nil, want}, {"v1.36", nil, want}})
}

// Two containers of 500 microcores. Up to v1.26 each container's request
// is converted with MilliValue (rounded up to 1m) before adding: 2m. From
// v1.27 quantities are summed first (1000u = 1m); v1.27–v1.31 still convert
// per container for NonZero (ContainerFn → GetNonzeroRequests): 2m; from
// v1.32 NonZero is one sum too: 1m.
func TestAccountingRounding(t *testing.T) {
	p := pod("p").req("500u", "").req("500u", "").obj()
	checkAccounting(t, p, []accountingCase{
		{"v1.26", nil, got{CPU: 2, NZCPU: 2, NZMem: 400 * mi}},
		{"v1.27", nil, got{CPU: 1, NZCPU: 2, NZMem: 400 * mi}},
		{"v1.32", nil, got{CPU: 1, NZCPU: 1, NZMem: 400 * mi}},
		{"v1.36", nil, got{CPU: 1, NZCPU: 1, NZMem: 400 * mi}},
	})
}

// Host ports: a sidecar's host port is used from v1.33 (K v1.33.13
// framework/types.go updateUsedPorts → util.GetHostPorts); v1.32 walks the
// regular containers only.
func TestAccountingSidecarHostPorts(t *testing.T) {
	always := v1.ContainerRestartPolicyAlways
	p := pod("p").on("n").hostPort("", "", 80).obj()
	p.Spec.InitContainers = []v1.Container{{Name: "side", RestartPolicy: &always, Ports: []v1.ContainerPort{{HostPort: 81}}}}
	for version, want := range map[string]HostPortInfo{"v1.32": ports("0.0.0.0", "TCP", 80), "v1.33": ports("0.0.0.0", "TCP", 80, "0.0.0.0", "TCP", 81)} {
		c := newVersionCache(t, version, 0, nil)
		mustNil(t, c.AddPod(p))
		if diff := cmp.Diff(want, c.Dump().Nodes["n"].UsedPorts); diff != "" {
			t.Errorf("%s: ports (-want,+got):\n%s", version, diff)
		}
	}
}

// PVC reference counts exist from v1.22 (K v1.22.17 framework/types.go
// updatePVCRefCounts).
func TestAccountingPVCRefCounts(t *testing.T) {
	for version, want := range map[string]map[string]int{"v1.21": {}, "v1.22": {"ns/data": 1}} {
		c := newVersionCache(t, version, 0, nil)
		mustNil(t, c.AddPod(pod("p").on("n").pvc("data").obj()))
		if diff := cmp.Diff(want, c.Dump().Nodes["n"].PVCRefCounts); diff != "" {
			t.Errorf("%s: PVC ref counts (-want,+got):\n%s", version, diff)
		}
	}
}
