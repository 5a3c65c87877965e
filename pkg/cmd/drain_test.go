package cmd

import (
	"strings"
	"testing"
)

// TestDrainStderrAndExit: drain's notes and verdict on stderr, and its exit
// codes, over testdata/fixtures/drain.yaml (worked out in its header).
func TestDrainStderrAndExit(t *testing.T) {
	flags := []string{"--force", "--ignore-daemonsets", "--delete-emptydir-data"}
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"blocked", []string{"n1"}, 1, "note: the input has no DaemonSet kube-system/agent: its pods are taken as managed by an existing DaemonSet\n" +
			"not safe: 3 pods blocked\n"},
		{"budget", append([]string{"n1"}, flags...), 1, "note: the input has no DaemonSet kube-system/agent: its pods are taken as managed by an existing DaemonSet\n" +
			"not safe: 1 pod blocked (by PodDisruptionBudget shop/web-pdb), 1 replacement unschedulable, 1 pod not recreated\n"},
		// n2 holds web-c only: its replacement goes to n1 (8 cpu free) or
		// n3 (600m < 1 cpu): n1 alone fits.
		{"safe", append([]string{"n2"}, flags...), 0, "safe: 1 pod evicted from 1 node, every replacement scheduled\n"},
		// What if n2 had a twin (2 cpu free): web-a, web-b and web-d all
		// find room (1 cpu each), every allowance is given back, and only
		// solo (no controller) keeps the drain from being safe.
		{"add-node", append([]string{"n1", "--add-node", "n2"}, flags...), 1, "note: what-if: added 1 node like n2 (n2-whatif-1)\n" +
			"note: the input has no DaemonSet kube-system/agent: its pods are taken as managed by an existing DaemonSet\n" +
			"not safe: 1 pod not recreated\n"},
		{"selector", append([]string{"-l", "disk=ssd"}, flags...), 0, "safe: nothing to evict from 1 node\n"},
		{"pod-selector", append([]string{"n1", "--pod-selector", "app=web"}, flags...), 1, "not safe: 1 pod blocked (by PodDisruptionBudget shop/web-pdb), 1 replacement unschedulable\n"},
		{"unknown node", []string{"n9", "n1"}, 2, "error: nodes \"n9\" not found\n"},
		{"no nodes", nil, 2, "error: give NODE arguments or -l/--selector\n"},
		{"both", []string{"n1", "-l", "a=b"}, 2, "error: cannot specify both NODE arguments and -l/--selector\n"},
		{"no match", []string{"-l", "a=b"}, 2, "error: no nodes match the selector \"a=b\"\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, "", append([]string{"drain", "-f", fixture("drain")}, tc.args...)...)
			// run prints every error; the binary leaves the silent one out.
			r.stderr = strings.TrimSuffix(r.stderr, "error: "+errNotSafe.Error()+"\n")
			if r.code != tc.code || r.stderr != tc.stderr {
				t.Errorf("exit %d, stderr:\n%s\nwant %d and:\n%s", r.code, r.stderr, tc.code, tc.stderr)
			}
		})
	}
}

// TestDrainIncludePending: the pods pending before the drain are noted, or
// placed with --include-pending (ahead of the replacements at equal
// priority). In pending.yaml, n1 runs busy (1500m, no controller) and the
// pending small (800m) fits only n2 (1 cpu); with n1 drained and --force,
// busy is not recreated and small still goes to n2. The table leads with
// what makes the drain unsafe: the unschedulable pods, then busy, then small.
func TestDrainIncludePending(t *testing.T) {
	r := run(t, "", "drain", "-f", fixture("pending"), "n1", "--force")
	if !strings.Contains(r.stderr, "note: 3 pods were Pending before the drain: they keep their state and are not placed") {
		t.Errorf("no note on the pending pods:\n%s", r.stderr)
	}
	r = run(t, "", "drain", "-f", fixture("pending"), "n1", "--force", "--include-pending", "--no-headers")
	want := []string{
		"apps/big     <none>   unschedulable   <none>",
		"apps/gated   <none>   unschedulable   <none>",
		"apps/busy    n1       not-recreated   <none>",
		"apps/small   <none>   scheduled       n2",
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != len(want) {
		t.Fatalf("got:\n%s", r.stdout)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d: %q, want prefix %q", i, lines[i], w)
		}
	}
}

// TestDrainNodesOneAfterAnother: testdata/fixtures/drain-nodes.yaml (worked
// out in its header): kubectl's node order, not the priorities, decides
// which replacement is placed first; --timeout goes on past a node a budget
// holds, without it the next node is never drained. The rows lead with the
// blocked pod (views.DrainReport), the placements follow in their order.
func TestDrainNodesOneAfterAnother(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"n1", "n2", "--timeout", "30s"}, []string{
			"shop/held   n1   blocked     <none>   Cannot evict pod as it would violate the pod's disruption budget. (The disruption budget held-pdb needs 1 healthy pods and has 1 currently); kubectl drain gives up after --timeout 30s and goes on with the next node",
			"shop/lo     n1   scheduled   n3",
			"shop/hi     n2   scheduled   n4",
		}},
		{[]string{"n1", "n2"}, []string{
			"shop/held   n1   blocked     <none>   Cannot evict pod as it would violate the pod's disruption budget. (The disruption budget held-pdb needs 1 healthy pods and has 1 currently)",
			"shop/lo     n1   scheduled   n3",
			"shop/hi     n2   skipped     <none>   not evicted: kubectl drain waits for ever on node n1, whose pods a disruption budget holds back (--timeout gives up on a node)",
		}},
		{[]string{"n2", "n1", "--timeout", "30s"}, []string{
			"shop/held   n1   blocked     <none>",
			"shop/hi     n2   scheduled   n3",
			"shop/lo     n1   scheduled   n4",
		}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := run(t, "", append([]string{"drain", "-f", fixture("drain-nodes"), "--no-headers"}, tc.args...)...)
			lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
			if r.code != 1 || len(lines) != len(tc.want) {
				t.Fatalf("exit %d, got:\n%s%s", r.code, r.stdout, r.stderr)
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("line %d: %q, want prefix %q", i, lines[i], w)
				}
			}
		})
	}
	r := run(t, "", "drain", "-f", fixture("drain-nodes"), "n1", "--timeout", "-1s")
	if r.code != 2 || !strings.Contains(r.stderr, "--timeout: -1s is negative") {
		t.Errorf("a negative --timeout: exit %d, %s", r.code, r.stderr)
	}
}
