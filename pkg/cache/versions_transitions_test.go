package cache

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	testingclock "k8s.io/utils/clock/testing"
)

// This file checks the pod state machine of each kube-scheduler version
// against expectations written by hand from that version's cache code
// (K = k8s.io/kubernetes at the version named; the cache is
// K/pkg/scheduler/internal/cache/cache.go up to v1.31 and
// K/pkg/scheduler/backend/cache/cache.go from v1.32).

// newVersionCache returns a cache modelling kube-scheduler version s with its
// default gates, the given TTL and a fake clock at start.
func newVersionCache(t *testing.T, s string, ttl time.Duration, clk *testingclock.FakePassiveClock) *cacheImpl {
	t.Helper()
	ver, err := ParseVersion(s)
	mustNil(t, err)
	p := NewProfile(ver, nil)
	opts := Options{Profile: &p, TTL: ttl}
	if clk != nil {
		opts.Clock = clk
	}
	return newTestCache(opts)
}

// step is one cache call in a versioned table.
type step struct {
	name string
	do   func(c *cacheImpl) error
}

// versionCase is the outcome of a script at one version: each step's error
// ("" = nil), the assumed pods and the NodeInfos at the end.
type versionCase struct {
	version string
	// source cites the upstream code the expectation was read from.
	source  string
	errs    []string
	assumed []string
	nodes   map[string]nodeSummary
}

func runVersionCases(t *testing.T, steps []step, cases []versionCase) {
	t.Helper()
	for _, vc := range cases {
		t.Run(vc.version, func(t *testing.T) {
			c := newVersionCache(t, vc.version, 0, nil)
			for i, st := range steps {
				err := st.do(c)
				got := ""
				if err != nil {
					got = err.Error()
				}
				if got != vc.errs[i] {
					t.Errorf("%s (%s): step %d %s: error %q, want %q", vc.version, vc.source, i, st.name, got, vc.errs[i])
				}
			}
			if diff := cmp.Diff(vc.assumed, sortedKeys(c.assumedPods), cmpEmpty); diff != "" {
				t.Errorf("%s (%s): assumed pods (-want,+got):\n%s", vc.version, vc.source, diff)
			}
			if vc.nodes != nil {
				if diff := cmp.Diff(vc.nodes, summarize(c)); diff != "" {
					t.Errorf("%s (%s): NodeInfos (-want,+got):\n%s", vc.version, vc.source, diff)
				}
			}
		})
	}
}

// cpuNode is a NodeInfo summary holding pods with cpu only (NonZero memory
// is the 200Mi default per pod).
func cpuNode(milliCPU int64, pods ...string) nodeSummary {
	return nodeSummary{Pods: pods, Requested: Resource{MilliCPU: milliCPU},
		NonZero: Resource{MilliCPU: milliCPU, Memory: int64(len(pods)) * 200 * mi}, Ports: HostPortInfo{}, PVCs: map[string]int{}}
}

// TestForgetNeverAssumed: ForgetPod of a pod the cache never held.
func TestForgetNeverAssumed(t *testing.T) {
	p := pod("p1").on("n1").req("100m", "").obj()
	runVersionCases(t, []step{{"ForgetPod", forget(p)}}, []versionCase{
		{version: "v1.18", source: "v1.18.20 cache.go ForgetPod: default branch",
			errs: []string{"pod p1 wasn't assumed so cannot be forgotten"}, nodes: map[string]nodeSummary{}},
		{version: "v1.25", source: "v1.25.16 cache.go ForgetPod: key only",
			errs: []string{"pod p1 wasn't assumed so cannot be forgotten"}, nodes: map[string]nodeSummary{}},
		{version: "v1.26", source: "v1.26.15 cache.go ForgetPod: KObj",
			errs: []string{"pod p1(ns/p1) wasn't assumed so cannot be forgotten"}, nodes: map[string]nodeSummary{}},
		{version: "v1.34", source: "v1.34.4 cache.go ForgetPod",
			errs: []string{"pod p1(ns/p1) wasn't assumed so cannot be forgotten"}, nodes: map[string]nodeSummary{}},
		{version: "v1.35", source: "v1.35.4 cache.go ForgetPod: !ok returns nil",
			errs: []string{""}, nodes: map[string]nodeSummary{}},
		{version: "v1.36", source: "v1.36.3 cache.go ForgetPod",
			errs: []string{""}, nodes: map[string]nodeSummary{}},
	})
}

