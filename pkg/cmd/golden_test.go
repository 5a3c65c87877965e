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

// TestGolden runs every command in every output format over the shipped
// example cluster and a small edge-case cluster.
func TestGolden(t *testing.T) {
	tests := []struct {
		golden string
		args   []string
		code   int
	}{
		{"dump.txt", []string{"dump", "-f", example}, 0},
		{"dump-wide.txt", []string{"dump", "-f", example, "-o", "wide"}, 0},
		{"dump-no-headers.txt", []string{"dump", "-f", example, "--no-headers"}, 0},
		{"dump.json", []string{"dump", "-f", example, "-o", "json"}, 0},
		{"dump.yaml", []string{"dump", "-f", example, "-o", "yaml"}, 0},
		{"dump-jsonpath.txt", []string{"dump", "-f", example, "-o", `jsonpath={range .nodes[*]}{.name}{"\t"}{.requested.milliCPU}{"\n"}{end}`}, 0},
		{"dump-node.txt", []string{"dump", "-f", example, "--node", "worker-b-1", "--node", "node-gone-1"}, 0},
		{"requested.txt", []string{"requested", "-f", example}, 0},
		{"requested-wide-sorted.txt", []string{"requested", "-f", example, "-o", "wide", "--sort-by", "cpu%"}, 0},
		{"requested-selector.txt", []string{"requested", "-f", example, "-l", "topology.kubernetes.io/zone=us-east-1a", "--sort-by", "memory"}, 0},
		{"requested.json", []string{"requested", "-f", example, "-o", "json"}, 0},
		{"requested.yaml", []string{"requested", "-f", example, "-o", "yaml"}, 0},
		{"next-nodes.txt", []string{"next-nodes", "-f", example, "-n", "26"}, 0},
		{"next-nodes-cycles.txt", []string{"next-nodes", "-f", "testdata/clusters/many-nodes.yaml", "--cycles", "4"}, 0},
		{"next-nodes.json", []string{"next-nodes", "-f", example, "-o", "json"}, 0},
		{"next-nodes.yaml", []string{"next-nodes", "-f", example, "-o", "yaml"}, 0},
		{"snapshot.txt", []string{"snapshot", "-f", example}, 0},
		{"snapshot-wide.txt", []string{"snapshot", "-f", example, "-o", "wide"}, 0},
		{"snapshot.json", []string{"snapshot", "-f", example, "-o", "json"}, 0},
		{"snapshot.yaml", []string{"snapshot", "-f", example, "-o", "yaml"}, 0},
		{"edge-dump-wide.txt", []string{"dump", "-f", "testdata/clusters/edge.yaml", "-o", "wide"}, 0},
		{"edge-requested.txt", []string{"requested", "-f", "testdata/clusters/edge.yaml"}, 0},
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
