package cmd

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/fakeapi"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

const versionsCluster = "testdata/clusters/versions.yaml"

// nodeView is what TestKubeVersionDrivesDump compares per node.
type nodeView struct {
	CPU, NZCPU, NZMem int64
	Ports             []string
	PVCs              map[string]int
	ImageNumNodes     int
	PodHostPorts      []string
}

func dumpAt(t *testing.T, args ...string) map[string]nodeView {
	t.Helper()
	r := run(t, "", append([]string{"dump", "-f", versionsCluster, "-o", "json"}, args...)...)
	if r.code != 0 {
		t.Fatalf("dump %v: exit %d: %s", args, r.code, r.stderr)
	}
	var d v1alpha1.CacheDump
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
		t.Fatal(err)
	}
	out := map[string]nodeView{}
	for _, n := range d.Nodes {
		out[n.Name] = nodeView{CPU: n.Requested.MilliCPU, NZCPU: n.NonZeroRequested.MilliCPU, NZMem: n.NonZeroRequested.Memory,
			Ports: n.UsedPorts, PVCs: n.PVCRefCounts, ImageNumNodes: n.ImageStates[0].NumNodes, PodHostPorts: n.Pods[0].HostPorts}
	}
	return out
}

// TestKubeVersionDrivesDump: the same files dumped as three versions, each
// expectation computed by hand from testdata/clusters/versions.yaml:
//
//   - n-1, sidecar 100m (host port 81) + app 200m (host port 80), no memory.
//     v1.18 (K v1.18.20 node_info.go calculateResource): the sidecar is an
//     init container, max(200, 100) = 200m; NonZero 200m / 200Mi; ports of
//     regular containers only. v1.28 (K v1.28.15 pkg/api/v1/resource
//     PodRequests): 200 + 100 = 300m, NonZero leaves the sidecar out of the
//     container sum: max(200, 100) = 200m / 200Mi. v1.36: 300m, NonZero per
//     container 300m / 400Mi, and the sidecar's port 81 is used (v1.33+).
//   - n-2, app 100m, overhead 250m/120Mi, PVC data: 350m, NonZero 350m /
//     320Mi in every version; PVC counts from v1.22.
//   - img:1 on both nodes: up to v1.28 n-1's count was fixed when n-1 was
//     added, before n-2 (1); v1.29+ count at clone time (2).
func TestKubeVersionDrivesDump(t *testing.T) {
	const mi = 1024 * 1024
	n2 := func(pvcs map[string]int, images int) nodeView {
		return nodeView{CPU: 350, NZCPU: 350, NZMem: 320 * mi, PVCs: pvcs, ImageNumNodes: images}
	}
	port80, both := []string{"0.0.0.0/TCP/80"}, []string{"0.0.0.0/TCP/80", "0.0.0.0/TCP/81"}
	// A pod's own ports are listed sidecars first (util.GetHostPorts order).
	podPorts := []string{"0.0.0.0/TCP/81", "0.0.0.0/TCP/80"}
	tests := map[string]map[string]nodeView{
		"v1.18": {"n-1": {CPU: 200, NZCPU: 200, NZMem: 200 * mi, Ports: port80, ImageNumNodes: 1, PodHostPorts: port80}, "n-2": n2(nil, 2)},
		"v1.28": {"n-1": {CPU: 300, NZCPU: 200, NZMem: 200 * mi, Ports: port80, ImageNumNodes: 1, PodHostPorts: port80}, "n-2": n2(map[string]int{"ns/data": 1}, 2)},
		"v1.36": {"n-1": {CPU: 300, NZCPU: 300, NZMem: 400 * mi, Ports: both, ImageNumNodes: 2, PodHostPorts: podPorts}, "n-2": n2(map[string]int{"ns/data": 1}, 2)},
	}
	for version, want := range tests {
		if diff := cmp.Diff(want, dumpAt(t, "--kube-version", version)); diff != "" {
			t.Errorf("%s (-want,+got):\n%s", version, diff)
		}
	}
	if diff := cmp.Diff(tests["v1.36"], dumpAt(t)); diff != "" {
		t.Errorf("files without --kube-version are not v1.36 (-want,+got):\n%s", diff)
	}
	// --feature-gates: v1.18 without PodOverhead leaves n-2 at its 100m.
	if got := dumpAt(t, "--kube-version", "v1.18", "--feature-gates", "PodOverhead=false")["n-2"]; got.CPU != 100 || got.NZMem != 200*mi {
		t.Errorf("v1.18 PodOverhead=false: n-2 %+v, want 100m and NonZero memory 200Mi", got)
	}
}