// TestRemoveAssumed: RemovePod of a pod that is only assumed.
func TestRemoveAssumed(t *testing.T) {
	p := pod("p1").on("n1").req("100m", "").obj()
	steps := []step{{"AssumePod", assume(p)}, {"RemovePod", remove(p)}}
	stays := map[string]nodeSummary{"n1": cpuNode(100, "p1")}
	runVersionCases(t, steps, []versionCase{
		{version: "v1.18", source: "v1.18.20 cache.go RemovePod: case ok && !assumed",
			errs: []string{"", "pod p1 is not found in scheduler cache, so cannot be removed from it"}, assumed: []string{"p1"}, nodes: stays},
		{version: "v1.19", source: "v1.19.16 cache.go RemovePod",
			errs: []string{"", "pod p1 is not found in scheduler cache, so cannot be removed from it"}, assumed: []string{"p1"}, nodes: stays},
		{version: "v1.20", source: "v1.20.15 cache.go RemovePod: case ok → expirePod",
			errs: []string{"", ""}, nodes: map[string]nodeSummary{}},
		{version: "v1.36", source: "v1.36.3 cache.go RemovePod",
			errs: []string{"", ""}, nodes: map[string]nodeSummary{}},
	})
}

// TestRemoveAssumedStaysUntilExpiry: in v1.18 the pod that RemovePod refused
// leaves only when its TTL has passed (v1.18.20 cache.go
// cleanupAssumedPods: bindingFinished and now.After(deadline)).
func TestRemoveAssumedStaysUntilExpiry(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clk := testingclock.NewFakePassiveClock(start)
	c := newVersionCache(t, "v1.18", 30*time.Second, clk)
	p := pod("p1").on("n1").req("100m", "").obj()
	mustNil(t, c.AssumePod(p))
	mustNil(t, c.FinishBinding(p))
	if err := c.RemovePod(p); err == nil {
		t.Fatalf("v1.18 RemovePod of an assumed pod succeeded")
	}
	if got := c.Cleanup(start.Add(30 * time.Second)); len(got) != 0 {
		t.Fatalf("expired at the deadline itself")
	}
	if got := c.Cleanup(start.Add(31 * time.Second)); len(got) != 1 || c.NodeCount() != 0 {
		t.Fatalf("not expired one cleanup after the deadline: %v, NodeCount %d", got, c.NodeCount())
	}
}

// TestZeroTTL: with TTL 0, v1.18–v1.24 set the deadline to the finish time
// (v1.24.17 cache.go finishBinding: now.Add(ttl)), so the first cleanup
// strictly after it expires the pod; from v1.25 (v1.25.16 finishBinding:
// deadline nil; cleanupAssumedPods: ttl != 0) nothing expires.
func TestZeroTTL(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		version string
		expires bool
	}{{"v1.18", true}, {"v1.22.5", true}, {"v1.24", true}, {"v1.25", false}, {"v1.35", false}} {
		t.Run(tc.version, func(t *testing.T) {
			clk := testingclock.NewFakePassiveClock(start.Add(100 * time.Millisecond))
			c := newVersionCache(t, tc.version, 0, clk)
			p := pod("p1").on("n1").req("100m", "").obj()
			mustNil(t, c.AssumePod(p))
			mustNil(t, c.FinishBinding(p))
			if got := c.Cleanup(start.Add(100 * time.Millisecond)); len(got) != 0 {
				t.Fatalf("expired at the finish time itself")
			}
			got := c.Cleanup(start.Add(time.Second))
			if (len(got) == 1) != tc.expires {
				t.Errorf("expired at the first cleanup after binding: %v, want %v", len(got) == 1, tc.expires)
			}
		})
	}
}

