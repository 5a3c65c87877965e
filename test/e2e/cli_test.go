//go:build e2e

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/yaml"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

// nodeWant is what the scheduler's cache must hold for one NodeInfo of the
// rich cluster (fixture_test.go), computed by hand from kube-scheduler
// v1.36.3 pkg/scheduler/framework/types.go (PodInfo.CalculateResource for
// requests, Resource.Add for allocatable). Mi = 1048576, Gi = 1073741824.
type nodeWant struct {
	zone        string
	placeholder bool
	pods        []string // namespace/name, sorted
	// Requested.
	cpu, mem, eph int64
	scalars       map[string]int64
	// NonZeroRequested.
	nzCPU, nzMem int64
	// Allocatable.
	allocCPU, allocMem, allocEph, allocPods int64
	allocScalars                            map[string]int64
}

const (
	alloc8Gi  = 8589934592  // 8 × 1073741824
	alloc50Gi = 53687091200 // 50 × 1073741824
)

var richWant = map[string]nodeWant{
	"node-01": {
		zone: "eu-west/eu-west-a",
		pods: []string{"team-a/big-init", "team-a/gpu", "team-a/sidecar"},
		// sidecar: max(app 200m + sidecar 100m, init 300m + sidecar 100m) = 400m, 200Mi
		// big-init: max(app 250m, init 1500m) = 1500m; max(256Mi, 1Gi) = 1Gi
		// gpu: 500m, 512Mi
		cpu: 2400,       // 400 + 1500 + 500
		mem: 1820327936, // 200Mi + 1024Mi + 512Mi = 1736Mi = 1736 × 1048576
		// gpu: limits example.com/gpu 2 and hugepages-2Mi 64Mi, defaulted into requests
		scalars:  map[string]int64{"example.com/gpu": 2, "hugepages-2Mi": 67108864}, // 64 × 1048576
		nzCPU:    2400,                                                              // every container has cpu and memory requests
		nzMem:    1820327936,
		allocCPU: 4000, allocMem: alloc8Gi, allocEph: alloc50Gi, allocPods: 110,
		allocScalars: map[string]int64{"example.com/gpu": 4, "hugepages-2Mi": 268435456}, // 256 × 1048576
	},
	"node-02": {
		zone: "eu-west/eu-west-a",
		pods: []string{"team-a/overhead", "team-a/pod-level", "team-a/ports"},
		// overhead: app 100m + RuntimeClass overhead 250m/120Mi = 350m, 120Mi
		// pod-level: pod-level cpu 1 replaces 100m + 200m; no memory anywhere = 1000m, 0
		// ports: app 50m + sidecar 50m = 100m vs init 10m + sidecar 50m = 60m → 100m;
		//        64Mi + 64Mi = 128Mi vs 16Mi + 64Mi → 128Mi
		cpu: 1450,      // 350 + 1000 + 100
		mem: 260046848, // 120Mi + 0 + 128Mi = 248Mi = 248 × 1048576
		// non-zero: overhead's app has no memory → 200Mi + 120Mi = 320Mi;
		// pod-level's two containers lack memory → 2 × 200Mi = 400Mi
		nzCPU:    1450,      // 350 + 1000 + 100
		nzMem:    889192448, // 320Mi + 400Mi + 128Mi = 848Mi = 848 × 1048576
		allocCPU: 4000, allocMem: alloc8Gi, allocEph: alloc50Gi, allocPods: 110,
		allocScalars: map[string]int64{"hugepages-2Mi": 0},
	},
	"node-03": {
		zone: "eu-west/eu-west-b",
		// succeeded and failed are terminal: not in the cache; terminating is.
		pods:     []string{"team-b/affinity", "team-b/anti", "team-b/pvc", "team-b/terminating"},
		cpu:      1300,       // pvc 300 + affinity 100 + anti 200 + terminating 700
		mem:      2013265920, // 1024Mi + 128Mi + 256Mi + 512Mi = 1920Mi = 1920 × 1048576
		eph:      2147483648, // pvc's 2Gi
		nzCPU:    1300,
		nzMem:    2013265920,
		allocCPU: 4000, allocMem: alloc8Gi, allocEph: alloc50Gi, allocPods: 110,
	},
	"node-04": {
		zone: "eu-west/eu-west-a",
		pods: []string{"team-a/resize", "team-a/resize-infeasible"},
		// resize: max(spec 100m, actuated 300m, allocated 200m) = 300m; 128Mi
		// resize-infeasible (PodResizePending/Infeasible): max(actuated 150m,
		// allocated 250m) = 250m, spec 2 ignored; 256Mi
		cpu:      550,       // 300 + 250
		mem:      402653184, // 128Mi + 256Mi = 384Mi = 384 × 1048576
		nzCPU:    550,
		nzMem:    402653184,
		allocCPU: 4000, allocMem: alloc8Gi, allocEph: alloc50Gi, allocPods: 110,
	},
	"node-05": {
		zone: "eu-west/eu-west-c",
		pods: []string{"team-b/besteffort", "team-b/zero-cpu"},
		cpu:  0,
		mem:  67108864, // zero-cpu's 64Mi
		// besteffort: 100m, 200Mi (both missing); zero-cpu: explicit cpu 0 stays 0
		nzCPU:    100,
		nzMem:    276824064,                                 // 200Mi + 64Mi = 264Mi = 264 × 1048576
		allocCPU: 2000, allocMem: 4294967296, allocPods: 20, // 4 × 1073741824
	},
	"node-06": {
		zone:     "legacy-region/legacy-zone",
		pods:     []string{"team-b/legacy", "team-b/other-scheduler"},
		cpu:      1250,       // 1000 + 250 (any schedulerName counts)
		mem:      3221225472, // 2Gi + 1Gi = 3 × 1073741824
		nzCPU:    1250,
		nzMem:    3221225472,
		allocCPU: 8000, allocMem: 17179869184, allocEph: 107374182400, allocPods: 110, // 16Gi, 100Gi
	},
	"node-07": {
		zone:     "",
		pods:     []string{},
		allocCPU: 1000, allocMem: 1073741824, allocPods: 10,
	},
	"node-08": {
		zone:     "eu-west/eu-west-b",
		pods:     []string{"team-b/reader"},
		cpu:      100,
		mem:      104857600, // 100 × 1048576
		nzCPU:    100,
		nzMem:    104857600,
		allocCPU: 4000, allocMem: alloc8Gi, allocEph: alloc50Gi, allocPods: 110,
		allocScalars: map[string]int64{"example.com/gpu": 1},
	},
	missingNode: {
		placeholder: true,
		pods:        []string{"team-a/orphan"},
		cpu:         100,
		mem:         67108864, // 64Mi
		nzCPU:       100,
		nzMem:       67108864,
	},
}

