package decide

import (
	"strings"
	"testing"
)

const twoProfiles = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
- schedulerName: bin-packing
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
`

// A second profile with MostAllocated scoring puts the pod on the fuller
// node, where the default profile (LeastAllocated) picks the emptier one;
// a pod naming neither profile is skipped.
func TestConfigProfiles(t *testing.T) {
	cfg, err := ParseConfig("two.yaml", []byte(twoProfiles))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(cfg.SchedulerNames(), ","); got != "default-scheduler,bin-packing" {
		t.Fatalf("profiles %s", got)
	}
	c := cluster{nodes: nodes(node("empty"), node("busy")), bound: pods(bound("x", "busy").Req(cpu("1"))), config: cfg}
	e := c.evaluator(t)
	for _, tc := range []struct{ scheduler, want string }{{"default-scheduler", "empty"}, {"bin-packing", "busy"}} {
		v := evaluate(t, e, pod("p-"+tc.scheduler).SchedulerName(tc.scheduler).Req(cpu("200m")).Obj())
		if v.Result != Scheduled || v.Node != tc.want || v.Profile != tc.scheduler {
			t.Errorf("%s: got %s on %q by %q, want %s", tc.scheduler, v.Result, v.Node, v.Profile, tc.want)
		}
	}
	if v := evaluate(t, e, pod("other").SchedulerName("other").Obj()); v.Result != Skipped {
		t.Errorf("other scheduler: got %s", v.Result)
	}
}

// Bad files get kube-scheduler's own decoding and validation errors.
func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"range", "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\npercentageOfNodesToScore: 101\n",
			"range.yaml: invalid KubeSchedulerConfiguration: percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]"},
		{"strict", "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nbogus: 1\n", `unknown field "bogus"`},
		{"kind", "apiVersion: v1\nkind: ConfigMap\n", "kind.yaml: "},
	} {
		_, err := ParseConfig(tc.name+".yaml", []byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}
