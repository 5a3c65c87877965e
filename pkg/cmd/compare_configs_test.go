package cmd

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

const (
	spreadConfig  = "testdata/configs/spread.yaml"
	binpackConfig = "testdata/configs/binpack.yaml"
)

// configRow is what the comparison says of one configuration, with the
// utilisation as [nodes, mean, sd, max] per resource.
type configRow struct {
	name                                         string
	pods, placed, pending, on, used, schedulable int
	exit                                         int
	util                                         map[string][4]float64
}

// twoReplicas, by hand, on testdata/fixtures/replicas.yaml (n1 and n2:
// 2 cpu, 8Gi, 10 pods; "cordoned" is not schedulable) with two replicas
// of 1 cpu and 1Gi (testdata/pods/deployment.yaml):
//   - spread.yaml (LeastAllocated): n1 then n2. cpu 1/2 on each: mean 0.5,
//     sd 0, max 0.5; memory 1/8 each; pods 1/10 each; 2 nodes used.
//   - binpack.yaml (MostAllocated): n1 then n1 again. cpu 2/2 and 0: mean
//     0.5, sd 0.5, max 1; memory 2/8 and 0: 0.125, 0.125, 0.25; pods 2/10
//     and 0: 0.1, 0.1, 0.2; 1 node used.
var twoReplicas = []configRow{
	{name: "spread.yaml", pods: 2, placed: 2, on: 2, used: 2, schedulable: 2, util: map[string][4]float64{
		"cpu": {2, 0.5, 0, 0.5}, "memory": {2, 0.125, 0, 0.125}, "pods": {2, 0.1, 0, 0.1}}},
	{name: "binpack.yaml", pods: 2, placed: 2, on: 1, used: 1, schedulable: 2, util: map[string][4]float64{
		"cpu": {2, 0.5, 0.5, 1}, "memory": {2, 0.125, 0.125, 0.25}, "pods": {2, 0.1, 0.1, 0.2}}},
}

func checkComparison(t *testing.T, out, command string, want []configRow) {
	t.Helper()
	var c v1alpha1.ConfigComparison
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if c.Kind != "ConfigComparison" || c.Command != command || c.Source != "file "+replicasFixture || len(c.Configs) != len(want) {
		t.Fatalf("comparison %+v", c)
	}
	for i, w := range want {
		g := c.Configs[i]
		if g.Config != w.name || g.Pods != w.pods || g.Placed != w.placed || g.Pending != w.pending || g.PlacedNodes != w.on ||
			g.NodesUsed != w.used || g.SchedulableNodes != w.schedulable || g.ExitCode != w.exit || len(g.Utilisation) != 3 {
			t.Errorf("config %d: %+v, want %+v", i, g, w)
			continue
		}
		for _, u := range g.Utilisation {
			e := w.util[u.Resource]
			if float64(u.Nodes) != e[0] || math.Abs(u.Mean-e[1]) > 1e-12 || math.Abs(u.StdDev-e[2]) > 1e-12 || math.Abs(u.Max-e[3]) > 1e-12 {
				t.Errorf("%s %s: %+v, want nodes, mean, sd, max %v", w.name, u.Resource, u, e)
			}
		}
	}
}

