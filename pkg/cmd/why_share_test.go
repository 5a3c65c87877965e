package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedcache/kubectl-schedcache/internal/gencluster"
)

// TestWhySharedVerdictsAreExact runs why -A in every output kind with and
// without --evaluate-each (one scheduling cycle per pod, none reused) on
// every fixture, on generated clusters with many pending replicas, and on
// a cluster of replicas under pressure (topology spread, anti-affinity, a
// shared volume, nominated replicas, preemption with a disruption budget):
// stdout, stderr and the exit code must be the same byte for byte.
func TestWhySharedVerdictsAreExact(t *testing.T) {
	files, err := filepath.Glob("testdata/fixtures/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	dir := t.TempDir()
	for seed := uint64(1); seed <= 3; seed++ {
		path := filepath.Join(dir, fmt.Sprintf("gen-%d.json", seed))
		cfg := gencluster.Config{Nodes: 30, Pods: 900, Seed: seed, Zones: 3, PendingFraction: 0.2, TerminalFraction: 0.01}
		if err := gencluster.WriteFile(path, cfg); err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
	}
	pressure := filepath.Join(dir, "pressure.yaml")
	if err := os.WriteFile(pressure, []byte(replicasUnderPressure()), 0o644); err != nil {
		t.Fatal(err)
	}
	files = append(files, pressure, example)
	outputs := [][]string{nil, {"-o", "wide"}, {"-o", "json"}, {"-o", "yaml"}, {"-o", "json", "--show-nodes"}}
	for _, f := range files {
		for _, out := range outputs {
			args := append([]string{"why", "-A", "-f", f}, out...)
			shared := run(t, "", args...)
			each := run(t, "", append(args, "--evaluate-each")...)
			name := filepath.Base(f) + " " + strings.Join(out, " ")
			if shared.code != each.code || shared.stdout != each.stdout || shared.stderr != each.stderr {
				t.Errorf("%s: shared verdicts differ from one cycle per pod:\nexit %d / %d\n--- shared stdout\n%s\n--- each stdout\n%s\n--- shared stderr\n%s\n--- each stderr\n%s",
					name, shared.code, each.code, shared.stdout, each.stdout, shared.stderr, each.stderr)
				continue
			}
			if shared.code > 1 {
				t.Errorf("%s: exit %d\n%s", name, shared.code, shared.stderr)
			}
		}
	}
	// The pressure cluster must exercise what it is for.
	r := run(t, "", "why", "-A", "-f", pressure, "-o", "json")
	for _, want := range []string{`"result": "scheduled"`, `"result": "unschedulable"`, `"victims": [`, `"nominatedNodeName": "n1"`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the pressure cluster's verdicts lack %s:\n%s", want, r.stdout)
		}
	}
}

// replicasUnderPressure is a cluster of 6 nodes in 3 zones, each with a
// low-priority pod under a disruption budget (priorities 0 to 5, so that
// DefaultPreemption's choice of node is unique: among tied candidates it
// takes whichever it meets first, from a random offset), and pending replicas of
// five ReplicaSets: spread over zones (DoNotSchedule) with hostname
// anti-affinity, sharing a volume bound in one zone, at high priority
// (preemption), nominated to n1 (two replicas), and too big for any node.
func replicasUnderPressure() string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: List\nitems:\n")
	for i := 1; i <= 6; i++ {
		fmt.Fprintf(&b, `- apiVersion: v1
  kind: Node
  metadata: {name: n%d, labels: {kubernetes.io/hostname: n%d, topology.kubernetes.io/zone: z%d}}
  status: {allocatable: {cpu: "4", memory: 8Gi, pods: "20"}}
`, i, i, (i-1)%3)
		fmt.Fprintf(&b, `- apiVersion: v1
  kind: Pod
  metadata: {name: filler-%d, namespace: shop, uid: filler-%d, labels: {app: filler}}
  spec:
    nodeName: n%d
    priority: %d
    containers: [{name: c, image: filler, resources: {requests: {cpu: "2500m", memory: 1Gi}}}]
  status: {phase: Running}
`, i, i, i, i-1)
	}
	b.WriteString(`- apiVersion: policy/v1
  kind: PodDisruptionBudget
  metadata: {name: filler, namespace: shop}
  spec: {minAvailable: 5, selector: {matchLabels: {app: filler}}}
  status: {disruptionsAllowed: 1, currentHealthy: 6, desiredHealthy: 5, expectedPods: 6}
- apiVersion: storage.k8s.io/v1
  kind: StorageClass
  metadata: {name: manual}
  provisioner: kubernetes.io/no-provisioner
  volumeBindingMode: Immediate
- apiVersion: v1
  kind: PersistentVolume
  metadata: {name: shared}
  spec:
    capacity: {storage: 1Gi}
    accessModes: [ReadWriteMany]
    storageClassName: manual
    claimRef: {namespace: shop, name: shared}
    nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [z1]}]}]}}
  status: {phase: Bound}
- apiVersion: v1
  kind: PersistentVolumeClaim
  metadata: {name: shared, namespace: shop}
  spec: {accessModes: [ReadWriteMany], storageClassName: manual, volumeName: shared, resources: {requests: {storage: 1Gi}}}
  status: {phase: Bound}
`)
	type set struct {
		name, extra string
		replicas    int
		cpu         string
		priority    int
		nominated   int
	}
	sets := []set{
		{name: "web", replicas: 5, cpu: "500m", extra: `
    topologySpreadConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}, matchLabelKeys: [pod-template-hash]}]
    affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: web}}}]}}`},
		{name: "db", replicas: 3, cpu: "1", extra: `
    volumes: [{name: data, persistentVolumeClaim: {claimName: shared}}]`},
		{name: "urgent", replicas: 3, cpu: "3", priority: 1000},
		{name: "renominated", replicas: 3, cpu: "3", priority: 1000, nominated: 2},
		{name: "huge", replicas: 2, cpu: "64"},
	}
	for _, s := range sets {
		for r := 0; r < s.replicas; r++ {
			status := "{phase: Pending}"
			if r < s.nominated {
				status = "{phase: Pending, nominatedNodeName: n1}"
			}
			fmt.Fprintf(&b, `- apiVersion: v1
  kind: Pod
  metadata:
    name: %[1]s-7d9f-%[2]d
    generateName: %[1]s-7d9f-
    namespace: shop
    uid: %[1]s-uid-%[2]d
    labels: {app: %[1]s, pod-template-hash: 7d9f}
    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: %[1]s-7d9f, uid: rs-%[1]s, controller: true}]
  spec:
    priority: %[3]d
    containers: [{name: c, image: %[1]s, resources: {requests: {cpu: "%[4]s", memory: 256Mi}}}]%[5]s
  status: %[6]s
`, s.name, r, s.priority, s.cpu, s.extra, status)
		}
	}
	return b.String()
}
