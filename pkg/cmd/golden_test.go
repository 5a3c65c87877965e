package cmd

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// update rewrites golden files: go test ./pkg/cmd/... -update (make golden).
// Review every changed file by eye before committing it.
var update = flag.Bool("update", false, "update golden files")

// result is one command run through the real root command.
type result struct {
	stdout, stderr string
	code           int
}

// run executes "kubectl schedcache args..." in-process with test streams.
func run(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	in := bytes.NewBufferString(stdin)
	var out, errOut bytes.Buffer
	root := NewCmdSchedCache(genericiooptions.IOStreams{In: in, Out: &out, ErrOut: &errOut})
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	if err != nil {
		errOut.WriteString("error: " + err.Error() + "\n")
	}
	return result{stdout: out.String(), stderr: errOut.String(), code: ExitCode(err)}
}

// checkGolden compares got with testdata/golden/name, or rewrites it with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (run with -update to create it): %v", err)
	}
	if w := strings.ReplaceAll(string(want), "\r\n", "\n"); w != got {
		t.Errorf("output differs from %s\n--- WANT\n%s\n--- GOT\n%s", path, w, got)
	}
}

const example = "../../examples/cluster.yaml"

// fixture is a small purpose-built cluster of testdata/fixtures: each shows
// one behaviour and states its hand-computed numbers in its header.
func fixture(name string) string { return filepath.Join("testdata", "fixtures", name+".yaml") }