func TestWhyComparesConfigs(t *testing.T) {
	args := []string{"why", "-f", replicasFixture, "--pod-file", "testdata/pods/deployment.yaml", "--config", spreadConfig, "--config", binpackConfig}
	r := run(t, "", append(args, "--replicas", "2", "-o", "json")...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	checkComparison(t, r.stdout, "why", twoReplicas)
	for _, line := range []string{"spread.yaml: Deployment shop/api: 2 of 2 replicas fit (n1: 1, n2: 1)", "binpack.yaml: Deployment shop/api: 2 of 2 replicas fit (n1: 2)"} {
		if !strings.Contains(r.stderr, line) {
			t.Errorf("stderr lacks %q:\n%s", line, r.stderr)
		}
	}

	// All five replicas: 4 fit under either (2 cpu per node), so the
	// comparison exits 1, as the plain command does for each.
	r = run(t, "", args...)
	if r.code != 1 {
		t.Fatalf("5 replicas: exit %d, want 1: %s", r.code, r.stderr)
	}
	for _, row := range []string{"spread.yaml    5      4        1         2          2/2", "binpack.yaml   5      4        1         2          2/2"} {
		if !strings.Contains(r.stdout, row) {
			t.Errorf("table lacks %q:\n%s", row, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "4 of 5 replicas fit (n1: 2, n2: 2); shop/api-") || !strings.Contains(r.stderr, " does not fit") {
		t.Errorf("stderr:\n%s", r.stderr)
	}

	r = run(t, "", "why", "-f", replicasFixture, "--config", spreadConfig, "--config", binpackConfig)
	if r.code != 2 || !strings.Contains(r.stderr, "more than one --config needs --pod-file") {
		t.Errorf("without --pod-file: exit %d: %s", r.code, r.stderr)
	}
}

func TestSimulateComparesConfigs(t *testing.T) {
	args := []string{"simulate", "-f", replicasFixture, "--pod-file", "testdata/pods/deployment.yaml", "--replicas", "2"}
	r := run(t, "", append(args, "--config", spreadConfig, "--config", binpackConfig, "-o", "json")...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	checkComparison(t, r.stdout, "simulate", twoReplicas)
	if n := strings.Count(r.stderr, "note: TTL 0"); n != 1 {
		t.Errorf("the TTL note %d times, want once:\n%s", n, r.stderr)
	}

	// One --config is the plain command: spread.yaml is kube-scheduler's
	// default configuration, so the output is that of no --config.
	plain := run(t, "", args...)
	one := run(t, "", append(args, "--config", spreadConfig)...)
	if one.code != 0 || one.stdout != plain.stdout || one.stderr != plain.stderr || !strings.Contains(one.stdout, "assume") {
		t.Errorf("one --config:\n%s%s\nwant\n%s%s", one.stdout, one.stderr, plain.stdout, plain.stderr)
	}

	r = run(t, "", "simulate", "-f", replicasFixture, "--script", "x.yaml", "--config", spreadConfig, "--config", binpackConfig)
	if r.code != 2 || !strings.Contains(r.stderr, "--script cannot be used with more than one --config") {
		t.Errorf("--script: exit %d: %s", r.code, r.stderr)
	}
}

// The comparison in CSV: one field per figure, the ratios with four
// decimals (the hand computation of twoReplicas).
func TestCompareConfigsCSV(t *testing.T) {
	r := run(t, "", "why", "-f", replicasFixture, "--pod-file", "testdata/pods/deployment.yaml", "--replicas", "2",
		"--config", spreadConfig, "--config", binpackConfig, "-o", "csv")
	want := "CONFIG,PODS,PLACED,PENDING,ON_NODES,NODES_USED,SCHEDULABLE_NODES,CPU_MEAN,CPU_SD,CPU_MAX,MEMORY_MEAN,MEMORY_SD,MEMORY_MAX,PODS_USED_MEAN,PODS_USED_SD,PODS_USED_MAX\n" +
		"spread.yaml,2,2,0,2,2,2,0.5000,0.0000,0.5000,0.1250,0.0000,0.1250,0.1000,0.0000,0.1000\n" +
		"binpack.yaml,2,2,0,1,1,2,0.5000,0.5000,1.0000,0.1250,0.1250,0.2500,0.1000,0.1000,0.2000\n"
	if r.code != 0 || r.stdout != want {
		t.Errorf("exit %d\n%s\nwant\n%s", r.code, r.stdout, want)
	}
}

// TestSimulateComparisonPackingAndExit (issue 37, 4e), by hand on
// testdata/simulate/cluster.yaml: a-1 (2 cpu) runs 1500m, b-1 (2 cpu, 2
// pods) runs 500m, a-2 (4 cpu) is empty; apps/web-1 and web-2 ask 400m
// each. LeastAllocated (spread.yaml) puts both on the empty a-2 (least
// requested before and after the first); MostAllocated (binpack.yaml) puts
// web-1 on a-1 (1900m/2000m, the fullest that fits) and web-2, which no
// longer fits a-1, on b-1 (900m/2000m against a-2's 400m/4000m). So the
// placed pods are on 1 node and on 2, while the nodes used are 3/3 and
// 2/3 (run-a1 and run-b1 were there before). With -A, apps/huge (16 cpu)
// fits no node under either: the comparison exits 1, as plain simulate
// --pending does.
func TestSimulateComparisonPackingAndExit(t *testing.T) {
	args := []string{"simulate", "-f", simCluster, "--pending", "--config", spreadConfig, "--config", binpackConfig}
	r := run(t, "", append(args, "-n", "apps", "-l", "app=web")...)
	if r.code != 0 {
		t.Fatalf("web pods: exit %d: %s", r.code, r.stderr)
	}
	for _, row := range []string{"spread.yaml    2      2        0         1          3/3", "binpack.yaml   2      2        0         2          2/3"} {
		if !strings.Contains(r.stdout, row) {
			t.Errorf("table lacks %q:\n%s", row, r.stdout)
		}
	}
	r = run(t, "", append(args, "-A", "-o", "json")...)
	if r.code != 1 {
		t.Errorf("-A (apps/huge fits nowhere): exit %d, want 1 as plain simulate --pending: %s", r.code, r.stderr)
	}
	var c v1alpha1.ConfigComparison
	if err := json.Unmarshal([]byte(r.stdout), &c); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	for _, row := range c.Configs {
		if row.Pending != 1 || row.ExitCode != 1 {
			t.Errorf("%s: pending %d, exitCode %d; want 1, 1", row.Config, row.Pending, row.ExitCode)
		}
	}
	plain := run(t, "", "simulate", "-f", simCluster, "--pending", "-A", "--config", spreadConfig)
	if plain.code != r.code {
		t.Errorf("plain simulate --pending -A exits %d, the comparison %d", plain.code, r.code)
	}
}