// TestErrorTexts: the same mistakes at v1.18 (errors name the UID only,
// v1.18.20 cache.go), v1.26 ("uid(ns/name)", klog.KObj, v1.26.15) and
// v1.27 (UpdatePod of an assumed pod has its own message, v1.27.16).
func TestErrorTexts(t *testing.T) {
	p := pod("p1").on("n1").req("100m", "").obj()
	p2 := pod("p1").on("n2").obj()
	steps := []step{
		{"AssumePod", assume(p)}, {"AssumePod again", assume(p)}, {"UpdatePod of the assumed pod", update(p, p)},
		{"ForgetPod on another node", forget(p2)}, {"AddPod", add(p)}, {"AddPod again", add(p)},
		{"GetPod of an unknown pod", get(pod("x").obj())},
	}
	runVersionCases(t, steps, []versionCase{
		{version: "v1.18", source: "v1.18.20 cache.go", errs: []string{"",
			"pod p1 is in the cache, so can't be assumed",
			"pod p1 is not added to scheduler cache, so cannot be updated",
			"pod p1 was assumed on n2 but assigned to n1", "",
			"pod p1 was already in added state",
			"pod x does not exist in scheduler cache"}},
		{version: "v1.26", source: "v1.26.15 cache.go", errs: []string{"",
			"pod p1(ns/p1) is in the cache, so can't be assumed",
			"pod p1(ns/p1) is not added to scheduler cache, so cannot be updated",
			"pod p1(ns/p1) was assumed on n2 but assigned to n1", "",
			"pod p1(ns/p1) was already in added state",
			"pod x(ns/x) does not exist in scheduler cache"}},
		{version: "v1.27", source: "v1.27.16 cache.go UpdatePod", errs: []string{"",
			"pod p1(ns/p1) is in the cache, so can't be assumed",
			"assumed pod p1(ns/p1) should not be updated",
			"pod p1(ns/p1) was assumed on n2 but assigned to n1", "",
			"pod p1(ns/p1) was already in added state",
			"pod x(ns/x) does not exist in scheduler cache"}},
	})
}

// TestEmptyUID: "Cannot get cache key…" up to v1.21 (v1.21.14
// framework/types.go GetPodKey), lower case from v1.22 (v1.22.17).
func TestEmptyUID(t *testing.T) {
	noUID := pod("x").uid("").on("n1").obj()
	runVersionCases(t, []step{{"AssumePod", assume(noUID)}}, []versionCase{
		{version: "v1.21", source: "v1.21.14 GetPodKey", errs: []string{"Cannot get cache key for pod with empty UID"}, nodes: map[string]nodeSummary{}},
		{version: "v1.22", source: "v1.22.17 GetPodKey", errs: []string{"cannot get cache key for pod with empty UID"}, nodes: map[string]nodeSummary{}},
	})
}

// TestRemoveStaleTombstone: RemovePod with an object without spec.nodeName.
func TestRemoveStaleTombstone(t *testing.T) {
	p := pod("p1").on("n1").req("100m", "").obj()
	steps := []step{{"AddPod", add(p)}, {"RemovePod without node", remove(pod("p1").obj())}}
	runVersionCases(t, steps, []versionCase{
		{version: "v1.19", source: "v1.19.16 cache.go RemovePod: any node mismatch is fatal",
			errs:  []string{"", `pod p1 was added to "n1" but removed from "": scheduler cache is corrupted, kube-scheduler would exit`},
			nodes: map[string]nodeSummary{"n1": cpuNode(100, "p1")}},
		{version: "v1.20", source: "v1.20.15 cache.go RemovePod: an empty NodeName is tolerated",
			errs: []string{"", ""}, nodes: map[string]nodeSummary{}},
	})
}

