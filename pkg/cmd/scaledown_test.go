package cmd

import (
	"strings"
	"testing"
)

// TestScaleDownTotals: the group lines and the verdict of the greedy
// fixture (header of testdata/fixtures/scaledown-greedy.yaml): n1 (4 cpu,
// 8Gi, pool-a, minimum 0 from the status ConfigMap) is the one removable
// node of 4.
func TestScaleDownTotals(t *testing.T) {
	r := run(t, "", "scale-down", "-f", fixture("scaledown-greedy"))
	want := "group pool-a: 1 of 2 nodes removable (minimum 0), 4 cpu, 8Gi memory\n" +
		"1 of 4 nodes removable, freeing 4 cpu and 8Gi memory allocatable\n"
	if r.code != 0 || !strings.HasSuffix(r.stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant 0 and:\n%s", r.code, r.stderr, want)
	}
}

// TestScaleDownBounds: with a pool of 1 and no ratio, only n1 of the two
// non-empty candidates (n1, n2) is examined; the verdict says so.
func TestScaleDownBounds(t *testing.T) {
	r := run(t, "", "scale-down", "-f", fixture("scaledown-greedy"), "--scale-down-candidates-pool-ratio", "0",
		"--scale-down-candidates-pool-min-count", "1", "--columns", "node,result")
	if want := "NODE   RESULT\nn4     min-size-reached\nn1     removable\nn2     not-examined\nn3     not-under-threshold\n"; r.stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, want)
	}
	if !strings.HasSuffix(r.stderr, "1 of 4 nodes removable, freeing 4 cpu and 8Gi memory allocatable; 1 candidate not examined (pool of 1)\n") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
}

func TestScaleDownValidate(t *testing.T) {
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"n1", "-l", "a=b"}, "cannot specify both NODE arguments and -l/--selector"},
		{[]string{"--utilization-threshold", "1.5"}, "--utilization-threshold: 1.5 is not between 0 and 1"},
		{[]string{"--scale-down-candidates-pool-min-count", "-1"}, "--scale-down-candidates-pool-min-count: -1 is negative"},
		{[]string{"--scale-down-simulation-timeout", "-1s"}, "--scale-down-simulation-timeout: -1s is negative"},
		{[]string{"nope"}, `nodes "nope" not found`},
	} {
		r := run(t, "", append([]string{"scale-down", "-f", fixture("scaledown-greedy")}, tc.args...)...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, tc.err) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, r.code, r.stderr, ExitUsage, tc.err)
		}
	}
}

// TestReportScaleDown: report --scale-down marks the greedy fixture's one
// removable node (n1) on the grid, no other, and shows the verdict and the
// group rows (pool-a: 2 nodes, 1 removable, minimum 0, 4 cpu freed).
func TestReportScaleDown(t *testing.T) {
	r := run(t, "", "report", "-f", fixture("scaledown-greedy"), "--scale-down")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if got := strings.Count(r.stdout, " rm\" title=\"n1\n"); got != 1 || strings.Count(r.stdout, " rm\"") != 1 {
		t.Errorf("removable marks: n1 %d, all %d; want 1 and 1", got, strings.Count(r.stdout, " rm\""))
	}
	for _, want := range []string{
		`<p id="scale-down-verdict">1 of 4 nodes removable, freeing 4 cpu and 8Gi memory allocatable</p>`,
		"<tr><td>pool-a</td><td>2</td><td>1</td><td>0</td><td>4</td><td>8Gi</td></tr>",
		"scale-down: removable (1 in the removal order)",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if plain := run(t, "", "report", "-f", fixture("scaledown-greedy")); strings.Contains(plain.stdout, `id="scale-down"`) {
		t.Error("report without --scale-down shows a scale-down section")
	}
}
