package cmd

import (
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// check runs o's Complete (no command, the default connection) and then
// Validate, as RunE does before Run.
func check(o runner) error {
	if err := o.Complete(nil, nil, nil); err != nil {
		return err
	}
	return o.Validate()
}

// TestValidate table-tests every command's Complete and Validate: each case
// mutates fresh options and expects an error containing wantErr ("" =
// valid).
func TestValidate(t *testing.T) {
	streams := genericiooptions.NewTestIOStreamsDiscard()
	format := func(f string) func(*OutputFlags) { return func(o *OutputFlags) { *o.PrintFlags.OutputFormat = f } }
	tests := []struct {
		name     string
		validate func() error
		wantErr  string
	}{
		{"dump defaults", func() error { return check(NewDumpOptions(streams)) }, ""},
		{"next-nodes count bounded", func() error { o := NewNextNodesOptions(streams); o.Count = 100_000_000; return check(o) },
			"--count must be at most 100000, got 100000000"},
		{"next-nodes count at the bound", func() error { o := NewNextNodesOptions(streams); o.Count = 100_000; return check(o) }, ""},
		{"next-nodes cycles bounded", func() error { o := NewNextNodesOptions(streams); o.Cycles = 100_000_000; return check(o) },
			"--cycles must be at most 1000, got 100000000"},
		{"dump json", func() error { o := NewDumpOptions(streams); format("json")(o.Output); return check(o) }, ""},
		{"dump jsonpath", func() error { o := NewDumpOptions(streams); format("jsonpath={.nodes}")(o.Output); return check(o) }, ""},
		{"dump bad format", func() error { o := NewDumpOptions(streams); format("bogus")(o.Output); return check(o) },
			`unknown output format "bogus": allowed formats are table, wide, csv, custom-columns=HEADER:JSONPATH,…, json, yaml`},
		{"dump name format refused", func() error { o := NewDumpOptions(streams); format("name")(o.Output); return check(o) }, `unknown output format "name"`},
		{"zero chunk size", func() error { o := NewDumpOptions(streams); o.Input.ChunkSize = 0; return check(o) }, "--chunk-size must be positive"},
		{"-R without -f", func() error { o := NewSnapshotOptions(streams); o.Input.Recursive = true; return check(o) }, "-R/--recursive needs -f/--filename"},
		{"requested defaults", func() error { return check(NewRequestedOptions(streams)) }, ""},
		{"requested pod and pod-file", func() error {
			o := NewRequestedOptions(streams)
			o.Pod, o.PodFile = "a/b", "pod.yaml"
			return check(o)
		}, "--pod and --pod-file cannot be used together"},
		{"requested csv", func() error { o := NewRequestedOptions(streams); format("csv")(o.Output); return check(o) }, ""},
		{"requested custom columns", func() error {
			o := NewRequestedOptions(streams)
			format("custom-columns=NAME:.name,CPU:.requested.milliCPU")(o.Output)
			return check(o)
		}, ""},
		{"bad custom columns", func() error {
			o := NewSnapshotOptions(streams)
			format("custom-columns=NAME")(o.Output)
			return check(o)
		},
			"invalid -o custom-columns: unexpected custom-columns spec: NAME, expected <header>:<json-path-expr>"},
		{"requested bad selector", func() error { o := NewRequestedOptions(streams); o.Selector = "a in (b"; return check(o) }, `invalid --selector "a in (b"`},
		{"next-nodes negative count", func() error { o := NewNextNodesOptions(streams); o.Count = -1; return check(o) }, "--count must not be negative"},
		{"next-nodes negative cycles", func() error { o := NewNextNodesOptions(streams); o.Cycles = -2; return check(o) }, "--cycles must not be negative"},
		{"next-nodes percentage", func() error { o := NewNextNodesOptions(streams); o.Percentage = 101; return check(o) }, "between 0 and 100"},
		{"snapshot wide", func() error { o := NewSnapshotOptions(streams); format("wide")(o.Output); return check(o) }, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.validate()
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

// TestExitCodes checks usage errors exit 2, runtime errors 1, and the fit
// codes of requested --pod.
func TestExitCodes(t *testing.T) {
	edge := "testdata/clusters/edge.yaml"
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"unknown flag", []string{"dump", "--bogus"}, 2, "unknown flag: --bogus"},
		{"unknown command", []string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{"extra argument", []string{"dump", "node-1"}, 2, `unexpected argument "node-1"`},
		{"bad output", []string{"dump", "-f", edge, "-o", "bogus"}, 2, "unknown output format"},
		{"missing file", []string{"dump", "-f", "testdata/nope.yaml"}, 2, "testdata/nope.yaml"},
		{"unknown node", []string{"dump", "-f", edge, "--node", "nope"}, 1, `node "nope" not found in the cache`},
		{"pending pod fits nowhere", []string{"requested", "-f", edge, "--pod", "apps/waiting"}, 1, "filters on 0 of 2 nodes"},
		// As if pending: plain has no pod slot left; on legacy the nominated
		// apps/waiting (3 cpu) leaves no cpu, but zero-cpu requests none.
		{"bound pod copy fits", []string{"requested", "-f", edge, "--pod", "default/zero-cpu"}, 0, "filters on 1 of 2 nodes"},
		{"unknown pod is an error", []string{"requested", "-f", edge, "--pod", "apps/nope"}, 2, "pod apps/nope not found"},
		// 500m: legacy has no cpu left once the nominated apps/waiting counts.
		{"pod file", []string{"requested", "-f", edge, "--pod-file", "testdata/pods/small.yaml"}, 1, "filters on 0 of 2 nodes"},
		{"pod file with two pods", []string{"requested", "-f", edge, "--pod-file", edge}, 2, "want exactly one non-terminal Pod or workload"},
		{"unknown sort column", []string{"requested", "-f", edge, "--sort-by", "age"}, 2,
			`unknown column "age" in --sort-by: valid columns are NAME, CPU, CPU%, CPU-FREE, MEMORY, MEMORY%, MEMORY-FREE, EPHEMERAL-STORAGE,`},
		{"unknown column", []string{"snapshot", "-f", edge, "--columns", "node,age"}, 2,
			`unknown column "age" in --columns: valid columns are #, NODE, ZONE, PODS, POD-AFFINITY, REQUIRED-ANTI-AFFINITY, GENERATION`},
		{"unknown resource", []string{"dump", "-f", edge, "--resources", "cpu,gpu"}, 2,
			`unknown resource "gpu" in --resources: valid resources are pods, cpu, memory, ephemeral-storage, example.com/foo, hugepages-2Mi`},
		{"unknown column in json", []string{"dump", "-f", edge, "-o", "json", "--sort-by", "age"}, 2, `unknown column "age" in --sort-by`},
		{"no --resources on snapshot", []string{"snapshot", "-f", edge, "--resources", "cpu"}, 2, "unknown flag: --resources"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, "", tc.args...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.stderr) {
				t.Errorf("exit %d, stderr %q; want exit %d and stderr containing %q", r.code, r.stderr, tc.code, tc.stderr)
			}
		})
	}
}

// TestStdin reads the cluster from "-".
func TestStdin(t *testing.T) {
	in := `apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "1", memory: 1Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default, uid: u1}
spec: {nodeName: n1, containers: [{name: c, image: x, resources: {requests: {cpu: 250m}}}]}
`
	r := run(t, in, "dump", "-f", "-", "-o", "jsonpath={.nodes[0].requested.milliCPU}")
	if r.code != 0 || r.stdout != "250" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 250", r.code, r.stdout, r.stderr)
	}
}

// TestTableFlagsRefused: commands whose output is not a printers.Table
// (diff, compare) refuse the table flags and formats instead of ignoring
// them.
func TestTableFlagsRefused(t *testing.T) {
	zones := fixture("zones")
	saved := run(t, "", "dump", "-f", zones, "-o", "json")
	if saved.code != 0 {
		t.Fatal(saved.stderr)
	}
	for args, want := range map[string]string{
		"--sort-by name":         "--columns, --sort-by, --reverse and --resources are not supported by this command",
		"--columns node":         "--columns, --sort-by, --reverse and --resources are not supported by this command",
		"-o csv":                 "-o csv is not supported by this command",
		"-o custom-columns=A:.a": "-o custom-columns is not supported by this command",
	} {
		r := run(t, saved.stdout, append([]string{"diff", "-", "-f", zones}, strings.Fields(args)...)...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, want) {
			t.Errorf("diff %s: exit %d, stderr %q; want %d and %q", args, r.code, r.stderr, ExitUsage, want)
		}
	}
}