// TestAddAssumedSameNode: the Add event of an assumed pod brings an object
// that requests more than the assumed one. Up to v1.25 the NodeInfo keeps
// the assumed object (v1.25.16 cache.go AddPod: same node only clears the
// assumed flag and replaces podStates' pod), and the later RemovePod, which
// passes the cached (new) object, subtracts what that object requests
// (framework/types.go RemovePod → calculateResource(pod)): the node ends at
// -200m. From v1.26 AddPod re-adds the new object (v1.26.15, #110279).
func TestAddAssumedSameNode(t *testing.T) {
	assumed := pod("p1").on("n1").req("100m", "").obj()
	added := pod("p1").on("n1").req("300m", "").obj()
	steps := []step{{"AssumePod", assume(assumed)}, {"AddPod", add(added)}}
	runVersionCases(t, steps, []versionCase{
		{version: "v1.18", source: "v1.18.20 cache.go AddPod", errs: []string{"", ""}, nodes: map[string]nodeSummary{"n1": cpuNode(100, "p1")}},
		{version: "v1.25", source: "v1.25.16 cache.go AddPod", errs: []string{"", ""}, nodes: map[string]nodeSummary{"n1": cpuNode(100, "p1")}},
		{version: "v1.26", source: "v1.26.15 cache.go AddPod", errs: []string{"", ""}, nodes: map[string]nodeSummary{"n1": cpuNode(300, "p1")}},
	})
	steps = append(steps, step{"RemovePod", remove(added)})
	runVersionCases(t, steps, []versionCase{
		{version: "v1.18", source: "v1.18.20 node_info.go RemovePod recomputes from the argument", errs: []string{"", "", ""},
			nodes: map[string]nodeSummary{}},
		{version: "v1.26", source: "v1.26.15", errs: []string{"", "", ""}, nodes: map[string]nodeSummary{}},
	})
}

// TestAddAssumedSameNodeDrift shows the -200m the v1.25 cache is left with
// on a node that has a node object (a placeholder would be deleted).
func TestAddAssumedSameNodeDrift(t *testing.T) {
	for _, tc := range []struct {
		version string
		cpu     int64
	}{{"v1.25", -200}, {"v1.26", 0}} {
		c := newVersionCache(t, tc.version, 0, nil)
		c.AddNode(node("n1"))
		mustNil(t, c.AssumePod(pod("p1").on("n1").req("100m", "").obj()))
		mustNil(t, c.AddPod(pod("p1").on("n1").req("300m", "").obj()))
		mustNil(t, c.RemovePod(pod("p1").on("n1").req("300m", "").obj()))
		if got := c.Dump().Nodes["n1"].Requested.MilliCPU; got != tc.cpu {
			t.Errorf("%s: n1 requested %dm after assume 100m, add 300m, remove; want %dm", tc.version, got, tc.cpu)
		}
	}
}

// TestRemovalRecomputes: UpdatePod's old object is the informer's, which
// may differ from what the cache accounted. Up to v1.32 removal subtracts
// what the old object requests (v1.32.13 framework/types.go NodeInfo.update
// → calculateResource(pod)); from v1.33 what the cached PodInfo added
// (v1.33.13 PodInfo.cachedResource, #129635).
func TestRemovalRecomputes(t *testing.T) {
	cached := pod("p1").on("n1").req("100m", "").obj()
	stale := pod("p1").on("n1").req("200m", "").obj()
	updated := pod("p1").on("n1").req("300m", "").obj()
	for _, tc := range []struct {
		version string
		cpu     int64
	}{{"v1.18", 200}, {"v1.32", 200}, {"v1.33", 300}, {"v1.36", 300}} {
		c := newVersionCache(t, tc.version, 0, nil)
		c.AddNode(node("n1"))
		mustNil(t, c.AddPod(cached))
		mustNil(t, c.UpdatePod(stale, updated))
		if got := c.Dump().Nodes["n1"].Requested.MilliCPU; got != tc.cpu {
			t.Errorf("%s: requested %dm after add 100m, update from a 200m object to 300m; want %dm", tc.version, got, tc.cpu)
		}
	}
}

