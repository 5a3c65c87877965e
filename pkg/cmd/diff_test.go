package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// saveOutput runs a command and returns its stdout, which must succeed.
func saveOutput(t *testing.T, args ...string) string {
	t.Helper()
	r := run(t, "", args...)
	if r.code != 0 {
		t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
	}
	return r.stdout
}

// TestDiffGolden saves a dump and a snapshot of the compare test cluster
// (read back from stdin, so the output names no temporary file) and diffs
// them with the changed cluster.
func TestDiffGolden(t *testing.T) {
	dumpJSON := saveOutput(t, "dump", "-f", compareAgree, "-o", "json")
	snapYAML := saveOutput(t, "snapshot", "-f", compareAgree, "-o", "yaml")
	tests := []struct {
		golden, stdin string
		args          []string
		code          int
	}{
		{"diff-dump.txt", dumpJSON, []string{"diff", "-", "-f", compareChange}, ExitDiffer},
		{"diff-dump-wide.txt", dumpJSON, []string{"diff", "-", "-f", compareChange, "-o", "wide"}, ExitDiffer},
		{"diff-dump.json", dumpJSON, []string{"diff", "-", "-f", compareChange, "-o", "json"}, ExitDiffer},
		{"diff-snapshot.txt", snapYAML, []string{"diff", "-", "-f", compareChange, "-o", "wide"}, ExitDiffer},
		{"diff-identical.txt", dumpJSON, []string{"diff", "-", "-f", compareAgree}, ExitOK},
	}
	for _, tc := range tests {
		t.Run(tc.golden, func(t *testing.T) {
			r := run(t, tc.stdin, tc.args...)
			if r.code != tc.code {
				t.Fatalf("exit code %d, want %d; stderr:\n%s", r.code, tc.code, r.stderr)
			}
			checkGolden(t, tc.golden, r.stdout)
		})
	}
}

// TestDiffTwoFiles diffs two saved files (YAML and JSON) without a cluster.
func TestDiffTwoFiles(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.json")
	if err := os.WriteFile(a, []byte(saveOutput(t, "dump", "-f", compareAgree, "-o", "yaml")), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte(saveOutput(t, "dump", "-f", compareChange, "-o", "json")), 0o600); err != nil {
		t.Fatal(err)
	}
	r := run(t, "", "diff", a, b)
	if r.code != ExitDiffer || !strings.Contains(r.stdout, "1 added, 1 removed, 2 changed (10 differences)") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := run(t, "", "diff", b, b); r.code != ExitOK || !strings.HasSuffix(r.stdout, ": identical\n") {
		t.Fatalf("same file: exit %d\n%s", r.code, r.stdout)
	}
}

func TestDiffErrors(t *testing.T) {
	dir := t.TempDir()
	snap := filepath.Join(dir, "snap.json")
	if err := os.WriteFile(snap, []byte(saveOutput(t, "snapshot", "-f", compareAgree, "-o", "json")), 0o600); err != nil {
		t.Fatal(err)
	}
	dumpJSON := saveOutput(t, "dump", "-f", compareAgree, "-o", "json")
	for _, tc := range []struct {
		name, stdin string
		args        []string
		code        int
		want        string
	}{
		{"kinds differ", dumpJSON, []string{"diff", snap, "-"}, ExitError, "is a Snapshot and stdin a CacheDump"},
		{"not ours", "apiVersion: v1\nkind: Pod\n", []string{"diff", "-", snap}, ExitError, `kind "Pod"`},
		{"garbage", "{not json", []string{"diff", "-", snap}, ExitError, "stdin"},
		{"no args", "", []string{"diff"}, ExitUsage, "one or two"},
		{"three args", "", []string{"diff", snap, snap, snap}, ExitUsage, "one or two"},
		{"two saved and -f", "", []string{"diff", snap, snap, "-f", compareAgree}, ExitUsage, "nothing to read"},
		{"stdin twice", "", []string{"diff", "-", "-f", "-"}, ExitUsage, "stdin"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, tc.stdin, tc.args...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", r.code, r.stderr, tc.code, tc.want)
			}
		})
	}
}
