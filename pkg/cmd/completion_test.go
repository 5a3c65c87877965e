package cmd

import (
	"strings"
	"testing"
)

// TestCompletion drives cobra's hidden __complete command, which the
// kubectl_complete-schedcache shim calls.
func TestCompletion(t *testing.T) {
	edge := "testdata/clusters/edge.yaml"
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"__complete", ""}, []string{"dump", "next-nodes", "requested", "snapshot", "version"}},
		{[]string{"__complete", "dump", "-f", edge, "--node", ""}, []string{"legacy", "plain"}},
		{[]string{"__complete", "dump", "-f", edge, "--node", "p"}, []string{"plain"}},
		{[]string{"__complete", "requested", "-f", edge, "--pod", "apps/"}, []string{"apps/gpu", "apps/sidecar", "apps/waiting"}},
	}
	for _, tc := range tests {
		r := run(t, "", tc.args...)
		for _, w := range tc.want {
			if !strings.Contains(r.stdout, w+"\n") && !strings.Contains(r.stdout, w+"\t") {
				t.Errorf("%v: completion lacks %q:\n%s", tc.args, w, r.stdout)
			}
		}
	}
	r := run(t, "", "__complete", "dump", "-f", edge, "--node", "p")
	if strings.Contains(r.stdout, "legacy") {
		t.Errorf("prefix not applied:\n%s", r.stdout)
	}
}

// TestCompletionFlags: -o, --sort-by, --columns, --kube-version, -n and
// the kubeconfig names, through __complete as the shim calls it. Each
// expected list is written by hand; the last line of cobra's answer is its
// directive (":4" no file completion, ":6" no file completion, no space after custom-columns=).
// Fixed lists (--kube-version) come whole: the shell filters them.
func TestCompletionFlags(t *testing.T) {
	withKubeconfig(t, "apps")
	edge := "testdata/clusters/edge.yaml"
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"__complete", "dump", "-o", "c"}, "csv\ncustom-columns=\n:4\n"},
		{[]string{"__complete", "dump", "-o", "cu"}, "custom-columns=\n:6\n"},
		{[]string{"__complete", "why", "-o", "w"}, "wide\n:4\n"},
		{[]string{"__complete", "requested", "--sort-by", "non"}, "non-zero-cpu\nnon-zero-memory\n:4\n"},
		{[]string{"__complete", "requested", "--sort-by", "cpu"}, "cpu\ncpu%\ncpu-free\n:4\n"},
		{[]string{"__complete", "requested", "--columns", "name,pods-"}, "name,pods-free\n:4\n"},
		{[]string{"__complete", "requested", "--pods", "--sort-by", "n"}, "namespace\nname\nnode\nnon-zero-cpu\nnon-zero-memory\n:4\n"},
		{[]string{"__complete", "requested", "--by", "namespace", "--sort-by", "n"}, "namespace\nnodes\nnon-zero-cpu\nnon-zero-memory\n:4\n"},
		{[]string{"__complete", "requested", "--by", ""}, "node\nnamespace\n:4\n"},
		{[]string{"__complete", "dump", "--columns", "name,z"}, "name,zone\n:4\n"},
		{[]string{"__complete", "snapshot", "--sort-by", "z"}, "zone\n:4\n"},
		{[]string{"__complete", "dump", "--kube-version", "v1.3"}, "v1.18\nv1.19\nv1.20\nv1.21\nv1.22\nv1.23\nv1.24\nv1.25\nv1.26\nv1.27\nv1.28\nv1.29\nv1.30\nv1.31\nv1.32\nv1.33\nv1.34\nv1.35\nv1.36\n:4\n"}, // the shell filters by prefix
		{[]string{"__complete", "dump", "-f", edge, "-n", ""}, "apps\ndefault\n:4\n"},
		{[]string{"__complete", "why", "-f", edge, "--namespace", "a"}, "apps\n:4\n"},
		{[]string{"__complete", "dump", "--context", ""}, "ctx-a\nctx-b\n:4\n"},
		{[]string{"__complete", "requested", "--cluster", "c-"}, "c-a\nc-b\n:4\n"},
		{[]string{"__complete", "snapshot", "--user", "u-b"}, "u-b\n:4\n"},
		{[]string{"__complete", "next-nodes", "--context", "ctx-b"}, "ctx-b\n:4\n"},
		{[]string{"__complete", "help", "d"}, "diff\ndrain\ndump\n:4\n"},
		{[]string{"__complete", "drain", "-f", "testdata/fixtures/drain.yaml", "n"}, "n1\nn2\nn3\n:4\n"},
		// why POD: pending pods only (apps/waiting; not the bound
		// apps/gpu, apps/sidecar), as NAME in the context's namespace
		// (apps), NAMESPACE/NAME once a "/" is typed; under -A, which
		// takes no POD argument, nothing.
		{[]string{"__complete", "why", "-f", edge, ""}, "waiting\n:4\n"},
		{[]string{"__complete", "why", "-f", edge, "-n", "default", ""}, ":4\n"},
		{[]string{"__complete", "why", "-f", edge, "apps/"}, "apps/waiting\n:4\n"},
		{[]string{"__complete", "why", "-f", edge, "-A", ""}, ":4\n"},
		// A pod flag takes any pod of the files, bound ones too.
		{[]string{"__complete", "requested", "-f", edge, "--pod", ""}, "gpu\nsidecar\nwaiting\n:4\n"},
	}
	for _, tc := range tests {
		r := run(t, "", tc.args...)
		if r.stdout != tc.want {
			t.Errorf("%v:\n%q\nwant\n%q", tc.args, r.stdout, tc.want)
		}
	}
}
