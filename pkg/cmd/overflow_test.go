package cmd

import (
	"strings"
	"testing"
)

// overflowInput: a pod whose two containers request 5e15 cores each; no
// quantity is beyond int64 millicores, their sum (10^19m) is, and
// kube-scheduler's number wraps to 10^19 - 2^64 = -8446744073709551616m.
const overflowInput = inputNode + `---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns, uid: u1}
spec:
  nodeName: n1
  containers:
  - {name: a, resources: {requests: {cpu: 5e15}}}
  - {name: b, resources: {requests: {cpu: 5e15}}}
`

const overflowWarning = "warning: pod ns/p: the sum of its cpu requests (containers, init containers, overhead) is 10P, beyond the int64 kube-scheduler counts in; it wraps to -8446744073709551616m, in kube-scheduler as here\n"

// TestOverflowMarkedEverywhere: the pod's wrapped sum is warned about once,
// naming the pod and the sum, and every table printing a number it
// changed marks the cell by the one rule: dump and requested (the node's
// cpu), simulate's node summary (before the pod is removed, not after)
// and its simulated pod (-o wide).
func TestOverflowMarkedEverywhere(t *testing.T) {
	path := writeInput(t, "cluster.yaml", overflowInput)
	wrapped := "-8446744073709551616m/4 (968955004921053%) overflow"
	for _, args := range [][]string{{"dump"}, {"requested"}} {
		r := run(t, "", append(args, "-f", path)...)
		if r.code != 0 || strings.Count(r.stderr, overflowWarning) != 1 {
			t.Errorf("%s: exit %d, stderr %q, want 0 and the warning once", args[0], r.code, r.stderr)
		}
		if !strings.Contains(r.stdout, "n1 ") || !strings.Contains(r.stdout, wrapped) {
			t.Errorf("%s: stdout lacks %q:\n%s", args[0], wrapped, r.stdout)
		}
	}
	script := writeInput(t, "script.yaml", "- {op: remove, pod: ns/p}\n")
	r := run(t, "", "simulate", "-f", path, "--script", script, "-o", "wide")
	if r.code != 0 || strings.Count(r.stderr, overflowWarning) != 1 {
		t.Errorf("simulate: exit %d, stderr %q, want 0 and the warning once", r.code, r.stderr)
	}
	for _, want := range []string{
		"n1     -8446744073709551616m overflow   0           0 ",
		"ns/p   Deleted   n1     -8446744073709551616m overflow   0 ",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("simulate: stdout lacks %q:\n%s", want, r.stdout)
		}
	}
}
