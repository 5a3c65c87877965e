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

// TestOverflowMarkedInTimeline: simulate's timeline rows mark the node's
// cells whose numbers wrap right after each event, by the same rule: the
// pod's own wrapped sum once it is back on the node, and a node sum that
// only the second of two 4Ei pods takes beyond int64 (2^62 + 2^62 = 2^63,
// which wraps to -2^63).
func TestOverflowMarkedInTimeline(t *testing.T) {
	path := writeInput(t, "cluster.yaml", overflowInput)
	script := writeInput(t, "script.yaml", "- {op: remove, pod: ns/p}\n- {op: add, pod: ns/p}\n")
	r := run(t, "", "simulate", "-f", path, "--script", script)
	checkTimelineRow(t, r.stdout, "remove   ns/p", "Added→Deleted   0 ", false)
	checkTimelineRow(t, r.stdout, "add      ns/p", "Initial→Added   -8446744073709551616m overflow ", true)

	twoPods := writeInput(t, "script.yaml", `- op: add
  pod: {metadata: {name: m1, namespace: ns, uid: m1}, spec: {nodeName: n1, containers: [{name: a, resources: {requests: {memory: 4Ei}}}]}}
- op: add
  pod: {metadata: {name: m2, namespace: ns, uid: m2}, spec: {nodeName: n1, containers: [{name: a, resources: {requests: {memory: 4Ei}}}]}}
`)
	r = run(t, "", "simulate", "-f", writeInput(t, "node.yaml", inputNode), "--script", twoPods)
	checkTimelineRow(t, r.stdout, "ns/m1", "Initial→Added   0     4Ei", false)
	checkTimelineRow(t, r.stdout, "ns/m2", "Initial→Added   0     -8Ei overflow", true)

	// A cleanup expires two of three 4Ei pods at once: after the first
	// expiry the other two (8Ei) still wrap, after the second 4Ei does not.
	inline := func(name, op string) string {
		return "- {op: " + op + ", node: n1, pod: {metadata: {name: " + name + ", namespace: ns, uid: " + name + "}, spec: {nodeName: n1, containers: [{name: a, resources: {requests: {memory: 4Ei}}}]}}}\n"
	}
	batch := writeInput(t, "script.yaml", inline("m1", "add")+inline("m2", "assume")+inline("m3", "assume")+
		"- {op: finishBinding, pod: ns/m2}\n- {op: finishBinding, pod: ns/m3}\n- {op: advance, duration: 31s}\n- {op: cleanup}\n")
	r = run(t, "", "simulate", "-f", writeInput(t, "node.yaml", inputNode), "--script", batch, "--ttl", "30s")
	checkTimelineRow(t, r.stdout, "expire          ns/m2", "Assumed→Expired   0     -8Ei overflow", true)
	checkTimelineRow(t, r.stdout, "expire          ns/m3", "Assumed→Expired   0     4Ei", false)
}

// checkTimelineRow finds the first timeline row holding key and checks it
// holds want, and the overflow mark only when marked.
func checkTimelineRow(t *testing.T, out, key, want string, marked bool) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if !strings.Contains(line, key) {
			continue
		}
		if !strings.Contains(line+" ", want) || strings.Contains(line, "overflow") != marked {
			t.Errorf("%s: row %q, want %q (overflow mark: %v)", key, line, want, marked)
		}
		return
	}
	t.Errorf("no timeline row with %q:\n%s", key, out)
}

// TestPodFileOverflowWarned: a --pod-file pod never enters the model's pod
// list, yet its requests are counted the same way: the pod (no
// containers, overhead 1e30 cpu, which kube-scheduler counts as 0m) is
// warned about once by each command that reads a --pod-file, and so is a
// workload's template.
func TestPodFileOverflowWarned(t *testing.T) {
	path := writeInput(t, "cluster.yaml", inputNode)
	pod := writeInput(t, "pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: big, namespace: ns}\nspec: {overhead: {cpu: '1e30'}}\n")
	const warning = "warning: pod ns/big: spec.overhead.cpu is 1e30, beyond the int64 kube-scheduler counts in; it wraps to 0m, in kube-scheduler as here\n"
	for _, args := range [][]string{{"requested"}, {"why"}, {"simulate"}} {
		r := run(t, "", append(args, "-f", path, "--pod-file", pod)...)
		if strings.Count(r.stderr, warning) != 1 {
			t.Errorf("%s --pod-file: exit %d, stderr %q, want the warning once", args[0], r.code, r.stderr)
		}
	}
	deploy := writeInput(t, "deploy.yaml", `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ns}
spec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, resources: {requests: {memory: '1e19'}}}]}}}
`)
	r := run(t, "", "why", "-f", path, "--pod-file", deploy)
	if !strings.Contains(r.stderr, "warning: deployment ns/web: spec.template.spec.containers[0].resources.requests.memory is 10e18, beyond the int64") {
		t.Errorf("why --pod-file Deployment: stderr %q, want the template's warning", r.stderr)
	}
}