// TestDefaultTTLByVersion: the TTL each version passes to its cache
// (K/pkg/scheduler/scheduler.go) and whether expiry exists.
func TestDefaultTTLByVersion(t *testing.T) {
	tests := []struct {
		v      string
		ttl    time.Duration
		expiry bool
	}{
		{"v1.18.20", 30 * time.Second, true}, {"1.19", 30 * time.Second, true}, {"v1.20.0", 30 * time.Second, true},
		{"v1.20.13", 30 * time.Second, true}, {"v1.20.14", 2 * time.Minute, true}, {"v1.20.15", 2 * time.Minute, true},
		{"v1.21.7", 30 * time.Second, true}, {"v1.21.8", 2 * time.Minute, true}, {"v1.21.14", 2 * time.Minute, true},
		{"v1.22.4", 30 * time.Second, true}, {"v1.22.5", 2 * time.Minute, true}, {"v1.22.17", 2 * time.Minute, true},
		{"v1.23.0", 15 * time.Minute, true}, {"v1.24.17", 15 * time.Minute, true}, {"v1.25.0", 0, true},
		{"v1.35.2", 0, true}, {"v1.36.3", 0, false},
	}
	for _, tc := range tests {
		ver, err := ParseVersion(tc.v)
		mustNil(t, err)
		b := BehaviorFor(ver)
		if b.DefaultTTL != tc.ttl || b.Expiry != tc.expiry {
			t.Errorf("%s: TTL %v, expiry %v; want %v, %v", tc.v, b.DefaultTTL, b.Expiry, tc.ttl, tc.expiry)
		}
	}
}

// TestParseVersion: accepted forms and one-line errors naming the range.
func TestParseVersion(t *testing.T) {
	good := map[string]Version{
		"v1.18": {Minor: 18}, "1.36": {Minor: 36}, "v1.22.5": {Minor: 22, Patch: 5, PatchGiven: true},
		"v1.30.2-gke.1587003": {Minor: 30, Patch: 2, PatchGiven: true}, "v1.27.3+k3s1": {Minor: 27, Patch: 3, PatchGiven: true},
		" v1.20 ": {Minor: 20}, //nolint:gocritic // mapKey: the spaces are the point, ParseVersion trims them
	}
	for s, want := range good {
		got, err := ParseVersion(s)
		if err != nil || got != want {
			t.Errorf("ParseVersion(%q) = %+v, %v; want %+v", s, got, err, want)
		}
	}
	bad := map[string]string{
		"v1.17":   `unsupported Kubernetes version "v1.17": kubectl-schedcache models kube-scheduler v1.18 to v1.36`,
		"v1.37.0": `unsupported Kubernetes version "v1.37.0": kubectl-schedcache models kube-scheduler v1.18 to v1.36`,
		"v2.0":    `unsupported Kubernetes version "v2.0": kubectl-schedcache models kube-scheduler v1.18 to v1.36`,
		"latest":  `invalid Kubernetes version "latest": want v1.MINOR or v1.MINOR.PATCH, from v1.18 to v1.36`,
		"1.18abc": `invalid Kubernetes version "1.18abc": want v1.MINOR or v1.MINOR.PATCH, from v1.18 to v1.36`,
		"v1":      `invalid Kubernetes version "v1": want v1.MINOR or v1.MINOR.PATCH, from v1.18 to v1.36`,
		"":        `invalid Kubernetes version "": want v1.MINOR or v1.MINOR.PATCH, from v1.18 to v1.36`,
	}
	for s, want := range bad {
		if _, err := ParseVersion(s); err == nil || err.Error() != want {
			t.Errorf("ParseVersion(%q) error %v, want %q", s, err, want)
		}
	}
}