// richNextOrder is the v1.18 NodeTree.Next() order, which is also the v1.20+
// list() order for one pass: zones in first-seen order a, b, c, legacy, ""
// holding a:[01 02 04] b:[03 08] c:[05] legacy:[06] "":[07], one node per
// zone per round: round 0 → 01 03 05 06 07, round 1 → 02 08, round 2 → 04.
var richNextOrder = []string{"node-01", "node-03", "node-05", "node-06", "node-07", "node-02", "node-08", "node-04"}

// TestCLIOnRealCluster loads the rich cluster into a real apiserver and runs
// the built plugin as the read-only "reader" user against it.
func TestCLIOnRealCluster(t *testing.T) {
	t.Parallel() // each test starts its own cluster; make e2e sets -parallel
	if testing.Short() {
		t.Skip("e2e: starts a real control plane; skipped with -short")
	}
	c := startRichCluster(t, framework.Options{})
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	checkOverheadNeedsRuntimeClass(ctx, t, c)
	kc := "--kubeconfig=" + c.Kubeconfig(framework.UserReader)

	t.Run("dump-json", func(t *testing.T) {
		d := decodeKind[v1alpha1.CacheDump](t, "CacheDump", mustRun(t, "dump", kc, "-o", "json"))
		if want := "cluster " + c.Server; d.Source != want {
			t.Errorf("source %q, want %q", d.Source, want)
		}
		wantSummary := v1alpha1.DumpSummary{
			Nodes:        9,  // 8 nodes + the node-gone placeholder
			Placeholders: 1,  // node-gone
			Pods:         18, // 3+3+4+2+2+2+0+1 on nodes + 1 orphan; succeeded/failed left out
			PendingPods:  3,  // pending-1, nominated, pending-huge
		}
		if d.Summary != wantSummary {
			t.Errorf("summary %+v, want %+v", d.Summary, wantSummary)
		}
		var names []string
		for _, n := range d.Nodes {
			names = append(names, n.Name)
		}
		wantNames := []string{"node-01", "node-02", "node-03", "node-04", "node-05", "node-06", "node-07", "node-08", missingNode}
		if !slices.Equal(names, wantNames) {
			t.Fatalf("dump nodes %v, want %v (sorted by name)", names, wantNames)
		}
		for i := range d.Nodes {
			checkNodeDump(t, &d.Nodes[i], richWant[d.Nodes[i].Name])
		}
		checkRichDumpDetails(t, d)

		// -o yaml carries the same object.
		var fromYAML v1alpha1.CacheDump
		if err := yaml.Unmarshal([]byte(mustRun(t, "dump", kc, "-o", "yaml")), &fromYAML); err != nil {
			t.Fatalf("dump -o yaml: %v", err)
		}
		if !reflect.DeepEqual(&fromYAML, d) {
			t.Errorf("dump -o yaml and -o json decode differently")
		}
	})

	t.Run("dump-table", func(t *testing.T) {
		out := mustRun(t, "dump", kc)
		for name, wants := range map[string][]string{
			"node-01":   {"eu-west/eu-west-a", "3/110", "2400m/4 (60%)", "1.7Gi/8Gi (21%)"}, // 1736Mi ≈ 1.7Gi,
			"node-03":   {"eu-west/eu-west-b", "4/110", "1300m/4 (32%)", "1.9Gi/8Gi (23%)"}, // 1920Mi ≈ 1.9Gi,
			"node-06":   {"legacy-region/legacy-zone", "2/110", "1250m/8 (15%)", "3Gi/16Gi (18%)"},
			"node-07":   {"<none>", "0/10", "0/1 (0%)"},
			missingNode: {"<placeholder>", "1/0", "100m/0"},
		} {
			line := tableLine(t, out, name)
			for _, w := range wants {
				if !strings.Contains(line, w) {
					t.Errorf("dump row %q lacks %q", line, w)
				}
			}
		}
		if !strings.Contains(out, "9 nodes (1 placeholder), 18 pods, 0 assumed, 3 pending") {
			t.Errorf("dump summary line missing or wrong:\n%s", out)
		}
		for _, absent := range []string{"succeeded", "failed"} {
			if strings.Contains(out, absent) {
				t.Errorf("dump table mentions terminal pod %q:\n%s", absent, out)
			}
		}

		out = mustRun(t, "dump", kc, "--no-headers")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 9 || !strings.HasPrefix(lines[0], "node-01 ") || strings.Contains(out, "NAME") || strings.Contains(out, "pending") {
			t.Errorf("dump --no-headers: want just the 9 rows:\n%s", out)
		}
	})

	t.Run("dump-wide", func(t *testing.T) {
		out := mustRun(t, "dump", kc, "-o", "wide")
		header := strings.Fields(strings.SplitN(out, "\n", 2)[0])
		for _, col := range []string{"EPHEMERAL-STORAGE", "EXAMPLE.COM/GPU", "HUGEPAGES-2MI", "NON-ZERO-CPU", "NON-ZERO-MEMORY", "NOMINATED"} {
			if !slices.Contains(header, col) {
				t.Errorf("dump -o wide header %v lacks %s", header, col)
			}
		}
		if line := tableLine(t, out, "node-04"); !strings.Contains(line, "team-a/nominated") {
			t.Errorf("node-04 row does not show its nominated pod: %q", line)
		}
		// node-05: non-zero cpu 100m and memory 264Mi although nothing is requested.
		if line := tableLine(t, out, "node-05"); !strings.Contains(line, "100m") || !strings.Contains(line, "264Mi") {
			t.Errorf("node-05 row lacks non-zero 100m / 264Mi: %q", line)
		}
	})

	t.Run("dump-node", func(t *testing.T) {
		out := mustRun(t, "dump", kc, "--node", "node-03", "--node", "node-02")
		for _, w := range []string{
			"Name:", "node-03", "node-02",
			"Terminating",            // team-b/terminating stays, marked
			"team-b/data-a (1)",      // PVC ref counts
			"0.0.0.0/TCP/8081",       // sidecar host port
			"10.0.0.1/UDP/5353",      // host IP and protocol kept
			"Pods (4):", "Pods (3):", // node-03, node-02
			"ephemeral-storage=2Gi", // pvc's other resources
		} {
			if !strings.Contains(out, w) {
				t.Errorf("dump --node output lacks %q:\n%s", w, out)
			}
		}
		for _, absent := range []string{"succeeded", "failed", "8082", "pvc-scratch"} {
			if strings.Contains(out, absent) {
				t.Errorf("dump --node output mentions %q:\n%s", absent, out)
			}
		}
		r := runPlugin(t, nil, "dump", kc, "--node", "no-such-node")
		if r.code != 1 || !strings.Contains(r.stderr, "no-such-node") {
			t.Errorf("dump --node no-such-node: want exit 1 naming the node\n%v", r)
		}
	})

	t.Run("requested-json", func(t *testing.T) {
		rep := decodeKind[v1alpha1.RequestedReport](t, "RequestedReport", mustRun(t, "requested", kc, "-o", "json"))
		wantRes := []string{"cpu", "memory", "ephemeral-storage", "pods", "example.com/gpu", "hugepages-2Mi"}
		if !slices.Equal(rep.Resources, wantRes) {
			t.Errorf("resources %v, want %v", rep.Resources, wantRes)
		}
		if len(rep.Nodes) != len(richWant) {
			t.Fatalf("%d rows, want %d", len(rep.Nodes), len(richWant))
		}
		for _, row := range rep.Nodes {
			w, ok := richWant[row.Name]
			if !ok {
				t.Errorf("unexpected row %q", row.Name)
				continue
			}
			got := [6]int64{int64(row.Pods), row.Requested.MilliCPU, row.Requested.Memory, row.Requested.EphemeralStorage, row.NonZeroRequested.MilliCPU, row.NonZeroRequested.Memory}
			want := [6]int64{int64(len(w.pods)), w.cpu, w.mem, w.eph, w.nzCPU, w.nzMem}
			if got != want || row.Placeholder != w.placeholder {
				t.Errorf("row %s: pods/cpu/mem/eph/nzcpu/nzmem %v placeholder %v, want %v %v", row.Name, got, row.Placeholder, want, w.placeholder)
			}
			if row.Allocatable.MilliCPU != w.allocCPU || row.Allocatable.AllowedPodNumber != w.allocPods {
				t.Errorf("row %s: allocatable %+v, want cpu %d pods %d", row.Name, row.Allocatable, w.allocCPU, w.allocPods)
			}
		}
		total := rep.Total
		// 2400+1450+1300+550+0+1250+0+100+100
		if total.Requested.MilliCPU != 7150 || total.Pods != 18 ||
			// 1736+248+1920+384+64+3072+0+100+64 = 7588Mi = 7588 × 1048576
			total.Requested.Memory != 7956594688 ||
			// 4+4+4+4+2+8+1+4 cores
			total.Allocatable.MilliCPU != 31000 {
			t.Errorf("total row %+v, want cpu 7150m, memory 7956594688, 18 pods, allocatable cpu 31000m", total)
		}
	})

	t.Run("requested-table", func(t *testing.T) {
		// The default table: cpu, memory, pods and extended resources.
		def := strings.Fields(strings.SplitN(mustRun(t, "requested", kc), "\n", 2)[0])
		if want := []string{"NAME", "CPU", "MEMORY", "PODS", "EXAMPLE.COM/GPU"}; !slices.Equal(def, want) {
			t.Errorf("requested header %v, want %v", def, want)
		}
		out := mustRun(t, "requested", kc, "-o", "wide")
		header := strings.Fields(strings.SplitN(out, "\n", 2)[0])
		for _, col := range []string{"NAME", "CPU", "CPU-FREE", "MEMORY", "PODS", "EXAMPLE.COM/GPU", "HUGEPAGES-2MI"} {
			if !slices.Contains(header, col) {
				t.Errorf("requested -o wide header %v lacks %s", header, col)
			}
		}
		for name, wants := range map[string][]string{
			"node-01": {"2400m/4 (60%)", "1600m", "2/4 (50%)", "64Mi/256Mi (25%)"}, // cpu free 4000-2400
			"node-02": {"1450m/4 (36%)", "2550m"},
			"node-04": {"550m/4 (13%)", "3450m"},
			"TOTAL":   {"7.15/31", "18/"}, // sums over nodes in cores
		} {
			line := tableLine(t, out, name)
			for _, w := range wants {
				if !strings.Contains(line, w) {
					t.Errorf("requested row %q lacks %q", line, w)
				}
			}
		}
		// The NAME cell stays one word; a line after the table names the
		// placeholders.
		if line := tableLine(t, out, missingNode); !strings.HasPrefix(line, missingNode+" ") {
			t.Errorf("placeholder row: %q", line)
		}
		if want := "\nplaceholder (pods bound to a node that does not exist): " + missingNode + "\n"; !strings.Contains(out, want) {
			t.Errorf("requested table does not name the placeholder (%q):\n%s", want, out)
		}
	})

	t.Run("requested-selector-sort", func(t *testing.T) {
		rep := decodeKind[v1alpha1.RequestedReport](t, "RequestedReport",
			mustRun(t, "requested", kc, "-l", "topology.kubernetes.io/zone=eu-west-a", "-o", "json"))
		if got := rowNames(rep); !slices.Equal(got, []string{"node-01", "node-02", "node-04"}) {
			t.Errorf("-l zone=eu-west-a rows %v, want node-01 node-02 node-04", got)
		}
		rep = decodeKind[v1alpha1.RequestedReport](t, "RequestedReport", mustRun(t, "requested", kc, "--sort-by", "cpu", "-o", "json"))
		// cpu 2400, 1450, 1300, 1250, 550, 100 (ties by name: node-08 < node-gone), 0, 0
		want := []string{"node-01", "node-02", "node-03", "node-06", "node-04", "node-08", missingNode, "node-05", "node-07"}
		if got := rowNames(rep); !slices.Equal(got, want) {
			t.Errorf("--sort-by cpu rows %v, want %v", got, want)
		}
	})

	t.Run("namespace", func(t *testing.T) {
		// -n team-a lists team-a's 9 bound pods (3 on node-01, 3 on
		// node-02, 2 on node-04, the orphan); the summary counts all 18.
		d := decodeKind[v1alpha1.CacheDump](t, "CacheDump", mustRun(t, "dump", kc, "-n", "team-a", "-o", "json"))
		listed := 0
		for _, n := range d.Nodes {
			for _, p := range n.Pods {
				listed++
				if p.Namespace != "team-a" {
					t.Errorf("dump -n team-a lists %s/%s", p.Namespace, p.Name)
				}
			}
		}
		if listed != 9 || d.Summary.Pods != 18 {
			t.Errorf("dump -n team-a: %d pods listed, summary %d; want 9 and 18", listed, d.Summary.Pods)
		}
		r := runPlugin(t, nil, "dump", kc, "-n", "no-such-namespace")
		if r.code != 0 || !strings.Contains(r.stderr, "No resources found in no-such-namespace namespace.\n") {
			t.Errorf("dump -n no-such-namespace: %v", r)
		}
		r = runPlugin(t, nil, "requested", kc, "-l", "no-such-label=x")
		if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "No resources found\n") {
			t.Errorf("requested -l no-such-label=x: %v", r)
		}
		r = runPlugin(t, nil, "dump", kc, "-n", "team-a", "-A")
		if r.code != 2 || !strings.Contains(r.stderr, "cannot be used together") {
			t.Errorf("dump -n team-a -A: %v", r)
		}
		// Completion from the live cluster: its namespaces (the admin may
		// list them), node names, pending pods.
		admin := "--kubeconfig=" + c.Kubeconfig(framework.UserAdmin)
		out := mustRun(t, "__complete", "dump", admin, "-n", "team-")
		if out != "team-a\nteam-b\n:4\n" {
			t.Errorf("__complete dump -n team-: %q", out)
		}
		out = mustRun(t, "__complete", "dump", admin, "--node", "node-0")
		if !strings.HasPrefix(out, "node-01\nnode-02\n") || !strings.HasSuffix(out, "node-08\n:4\n") {
			t.Errorf("__complete dump --node node-0: %q", out)
		}
	})

	t.Run("requested-pod", func(t *testing.T) {
		// pending-1 asks 3 cpu / 1Gi: free cpu is 1600m, 2550m, 2700m, 3450m,
		// 2000m, 6750m, 1000m, 3900m on node-01..08. node-04 would do, but
		// team-a/nominated (priority 100, pending-1's is 50) is nominated
		// there and counts in the first filter pass: 3450m − 500m < 3000m.
		// So kube-scheduler's filters pass on node-06 and node-08 only; the
		// placeholder is never a candidate.
		r := runPlugin(t, nil, "requested", kc, "--pod", nsA+"/pending-1", "-o", "json")
		if r.code != 0 {
			t.Fatalf("requested --pod pending-1: want exit 0 (fits)\n%v", r)
		}
		rep := decodeKind[v1alpha1.RequestedReport](t, "RequestedReport", r.stdout)
		if rep.Pod == nil || rep.Pod.FitsNodes != 2 || rep.Pod.Requested.MilliCPU != 3000 || rep.Pod.Requested.Memory != 1073741824 {
			t.Fatalf("fit pod %+v, want 3000m / 1073741824 fitting 2 nodes", rep.Pod)
		}
		var fits []string
		for _, row := range rep.Nodes {
			if row.Fit == nil {
				t.Errorf("row %s has no fit verdict", row.Name)
				continue
			}
			if row.Fit.Fits {
				fits = append(fits, row.Name)
			}
			for _, name := range []string{"node-01", "node-04"} {
				if row.Name == name && (row.Fit.Plugin != "NodeResourcesFit" || !slices.Equal(row.Fit.Reasons, []string{"Insufficient cpu"})) {
					t.Errorf("%s fit %+v, want NodeResourcesFit: Insufficient cpu", name, row.Fit)
				}
			}
		}
		if !slices.Equal(fits, []string{"node-06", "node-08"}) {
			t.Errorf("pending-1 fits %v, want node-06 node-08", fits)
		}
		// The summary counts real nodes only: the placeholder is not one.
		if !strings.Contains(r.stderr, "filters on 2 of 8 nodes") {
			t.Errorf("fit summary missing from stderr:\n%s", r.stderr)
		}

		// NAME alone is looked up in -n's namespace, else the context's
		// ("default" in the reader kubeconfig), where it does not exist: with
		// --pod every error exits 2.
		rep = decodeKind[v1alpha1.RequestedReport](t, "RequestedReport", mustRun(t, "requested", kc, "--pod", "pending-1", "-n", nsA, "-o", "json"))
		if rep.Pod == nil || rep.Pod.Namespace != nsA || rep.Pod.FitsNodes != 2 {
			t.Errorf("--pod pending-1 -n team-a: %+v", rep.Pod)
		}
		r = runPlugin(t, nil, "requested", kc, "--pod", "pending-1")
		if r.code != 2 || !strings.Contains(r.stderr, "default/pending-1") {
			t.Errorf("--pod pending-1 without -n: want exit 2 naming default/pending-1\n%v", r)
		}

		// A manifest asking 3500m / 1Gi fits node-06 (6750m free) and
		// node-08 (3900m), not node-04 (3450m).
		podFile := filepath.Join(t.TempDir(), "pod.yaml")
		manifest := `apiVersion: v1
kind: Pod
metadata: {name: candidate, namespace: team-c}
spec:
  containers:
  - name: app
    image: registry.k8s.io/pause:3.10
    resources: {requests: {cpu: 3500m, memory: 1Gi}}
`
		if err := os.WriteFile(podFile, []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
		rep = decodeKind[v1alpha1.RequestedReport](t, "RequestedReport", mustRun(t, "requested", kc, "--pod-file", podFile, "-o", "json"))
		fits = nil
		for _, row := range rep.Nodes {
			if row.Fit != nil && row.Fit.Fits {
				fits = append(fits, row.Name)
			}
		}
		if rep.Pod == nil || rep.Pod.Name != "candidate" || rep.Pod.Requested.MilliCPU != 3500 || !slices.Equal(fits, []string{"node-06", "node-08"}) {
			t.Errorf("--pod-file: pod %+v fits %v, want 3500m fitting node-06 node-08", rep.Pod, fits)
		}

		r = runPlugin(t, nil, "requested", kc, "--pod", nsA+"/pending-huge")
		if r.code != 1 || !strings.Contains(r.stderr, "filters on 0 of 8 nodes") {
			t.Errorf("requested --pod pending-huge (64 cpu): want exit 1 and \"filters on 0 of 8 nodes\"\n%v", r)
		}
		if line := tableLine(t, r.stdout, "node-06"); !strings.Contains(line, "no: NodeResourcesFit: Insufficient cpu") {
			t.Errorf("node-06 FITS cell for pending-huge: %q", line)
		}
	})

	t.Run("next-nodes", func(t *testing.T) {
		o := decodeKind[v1alpha1.NodeOrder](t, "NodeOrder", mustRun(t, "next-nodes", kc, "--count", "10", "-o", "json"))
		if o.NumNodes != 8 {
			t.Errorf("numNodes %d, want 8 (the placeholder is not in the NodeTree)", o.NumNodes)
		}
		var got []string
		var rounds []int
		for i, s := range o.Order {
			got = append(got, s.Node)
			rounds = append(rounds, s.Round)
			if s.Index != i+1 {
				t.Errorf("slot %d has index %d", i, s.Index)
			}
			if w := richWant[s.Node]; s.Zone != w.zone {
				t.Errorf("slot %d node %s zone %q, want %q", s.Index, s.Node, s.Zone, w.zone)
			}
		}
		// The 9th and 10th calls wrap around: every zone is exhausted, the
		// cursors reset and round 2 starts with node-01, node-03.
		want := append(slices.Clone(richNextOrder), "node-01", "node-03")
		if !slices.Equal(got, want) {
			t.Errorf("next-nodes --count 10 order %v, want %v", got, want)
		}
		if wantRounds := []int{1, 1, 1, 1, 1, 1, 1, 1, 2, 2}; !slices.Equal(rounds, wantRounds) {
			t.Errorf("rounds %v, want %v", rounds, wantRounds)
		}

		out := mustRun(t, "next-nodes", kc)
		var tableOrder []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
			if f := strings.Fields(line); len(f) >= 2 {
				tableOrder = append(tableOrder, f[1])
			}
		}
		if !slices.Equal(tableOrder, richNextOrder) {
			t.Errorf("next-nodes table order %v, want %v:\n%s", tableOrder, richNextOrder, out)
		}
		if line := tableLine(t, out, "7"); !strings.Contains(line, "node-08") || !strings.Contains(line, "eu-west/eu-west-b") {
			t.Errorf("7th Next() should be node-08 in eu-west/eu-west-b: %q", line)
		}

		// 8 nodes < 100: every cycle examines all 8 from the moving start
		// index, which wraps back to 0.
		o = decodeKind[v1alpha1.NodeOrder](t, "NodeOrder", mustRun(t, "next-nodes", kc, "--cycles", "2", "-o", "json"))
		if len(o.Cycles) != 2 {
			t.Fatalf("--cycles 2 gave %d cycles", len(o.Cycles))
		}
		for _, cy := range o.Cycles {
			if cy.NumToFind != 8 || cy.StartIndex != 0 || !slices.Equal(cy.Nodes, richNextOrder) {
				t.Errorf("cycle %+v, want start 0, numToFind 8, nodes %v", cy, richNextOrder)
			}
		}
		out = mustRun(t, "next-nodes", kc, "--cycles", "2", "--percentage-of-nodes-to-score", "10")
		if line := tableLine(t, out, "2"); !strings.Contains(line, "8/8") {
			t.Errorf("cycle 2 row should examine 8/8 nodes: %q", line)
		}
	})

	t.Run("snapshot", func(t *testing.T) {
		s := decodeKind[v1alpha1.Snapshot](t, "Snapshot", mustRun(t, "snapshot", kc, "-o", "json"))
		var names []string
		var maxGen int64
		for _, n := range s.Nodes {
			names = append(names, n.Name)
			if w := richWant[n.Name]; n.Pods != len(w.pods) || n.Zone != w.zone {
				t.Errorf("snapshot node %s: %d pods zone %q, want %d %q", n.Name, n.Pods, n.Zone, len(w.pods), w.zone)
			}
			maxGen = max(maxGen, n.Generation)
		}
		if !slices.Equal(names, richNextOrder) {
			t.Errorf("snapshot order %v, want %v (NodeTree list order, no placeholder)", names, richNextOrder)
		}
		// The snapshot's generation is the most recently changed NodeInfo's:
		// the last pod added in list order, team-b/zero-cpu, went to node-05.
		var last int64
		for _, n := range s.Nodes {
			if n.Name == "node-05" {
				last = n.Generation
			}
		}
		if s.Generation != last || last != maxGen {
			t.Errorf("snapshot generation %d, want node-05's %d, the newest (%d)", s.Generation, last, maxGen)
		}
		if !slices.Equal(s.HavePodsWithAffinity, []string{"node-03"}) || !slices.Equal(s.HavePodsWithRequiredAntiAffinity, []string{"node-03"}) {
			t.Errorf("affinity lists %v / %v, want [node-03] / [node-03]", s.HavePodsWithAffinity, s.HavePodsWithRequiredAntiAffinity)
		}
		// data-a is used on node-03 and node-08 (a set: once); the generic
		// ephemeral volume's claim is not a persistentVolumeClaim volume.
		if want := []string{"team-b/data-a", "team-b/data-b"}; !slices.Equal(s.UsedPVCSet, want) {
			t.Errorf("usedPVCSet %v, want %v", s.UsedPVCSet, want)
		}

		if out := mustRun(t, "snapshot", kc, "-o", "jsonpath={.nodes[*].name}"); strings.TrimSpace(out) != strings.Join(richNextOrder, " ") {
			t.Errorf("snapshot -o jsonpath: %q, want %q", out, strings.Join(richNextOrder, " "))
		}

		if out := mustRun(t, "snapshot", kc); !strings.Contains(out, "\nUsed PVCs: 2 (-o wide lists them)\n") {
			t.Errorf("snapshot table lacks the used PVC count:\n%s", out)
		}
		out := mustRun(t, "snapshot", kc, "-o", "wide")
		for _, w := range []string{"Generation:", "\nUsed PVCs (2):\n  team-b/data-a\n  team-b/data-b\n"} {
			if !strings.Contains(out, w) {
				t.Errorf("snapshot table lacks %q:\n%s", w, out)
			}
		}
		if strings.Contains(out, missingNode) {
			t.Errorf("snapshot table lists the placeholder:\n%s", out)
		}
		if line := tableLine(t, out, "2"); !strings.Contains(line, "node-03") || strings.Count(line, "yes") != 2 {
			t.Errorf("2nd snapshot row should be node-03 with both affinity columns yes: %q", line)
		}
	})

	// simulate: simulate_test.go. Placement lists the kinds the scheduler's
	// plugins read, which the reader may not: the decider may.
	checkSimulate(ctx, t, c, "--kubeconfig="+c.Kubeconfig(framework.UserDecider))

	t.Run("version", func(t *testing.T) {
		out := mustRun(t, "version")
		// The built plugin's build info names the linked libraries (a unit
		// test binary's does not).
		for _, w := range []string{"version: v", "commit: ", "go: go1.", "platform: ", "client-go: v0.36.", "kubernetes: v1.36."} {
			if !strings.Contains(out, w) {
				t.Errorf("version output lacks %q:\n%s", w, out)
			}
		}
	})
}