// TestKubeVersionDrivesSnapshotAndRequested: the used-PVC set exists from
// v1.25 (null before), and requested --pod shows the pod's requests as the
// version computes them.
func TestKubeVersionDrivesSnapshotAndRequested(t *testing.T) {
	for version, want := range map[string]string{"v1.24": "null", "v1.25": `["ns/data"]`} {
		r := run(t, "", "snapshot", "-f", versionsCluster, "--kube-version", version, "-o", "jsonpath={.usedPVCSet}")
		if r.code != 0 || r.stdout != want {
			t.Errorf("%s: usedPVCSet %q (exit %d), want %s", version, r.stdout, r.code, want)
		}
	}
	if r := run(t, "", "snapshot", "-f", versionsCluster, "--kube-version", "v1.24"); !strings.Contains(r.stdout, "Used PVCs: not kept by this kube-scheduler version (v1.25+)") {
		t.Errorf("v1.24 snapshot table:\n%s", r.stdout)
	}
	// The sidecar pod of n-1 checked against the cluster: it requests 200m
	// at v1.27 (the sidecar is an init container), 300m from v1.28. The rows
	// count it the same way.
	for version, want := range map[string]string{"v1.27": "200 200", "v1.28": "300 300"} {
		r := run(t, "", "requested", "-f", versionsCluster, "--kube-version", version, "--pod", "ns/sidecar",
			"-o", `jsonpath={.pod.requested.milliCPU} {.nodes[?(@.name=="n-1")].requested.milliCPU}`)
		if r.code != 0 || r.stdout != want {
			t.Errorf("%s: the sidecar pod and n-1 request %q (exit %d), want %s", version, r.stdout, r.code, want)
		}
	}
}

// TestNextNodesSameOrderEveryVersion: v1.18's Next() and v1.20+'s List()
// give the same round-robin, so next-nodes prints the same for both.
func TestNextNodesSameOrderEveryVersion(t *testing.T) {
	old := run(t, "", "next-nodes", "-f", fixture("zones"), "--count", "10", "--kube-version", "v1.18")
	if old.code != 0 {
		t.Fatal(old.stderr)
	}
	checkGolden(t, "zones-next-nodes.txt", old.stdout)
}

// TestBadKubeVersion: every data command refuses a version outside
// v1.18–v1.36 and malformed ones, in one line naming the range, exit 2.
func TestBadKubeVersion(t *testing.T) {
	for _, command := range []string{"dump", "snapshot", "requested", "next-nodes", "simulate"} {
		for value, want := range map[string]string{
			"v1.17":  `error: invalid --kube-version: unsupported Kubernetes version "v1.17": kubectl-schedcache models kube-scheduler v1.18 to v1.36`,
			"v2.0":   `error: invalid --kube-version: unsupported Kubernetes version "v2.0": kubectl-schedcache models kube-scheduler v1.18 to v1.36`,
			"latest": `error: invalid --kube-version: invalid Kubernetes version "latest": want v1.MINOR or v1.MINOR.PATCH, from v1.18 to v1.36`,
			"1.2x.3": `error: invalid --kube-version: invalid Kubernetes version "1.2x.3": want v1.MINOR or v1.MINOR.PATCH, from v1.18 to v1.36`,
		} {
			r := run(t, "", command, "-f", versionsCluster, "--pending", "--kube-version", value)
			if command != "simulate" {
				r = run(t, "", command, "-f", versionsCluster, "--kube-version", value)
			}
			if r.code != ExitUsage || r.stdout != "" || r.stderr != want+"\n" {
				t.Errorf("%s --kube-version %s: exit %d, stderr %q; want exit 2 and %q", command, value, r.code, r.stderr, want)
			}
		}
	}
}

