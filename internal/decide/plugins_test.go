package decide

import "testing"

// noFit is a profile without NodeResourcesFit's Filter (it still scores).
const noFit = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
- schedulerName: no-fit
  plugins:
    filter:
      disabled:
      - name: NodeResourcesFit
`

// RunsFilter reads the framework's own plugin list: the default profile
// runs NodeResourcesFit's Filter (from MultiPoint), a profile that
// disables it at Filter does not, and no profile serves "other".
func TestRunsFilter(t *testing.T) {
	cfg, err := ParseConfig("nofit.yaml", []byte(noFit))
	if err != nil {
		t.Fatal(err)
	}
	e := cluster{nodes: nodes(node("n1")), config: cfg}.evaluator(t)
	for _, tc := range []struct {
		scheduler, plugin string
		want              bool
	}{
		{"default-scheduler", "NodeResourcesFit", true},
		{"default-scheduler", "TaintToleration", true},
		{"no-fit", "NodeResourcesFit", false},
		{"no-fit", "TaintToleration", true},
		{"other", "NodeResourcesFit", false},
	} {
		if got := e.RunsFilter(tc.scheduler, tc.plugin); got != tc.want {
			t.Errorf("%s %s: %v, want %v", tc.scheduler, tc.plugin, got, tc.want)
		}
	}
}