// TestGolden runs the commands over the small fixtures, one behaviour per
// fixture and the output formats spread over them, and once over the
// shipped example (a smoke test; its numbers are checked against the hand
// computation in example_test.go).
func TestGolden(t *testing.T) {
	customColumns := "custom-columns=NODE:.name,CPU:.requested.milliCPU,PODS:.pods[*].name"
	tests := []struct {
		golden string
		args   []string
		code   int
	}{
		{"example-requested.txt", []string{"requested", "-f", example}, 0},
		{"sidecars-dump-node.txt", []string{"dump", "-f", fixture("sidecars"), "--node", "n1"}, 0},
		{"sidecars-dump-node-v1.27.txt", []string{"dump", "-f", fixture("sidecars"), "--node", "n1", "--kube-version", "v1.27"}, 0},
		{"overhead-requested-wide.txt", []string{"requested", "-f", fixture("overhead"), "-o", "wide"}, 0},
		{"overhead-dump-node.txt", []string{"dump", "-f", fixture("overhead"), "--node", "n1"}, 0},
		{"placeholder-dump.txt", []string{"dump", "-f", fixture("placeholder")}, 0},
		{"placeholder-dump.json", []string{"dump", "-f", fixture("placeholder"), "-o", "json"}, 0},
		{"placeholder-requested.txt", []string{"requested", "-f", fixture("placeholder")}, 0},
		{"placeholder-snapshot.txt", []string{"snapshot", "-f", fixture("placeholder")}, 0},
		{"zones-next-nodes.txt", []string{"next-nodes", "-f", fixture("zones"), "--count", "10"}, 0},
		{"zones-next-nodes.yaml", []string{"next-nodes", "-f", fixture("zones"), "-o", "yaml"}, 0},
		{"zones-snapshot.json", []string{"snapshot", "-f", fixture("zones"), "-o", "json"}, 0},
		{"zones-dump-sort-by-zone.txt", []string{"dump", "-f", fixture("zones"), "--columns", "name,zone,pods", "--sort-by", "zone"}, 0},
		{"affinity-snapshot-wide.txt", []string{"snapshot", "-f", fixture("affinity"), "-o", "wide"}, 0},
		{"pending-why.txt", []string{"why", "-f", fixture("pending"), "-n", "apps"}, 1},
		{"pending-why-big.txt", []string{"why", "-f", fixture("pending"), "-n", "apps", "big"}, 1},
		// The near misses and the cluster's recorded verdict (stale here).
		{"example-why-llama.txt", []string{"why", "-f", example, "ml/llama-finetune-worker-0"}, 1},
		{"pending-why.csv", []string{"why", "-f", fixture("pending"), "-A", "-o", "csv", "--sort-by", "pod"}, 1},
		{"pending-requested-pod.txt", []string{"requested", "-f", fixture("pending"), "--pod", "apps/small"}, 0},
		{"taints-requested-pod.txt", []string{"requested", "-f", fixture("taints"), "--pod", "apps/plain"}, 0},
		{"taints-why-wide.txt", []string{"why", "-f", fixture("taints"), "-n", "apps", "-o", "wide"}, 0},
		{"nonzero-dump-wide.txt", []string{"dump", "-f", fixture("nonzero"), "-o", "wide"}, 0},
		{"nonzero-dump-node.txt", []string{"dump", "-f", fixture("nonzero"), "--node", "n1"}, 0},
		{"nonzero-requested.csv", []string{"requested", "-f", fixture("nonzero"), "-o", "csv", "--columns", "name,cpu,non-zero-cpu,memory,non-zero-memory"}, 0},
		{"extended-requested.txt", []string{"requested", "-f", fixture("extended")}, 0},
		{"extended-requested-wide.txt", []string{"requested", "-f", fixture("extended"), "-o", "wide"}, 0},
		{"extended-requested-resources.txt", []string{"requested", "-f", fixture("extended"), "--resources", "nvidia.com/gpu,hugepages-2Mi", "--sort-by", "hugepages-2mi"}, 0},
		{"extended-requested-no-headers.txt", []string{"requested", "-f", fixture("extended"), "--no-headers", "--sort-by", "cpu", "--reverse"}, 0},
		{"extended-requested.yaml", []string{"requested", "-f", fixture("extended"), "-o", "yaml"}, 0},
		{"extended-dump-custom-columns.txt", []string{"dump", "-f", fixture("extended"), "-o", customColumns}, 0},
		{"terminal-dump-node.txt", []string{"dump", "-f", fixture("terminal"), "--node", "n1"}, 0},
		{"terminal-dump-jsonpath.txt", []string{"dump", "-f", fixture("terminal"), "-o", `jsonpath={range .nodes[*].pods[*]}{.name}{"\t"}{.state}{"\t"}{.terminating}{"\n"}{end}`}, 0},
		{"views-requested-pods-limits.txt", []string{"requested", "-f", fixture("views"), "--pods", "--limits"}, 0},
		{"views-requested-pods.csv", []string{"requested", "-f", fixture("views"), "--pods", "-n", "apps", "-o", "csv", "--sort-by", "cpu"}, 0},
		{"views-requested-by-namespace.txt", []string{"requested", "-f", fixture("views"), "--by", "namespace"}, 0},
		{"views-requested-limits.csv", []string{"requested", "-f", fixture("views"), "--limits", "-o", "csv", "--resources", "cpu,memory"}, 0},
		{"views-requested-taint-limits.txt", []string{"requested", "-f", fixture("views"), "--taint", "gpu=true:NoSchedule", "--limits"}, 0},
		{"drain-blocked.txt", []string{"drain", "-f", fixture("drain"), "n1"}, 1},
		{"drain.txt", []string{"drain", "-f", fixture("drain"), "n1", "--force", "--ignore-daemonsets", "--delete-emptydir-data"}, 1},
		{"drain-wide.txt", []string{"drain", "-f", fixture("drain"), "n1", "--force", "--ignore-daemonsets", "--delete-emptydir-data", "-o", "wide"}, 1},
		{"drain.json", []string{"drain", "-f", fixture("drain"), "n1", "--force", "--ignore-daemonsets", "--delete-emptydir-data", "-o", "json"}, 1},
		{"drain-old-blocked.txt", []string{"drain", "-f", fixture("drain-old"), "n1"}, 1},
		{"drain-old.txt", []string{"drain", "-f", fixture("drain-old"), "n1", "--ignore-daemonsets"}, 0},
		{"scaledown-rules.txt", []string{"scale-down", "-f", fixture("scaledown-rules")}, 0},
		{"scaledown-greedy.txt", []string{"scale-down", "-f", fixture("scaledown-greedy")}, 0},
		{"scaledown-greedy-wide.txt", []string{"scale-down", "-f", fixture("scaledown-greedy"), "-o", "wide"}, 0},
		{"scaledown-greedy.json", []string{"scale-down", "-f", fixture("scaledown-greedy"), "-o", "json"}, 0},
		{"scaledown-greedy-n2.txt", []string{"scale-down", "-f", fixture("scaledown-greedy"), "n2"}, 0},
		{"scaledown-greedy-none.txt", []string{"scale-down", "-f", fixture("scaledown-greedy"), "n3", "n4"}, 1},
		{"scaleup.txt", []string{"why", "-A", "--scale-up", "-f", fixture("scaleup")}, 0},
		{"scaleup-wide.txt", []string{"why", "-A", "--scale-up", "-f", fixture("scaleup"), "-o", "wide"}, 0},
		{"scaleup.json", []string{"why", "-A", "--scale-up", "-f", fixture("scaleup"), "-o", "json"}, 0},
		{"next-nodes-cycles.txt", []string{"next-nodes", "-f", "testdata/clusters/many-nodes.yaml", "--cycles", "4"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.golden, func(t *testing.T) {
			r := run(t, "", tc.args...)
			if r.code != tc.code {
				t.Fatalf("exit code %d, want %d; stderr:\n%s", r.code, tc.code, r.stderr)
			}
			checkGolden(t, tc.golden, r.stdout)
		})
	}
}

// TestFixtureNotes: what the fixtures' runs say on stderr, where it is part
// of the behaviour shown.
func TestFixtureNotes(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"dump", "-f", fixture("terminal")}, "note: skipped 2 terminal pods (Succeeded/Failed), as the scheduler does\n"},
		{[]string{"dump", "-f", fixture("placeholder")}, ""},
		{[]string{"requested", "-f", fixture("taints"), "--pod", "apps/tolerant"},
			"pod apps/tolerant (requests cpu 100m, memory 0) passes kube-scheduler's filters on 2 of 3 nodes\n"},
	} {
		if r := run(t, "", tc.args...); r.code != 0 || r.stderr != tc.stderr {
			t.Errorf("%v: exit %d, stderr %q; want 0 and %q", tc.args, r.code, r.stderr, tc.stderr)
		}
	}
}
