package cmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// firstColumn lists the first field of each table line after the header,
// the TOTAL row excepted.
func firstColumn(out string) []string {
	var names []string
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for _, l := range lines[min(1, len(lines)):] {
		if f := strings.Fields(l); len(f) > 0 && f[0] != "TOTAL" {
			names = append(names, f[0])
		}
	}
	return names
}

// TestRequestedNodeFilters: the node filters of testdata/fixtures/views.yaml
// (n1 untainted worker, n2 tainted gpu=true:NoSchedule worker, n3 cordoned
// infra) choose the rows, and -n never does in the node view.
func TestRequestedNodeFilters(t *testing.T) {
	noKubeconfig(t)
	base := []string{"requested", "-f", fixture("views")}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "n1 n2 n3"},
		{[]string{"-n", "batch"}, "n1 n2 n3"},
		{[]string{"-l", "role=worker"}, "n1 n2"},
		{[]string{"--taint", "gpu"}, "n2"},
		{[]string{"--taint", "gpu=true"}, "n2"},
		{[]string{"--taint", "gpu:NoSchedule"}, "n2"},
		{[]string{"--taint", "gpu=false"}, ""},
		{[]string{"--taint", "gpu:NoExecute"}, ""},
		{[]string{"--untainted"}, "n1 n3"},
		{[]string{"--cordoned"}, "n3"},
		{[]string{"--schedulable"}, "n1 n2"},
		{[]string{"--schedulable", "--untainted", "-l", "role=worker"}, "n1"},
		{[]string{"--node-selector", "role=worker"}, "n1 n2"},
		{[]string{"--node-selector", "role=worker", "-l", "role!=worker"}, ""},
		{[]string{"--pods", "--node-selector", "role!=worker"}, "kube-system"},
		{[]string{"--pods", "--cordoned"}, "kube-system"},
		{[]string{"--pods", "--taint", "gpu"}, "apps batch"},
		{[]string{"--by", "namespace", "--schedulable"}, "apps batch"},
	} {
		r := run(t, "", append(base, tc.args...)...)
		if r.code != 0 {
			t.Errorf("%v: exit %d: %s", tc.args, r.code, r.stderr)
			continue
		}
		if got := strings.Join(firstColumn(r.stdout), " "); got != tc.want {
			t.Errorf("%v: rows %q, want %q", tc.args, got, tc.want)
		}
		if tc.want == "" && (r.stdout != "" || r.stderr != "No resources found\n") {
			t.Errorf("%v: stdout %q, stderr %q; want none and \"No resources found\"", tc.args, r.stdout, r.stderr)
		}
	}
}

// TestRequestedPodRows: -n and --pod-selector choose the pods of --pods
// and --by namespace, never a node's numbers (json's nodes), and an empty
// choice is kubectl's "No resources found".
func TestRequestedPodRows(t *testing.T) {
	noKubeconfig(t)
	base := []string{"requested", "-f", fixture("views")}
	for _, tc := range []struct {
		args         []string
		pods, stderr string
	}{
		{[]string{"--pods", "-n", "apps"}, "apps/overhead apps/sidecar", ""},
		{[]string{"--pods", "-A", "--pod-selector", "app in (web,api)"}, "apps/overhead apps/sidecar", ""},
		{[]string{"--pods", "--pod-selector", "app=web"}, "apps/sidecar", ""},
		// -l selects what the rows list: pods here (kubectl's -l), not nodes.
		{[]string{"--pods", "-A", "-l", "app in (web,api)"}, "apps/overhead apps/sidecar", ""},
		{[]string{"--pods", "-l", "app=web"}, "apps/sidecar", ""},
		{[]string{"--pods", "-l", "app=web", "--pod-selector", "app=api"}, "", "No resources found\n"},
		{[]string{"--pods", "-A", "-l", "app=web", "--node-selector", "role=worker"}, "apps/sidecar", ""},
		{[]string{"--pods", "-A", "-l", "role=worker"}, "", "No resources found\n"},
		{[]string{"--pods", "-n", "nope"}, "", "No resources found in nope namespace.\n"},
		{[]string{"--by", "namespace", "-n", "nope"}, "", "No resources found in nope namespace.\n"},
	} {
		r := run(t, "", append(base, tc.args...)...)
		if r.code != 0 || r.stderr != tc.stderr {
			t.Errorf("%v: exit %d, stderr %q; want 0 and %q", tc.args, r.code, r.stderr, tc.stderr)
		}
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n")[1:] {
			if f := strings.Fields(l); len(f) > 1 && f[0] != "TOTAL" {
				got = append(got, f[0]+"/"+f[1])
			}
		}
		if strings.Join(got, " ") != tc.pods {
			t.Errorf("%v: pods %q, want %q", tc.args, strings.Join(got, " "), tc.pods)
		}
	}
	// The json keeps every selected node's whole numbers: n2 1750m with
	// -n apps (750m of apps/overhead, 1 of batch/podlevel).
	r := run(t, "", append(base, "--pods", "-n", "apps", "-o", "json")...)
	var rep v1alpha1.RequestedReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if len(rep.Nodes) != 3 || rep.Nodes[1].Name != "n2" || rep.Nodes[1].Requested.MilliCPU != 1750 || len(rep.Pods) != 2 {
		t.Errorf("json: nodes %+v, pods %+v", rep.Nodes, rep.Pods)
	}
}