func rowNames(r *v1alpha1.RequestedReport) []string {
	var out []string
	for _, n := range r.Nodes {
		out = append(out, n.Name)
	}
	return out
}

func checkNodeDump(t *testing.T, n *v1alpha1.NodeDump, w nodeWant) {
	t.Helper()
	var pods []string
	for _, p := range n.Pods {
		pods = append(pods, p.Namespace+"/"+p.Name)
		if p.State != "Added" {
			t.Errorf("%s: pod %s/%s state %q, want Added", n.Name, p.Namespace, p.Name, p.State)
		}
		if p.UID == "" {
			t.Errorf("%s: pod %s/%s has no uid", n.Name, p.Namespace, p.Name)
		}
	}
	if pods == nil {
		pods = []string{}
	}
	if !slices.Equal(pods, w.pods) {
		t.Errorf("%s: pods %v, want %v", n.Name, pods, w.pods)
	}
	if n.Zone != w.zone || n.Placeholder != w.placeholder || n.Ghost {
		t.Errorf("%s: zone %q placeholder %v ghost %v, want %q %v false", n.Name, n.Zone, n.Placeholder, n.Ghost, w.zone, w.placeholder)
	}
	wantReq := v1alpha1.Resource{MilliCPU: w.cpu, Memory: w.mem, EphemeralStorage: w.eph, ScalarResources: w.scalars}
	if !reflect.DeepEqual(n.Requested, wantReq) {
		t.Errorf("%s: requested %+v, want %+v", n.Name, n.Requested, wantReq)
	}
	if wantNZ := (v1alpha1.NonZeroResource{MilliCPU: w.nzCPU, Memory: w.nzMem}); n.NonZeroRequested != wantNZ {
		t.Errorf("%s: nonZeroRequested %+v, want %+v", n.Name, n.NonZeroRequested, wantNZ)
	}
	wantAlloc := v1alpha1.Resource{MilliCPU: w.allocCPU, Memory: w.allocMem, EphemeralStorage: w.allocEph, AllowedPodNumber: w.allocPods, ScalarResources: w.allocScalars}
	if !reflect.DeepEqual(n.Allocatable, wantAlloc) {
		t.Errorf("%s: allocatable %+v, want %+v", n.Name, n.Allocatable, wantAlloc)
	}
}