// TestBadFeatureGates: unknown gates, gates the version lacks, locked
// gates set against their lock, missing dependencies and malformed values
// are usage errors naming the gates known at that version.
func TestBadFeatureGates(t *testing.T) {
	tests := []struct{ version, gates, want string }{
		{"v1.36", "Foo=true", `unrecognized feature gate: Foo (gates modelled for kube-scheduler v1.36: DRANodeAllocatableResources, InPlacePodLevelResourcesVerticalScaling, InPlacePodVerticalScaling, PodLevelResources)`},
		{"v1.30", "SidecarContainers=false", `unrecognized feature gate: SidecarContainers (gates modelled for kube-scheduler v1.30: InPlacePodVerticalScaling)`},
		{"v1.36", "InPlacePodVerticalScaling=false", `cannot set feature gate InPlacePodVerticalScaling to false, feature is locked to true`},
		{"v1.18", "InPlacePodVerticalScaling=true", `unrecognized feature gate: InPlacePodVerticalScaling (gates modelled for kube-scheduler v1.18: LocalStorageCapacityIsolation, PodOverhead)`},
		{"v1.30", "PodOverhead=true", `unrecognized feature gate: PodOverhead`},
		{"v1.24", "PodOverhead=false", `cannot set feature gate PodOverhead to false, feature is locked to true`},
		{"v1.36", "PodLevelResources=false", `InPlacePodLevelResourcesVerticalScaling is enabled, but depends on features that are disabled: [PodLevelResources]`},
		{"v1.28", "InPlacePodVerticalScaling", `missing bool value for InPlacePodVerticalScaling`},
		{"v1.28", "InPlacePodVerticalScaling=maybe", `invalid value of InPlacePodVerticalScaling=maybe`},
	}
	for _, tc := range tests {
		r := run(t, "", "dump", "-f", versionsCluster, "--kube-version", tc.version, "--feature-gates", tc.gates)
		want := `error: invalid --feature-gates "` + tc.gates + `": ` + tc.want
		if r.code != ExitUsage || !strings.HasPrefix(r.stderr, want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%s --feature-gates %s: exit %d, stderr %q; want exit 2 and one line starting %q", tc.version, tc.gates, r.code, r.stderr, want)
		}
	}
	// Files model v1.36 without --kube-version: its gates apply.
	if r := run(t, "", "dump", "-f", versionsCluster, "--feature-gates", "PodOverhead=false"); r.code != ExitUsage {
		t.Errorf("v1.36 PodOverhead=false: exit %d", r.code)
	}
	if r := run(t, "", "dump", "-f", versionsCluster, "--feature-gates", "PodLevelResources=false,InPlacePodLevelResourcesVerticalScaling=false"); r.code != 0 {
		t.Errorf("v1.36 gates off: exit %d: %s", r.code, r.stderr)
	}
}

// TestLiveDefaultVersion: against a live cluster the server's version is
// modelled; out of range it is clamped with a warning; unreadable, v1.36
// with a warning; and gates are checked against the server's version.
func TestLiveDefaultVersion(t *testing.T) {
	tests := []struct {
		name, server string
		gates        string
		cpu          int64 // n-1's requested cpu: 200 up to v1.27, 300 after
		warning      string
		code         int
	}{
		{name: "v1.19 server", server: "v1.19.16", cpu: 200},
		{name: "v1.30 server", server: "v1.30.2-gke.1587003", cpu: 300},
		{name: "too old", server: "v1.16.3", cpu: 200, warning: "warning: modelling kube-scheduler v1.18: the server's version v1.16.3 is outside v1.18 to v1.36; use --kube-version\n"},
		{name: "too new", server: "v1.40.0", cpu: 300, warning: "warning: modelling kube-scheduler v1.36: the server's version v1.40.0 is outside v1.18 to v1.36; use --kube-version\n"},
		{name: "unknown", server: "", cpu: 300, warning: "warning: modelling kube-scheduler v1.36: the server version is unknown (the server could not find the requested resource); use --kube-version\n"},
		{name: "gate of the server's version", server: "v1.19.16", gates: "PodLevelResources=true", code: ExitUsage},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakeapi.New(t, fakeClusterFrom(t, versionsCluster).Tracker(), tc.server)
			var out, errOut bytes.Buffer
			o := NewDumpOptions(genericiooptions.IOStreams{In: &bytes.Buffer{}, Out: &out, ErrOut: &errOut})
			o.Input.Version.FeatureGates = tc.gates
			*o.Output.PrintFlags.OutputFormat = "json"
			err := runLive(o, srv)
			if ExitCode(err) != tc.code {
				t.Fatalf("exit %d (%v), want %d", ExitCode(err), err, tc.code)
			}
			if err != nil {
				return
			}
			var d v1alpha1.CacheDump
			if err := json.Unmarshal(out.Bytes(), &d); err != nil {
				t.Fatal(err)
			}
			if got := d.Nodes[0].Requested.MilliCPU; d.Nodes[0].Name != "n-1" || got != tc.cpu {
				t.Errorf("n-1 requested %dm, want %dm", got, tc.cpu)
			}
			if errOut.String() != tc.warning {
				t.Errorf("stderr %q, want %q", errOut.String(), tc.warning)
			}
		})
	}
}
