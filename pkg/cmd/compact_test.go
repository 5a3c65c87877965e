package cmd

import (
	"path/filepath"
	"testing"

	"github.com/schedcache/kubectl-schedcache/internal/load/loadtest"
)

// TestViewsSameWithoutCompaction runs every view over files with the
// reader's memory layer (the default) and without it (PlainReadEnv, i.e.
// load.FileOptions.Plain) and expects the same bytes on stdout and stderr
// and the same exit code: slimming, sharing and the pod decoder must
// change nothing a command prints.
func TestViewsSameWithoutCompaction(t *testing.T) {
	gen := loadtest.GenCluster(t, t.TempDir(), 20, 600)
	pending := fixture("pending")
	tests := [][]string{
		{"dump", "-f", gen},
		{"dump", "-f", gen, "-o", "json"},
		{"dump", "-f", gen, "--node", "node-0003"},
		{"dump", "-f", example, "-o", "yaml"},
		{"requested", "-f", gen, "-o", "wide"},
		{"requested", "-f", example, "-o", "json"},
		{"snapshot", "-f", gen, "-o", "json"},
		{"snapshot", "-f", fixture("affinity"), "-o", "wide"},
		{"next-nodes", "-f", gen, "-o", "yaml"},
		{"why", "-f", gen, "-A", "-o", "json"},
		{"why", "-f", pending, "-n", "apps", "big"},
		{"why", "-f", example, "ml/llama-finetune-worker-0", "-o", "json"},
		{"dump", "-f", filepath.Join("testdata", "clusters", "edge.yaml"), "-o", "json"},
		{"drain", "-f", fixture("drain"), "n1", "--force", "--ignore-daemonsets", "--delete-emptydir-data", "-o", "json"},
	}
	for _, args := range tests {
		t.Run(filepath.Base(args[0]+" "+args[len(args)-1]), func(t *testing.T) {
			t.Setenv(PlainReadEnv, "")
			compacted := run(t, "", args...)
			t.Setenv(PlainReadEnv, "1")
			plain := run(t, "", args...)
			if compacted.code != plain.code {
				t.Errorf("%v: exit code %d compacted, %d plain", args, compacted.code, plain.code)
			}
			if compacted.stdout != plain.stdout {
				t.Errorf("%v: stdout differs\n--- compacted\n%s\n--- plain\n%s", args, compacted.stdout, plain.stdout)
			}
			if compacted.stderr != plain.stderr {
				t.Errorf("%v: stderr differs\n--- compacted\n%s\n--- plain\n%s", args, compacted.stderr, plain.stderr)
			}
			if len(compacted.stdout) == 0 {
				t.Errorf("%v: printed nothing (%s)", args, compacted.stderr)
			}
		})
	}
}