// checkRichDumpDetails checks per-pod accounting, ports, PVCs, affinity
// lists, nominated pods and image states in the rich cluster's dump.
func checkRichDumpDetails(t *testing.T, d *v1alpha1.CacheDump) {
	t.Helper()
	nodes := map[string]*v1alpha1.NodeDump{}
	pods := map[string]*v1alpha1.PodDump{}
	for i := range d.Nodes {
		n := &d.Nodes[i]
		nodes[n.Name] = n
		for j := range n.Pods {
			pods[n.Pods[j].Namespace+"/"+n.Pods[j].Name] = &n.Pods[j]
		}
	}
	// Per pod: requested cpu (m) / memory (bytes), non-zero cpu / memory.
	for name, want := range map[string][4]int64{
		"team-a/sidecar":           {400, 209715200, 400, 209715200},     // 200Mi
		"team-a/big-init":          {1500, 1073741824, 1500, 1073741824}, // 1Gi
		"team-a/overhead":          {350, 125829120, 350, 335544320},     // 120Mi; 200Mi + 120Mi = 320Mi
		"team-a/pod-level":         {1000, 0, 1000, 419430400},           // 2 × 200Mi = 400Mi
		"team-a/ports":             {100, 134217728, 100, 134217728},     // 128Mi
		"team-a/resize":            {300, 134217728, 300, 134217728},     // actuated 300m wins
		"team-a/resize-infeasible": {250, 268435456, 250, 268435456},     // allocated 250m; 256Mi
		"team-b/besteffort":        {0, 0, 100, 209715200},
		"team-b/zero-cpu":          {0, 67108864, 0, 67108864}, // explicit 0 stays 0
		"team-b/terminating":       {700, 536870912, 700, 536870912},
	} {
		p, ok := pods[name]
		if !ok {
			t.Errorf("pod %s not in the dump", name)
			continue
		}
		got := [4]int64{p.Requested.MilliCPU, p.Requested.Memory, p.NonZeroRequested.MilliCPU, p.NonZeroRequested.Memory}
		if got != want {
			t.Errorf("pod %s: requested cpu/mem, non-zero cpu/mem %v, want %v", name, got, want)
		}
	}
	if p := pods["team-b/terminating"]; p != nil && !p.Terminating {
		t.Errorf("team-b/terminating is not marked terminating")
	}
	for name, p := range pods {
		if name != "team-b/terminating" && p.Terminating {
			t.Errorf("%s marked terminating", name)
		}
	}
	if p := pods["team-a/resize"]; p != nil && p.Phase != "Running" {
		t.Errorf("team-a/resize phase %q, want Running", p.Phase)
	}
	for _, gone := range []string{"team-b/succeeded", "team-b/failed", "team-a/pending-1", "team-a/nominated", "team-a/pending-huge"} {
		if _, ok := pods[gone]; ok {
			t.Errorf("pod %s must not be in the cache", gone)
		}
	}
	if p := pods["team-a/ports"]; p != nil {
		want := []string{"0.0.0.0/TCP/8080", "10.0.0.1/UDP/5353", "0.0.0.0/TCP/8081"}
		if !sameSet(p.HostPorts, want) {
			t.Errorf("team-a/ports host ports %v, want %v (container and sidecar ports, not plain init)", p.HostPorts, want)
		}
	}
	if n := nodes["node-02"]; n != nil {
		want := []string{"0.0.0.0/TCP/8080", "0.0.0.0/TCP/8081", "10.0.0.1/UDP/5353"}
		if !slices.Equal(n.UsedPorts, want) {
			t.Errorf("node-02 usedPorts %v, want %v", n.UsedPorts, want)
		}
	}
	if n := nodes["node-03"]; n != nil {
		if want := map[string]int{"team-b/data-a": 1, "team-b/data-b": 1}; !reflect.DeepEqual(n.PVCRefCounts, want) {
			t.Errorf("node-03 pvcRefCounts %v, want %v", n.PVCRefCounts, want)
		}
		if !slices.Equal(n.PodsWithAffinity, []string{"team-b/affinity", "team-b/anti"}) ||
			!slices.Equal(n.PodsWithRequiredAntiAffinity, []string{"team-b/anti"}) {
			t.Errorf("node-03 affinity %v / required anti-affinity %v", n.PodsWithAffinity, n.PodsWithRequiredAntiAffinity)
		}
	}
	if n := nodes["node-08"]; n != nil && !reflect.DeepEqual(n.PVCRefCounts, map[string]int{"team-b/data-a": 1}) {
		t.Errorf("node-08 pvcRefCounts %v", n.PVCRefCounts)
	}
	if n := nodes["node-04"]; n != nil && !slices.Equal(n.NominatedPods, []string{"team-a/nominated"}) {
		t.Errorf("node-04 nominatedPods %v, want [team-a/nominated]", n.NominatedPods)
	}
	for name, n := range nodes {
		if name != "node-04" && len(n.NominatedPods) > 0 {
			t.Errorf("%s nominatedPods %v", name, n.NominatedPods)
		}
	}
	// Images: one entry per name; the size is the first reporter's
	// (node-01 lists app:v1 at 100 MB before node-02 at 200 MB); NumNodes is
	// the number of nodes reporting the name.
	wantImages := map[string][]v1alpha1.ImageState{
		"node-01": {{Name: imageAppDigest, Size: 100_000_000, NumNodes: 1}, {Name: imageApp, Size: 100_000_000, NumNodes: 2}, {Name: imagePause, Size: 750_000, NumNodes: 3}},
		"node-02": {{Name: imageApp, Size: 100_000_000, NumNodes: 2}, {Name: imageDB, Size: 300_000_000, NumNodes: 1}},
		"node-03": {{Name: imagePause, Size: 750_000, NumNodes: 3}},
		"node-07": nil,
	}
	for name, want := range wantImages {
		if n := nodes[name]; n != nil && !sameImages(n.ImageStates, want) {
			t.Errorf("%s imageStates %+v, want %+v", name, n.ImageStates, want)
		}
	}
}

func sameSet(a, b []string) bool {
	return len(a) == len(b) && slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

func sameImages(got, want []v1alpha1.ImageState) bool {
	key := func(s []v1alpha1.ImageState) map[string]v1alpha1.ImageState {
		m := map[string]v1alpha1.ImageState{}
		for _, i := range s {
			m[i.Name] = i
		}
		return m
	}
	return len(got) == len(want) && reflect.DeepEqual(key(got), key(want))
}