// TestRequestedPodsMatchNodes: on the shipped example, every node's
// requested amounts are the sum of its pods' rows in --pods, and every
// namespace's of --by namespace sum to the same total.
func TestRequestedPodsMatchNodes(t *testing.T) {
	noKubeconfig(t)
	decode := func(args ...string) v1alpha1.RequestedReport {
		r := run(t, "", append([]string{"requested", "-f", example, "-o", "json"}, args...)...)
		var rep v1alpha1.RequestedReport
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return rep
	}
	pods := decode("--pods", "--limits")
	byNode := map[string]*v1alpha1.NodeRequested{}
	for _, p := range pods.Pods {
		n := byNode[p.Node]
		if n == nil {
			n = &v1alpha1.NodeRequested{Name: p.Node, Requested: v1alpha1.Resource{ScalarResources: map[string]int64{}}}
			byNode[p.Node] = n
		}
		n.Pods++
		n.Requested.MilliCPU += p.Requested.MilliCPU
		n.Requested.Memory += p.Requested.Memory
		n.Requested.ScalarResources["nvidia.com/gpu"] += p.Requested.ScalarResources["nvidia.com/gpu"]
		n.NonZeroRequested.MilliCPU += p.NonZeroRequested.MilliCPU
	}
	if len(pods.Nodes) == 0 {
		t.Fatal("no nodes")
	}
	for _, n := range pods.Nodes {
		got := byNode[n.Name]
		if got == nil {
			got = &v1alpha1.NodeRequested{}
		}
		if got.Pods != n.Pods || got.Requested.MilliCPU != n.Requested.MilliCPU || got.Requested.Memory != n.Requested.Memory ||
			got.Requested.ScalarResources["nvidia.com/gpu"] != n.Requested.ScalarResources["nvidia.com/gpu"] || got.NonZeroRequested.MilliCPU != n.NonZeroRequested.MilliCPU {
			t.Errorf("node %s: pods sum to %d pods, %dm, %d bytes, non-zero %dm; the node has %d, %dm, %d, %dm",
				n.Name, got.Pods, got.Requested.MilliCPU, got.Requested.Memory, got.NonZeroRequested.MilliCPU, n.Pods, n.Requested.MilliCPU, n.Requested.Memory, n.NonZeroRequested.MilliCPU)
		}
	}
	var cpu int64
	pods2 := 0
	for _, ns := range decode("--by", "namespace").Namespaces {
		cpu += ns.Requested.MilliCPU
		pods2 += ns.Pods
	}
	if cpu != pods.Total.Requested.MilliCPU || pods2 != pods.Total.Pods {
		t.Errorf("namespaces sum to %dm over %d pods; the nodes' total is %dm over %d", cpu, pods2, pods.Total.Requested.MilliCPU, pods.Total.Pods)
	}
}

// TestRequestedViewErrors: conflicting or malformed view flags are
// one-line usage errors.
func TestRequestedViewErrors(t *testing.T) {
	base := []string{"requested", "-f", fixture("views")}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--by", "pod"}, `invalid --by "pod": valid values are node, namespace`},
		{[]string{"--pods", "--by", "namespace"}, "--pods and --by namespace cannot be used together"},
		{[]string{"--pods", "--pod", "apps/sidecar"}, "--pods and --by namespace do not combine with --pod or --pod-file"},
		{[]string{"--pod-selector", "app=web"}, "--pod-selector needs --pods or --by namespace"},
		{[]string{"--cordoned", "--schedulable"}, "--cordoned and --schedulable cannot be used together"},
		{[]string{"--untainted", "--taint", "gpu"}, "--untainted and --taint cannot be used together"},
		{[]string{"--taint", "gpu:Never"}, `--taint: invalid taint effect "Never" in "gpu:Never": valid effects are NoSchedule, PreferNoSchedule, NoExecute`},
		{[]string{"--taint", "=x"}, `--taint: invalid taint "=x": want KEY[=VALUE][:EFFECT]`},
		{[]string{"--pods", "--pod-selector", "a in (b"}, `invalid --pod-selector "a in (b"`},
		{[]string{"--pods", "--resources", "pods"}, `unknown resource "pods" in --resources: valid resources are cpu, memory, ephemeral-storage`},
		{[]string{"--pods", "-w"}, "--watch does not combine with --pods, --by namespace or --limits"},
	} {
		r := run(t, "", append(base, tc.args...)...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, tc.want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and one line containing %q", tc.args, r.code, r.stderr, ExitUsage, tc.want)
		}
	}
}
