package views

import (
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedcache/kubectl-schedcache/internal/schedlog"
)

// TestLogOrderDoubts: a log without its start line, removing a node it
// never added, and a node the input has in another zone are warned of.
func TestLogOrderDoubts(t *testing.T) {
	log := `I1129 07:00:05.000000       1 node_tree.go:79] "Removed node from NodeTree" node="old" zone=""
I1129 07:00:06.000000       1 node_tree.go:65] "Added node to NodeTree" node="n1" zone="r:\x00:a"
I1129 07:00:06.000001       1 node_tree.go:65] "Added node to NodeTree" node="n2" zone="r:\x00:b"
`
	tree, err := schedlog.ParseNodeTree(strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	node := func(name, zone string) *v1.Node {
		return &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{v1.LabelTopologyRegion: "r", v1.LabelTopologyZone: zone}}}
	}
	nodes := []*v1.Node{node("n2", "b"), node("n1", "c")}
	o := MatchLogOrder("sched.log", tree, nodes)
	var got []string
	for _, n := range o.Notes() {
		got = append(got, strings.Join([]string{map[bool]string{true: "warning", false: "note"}[n.Warning], n.Text}, ": "))
	}
	want := []string{
		"note: node order: kube-scheduler's NodeTree, replayed from sched.log (3 NodeTree records from the log's first line)",
		`warning: node order: the scheduler log has no "Starting Kubernetes Scheduler" line: it may begin after the start, and the nodes received before are not in it`,
		"warning: node order: the scheduler log removes old without adding it first: lines are missing",
		`warning: node order: node n1 is in zone "r/a" in the scheduler log, another in the input: the input's zones are used, the log's order within them`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if names := o.Apply(nodes); names[0].Name != "n1" || names[1].Name != "n2" {
		t.Errorf("order: %s %s", names[0].Name, names[1].Name)
	}
}
