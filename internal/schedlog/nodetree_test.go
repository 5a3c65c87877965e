package schedlog

import (
	"errors"
	"strings"
	"testing"
)

// The records below are written as each release writes them (the
// NodeTree's calls in pkg/scheduler/{internal,backend}/cache/node_tree.go:
// Infof up to v1.20, InfoS "… in listed group …" after, logger.Info in
// v1.36), zone keys as GetZoneKey makes them (region + ":\x00:" + zone).

const treeV136 = `I1129 07:00:00.000001       1 server.go:164] "Starting Kubernetes Scheduler" version="v1.36.3"
I1129 07:00:00.100000       1 node_tree.go:65] "Added node to NodeTree" node="b-01" zone="r:\x00:b"
I1129 07:00:00.100001       1 node_tree.go:65] "Added node to NodeTree" node="a-03" zone="r:\x00:a"
I1129 07:00:00.100002       1 node_tree.go:65] "Added node to NodeTree" node="b-02" zone="r:\x00:b"
I1129 07:00:00.100003       1 node_tree.go:65] "Added node to NodeTree" node="a-01" zone="r:\x00:a"
I1129 07:00:00.100004       1 node_tree.go:65] "Added node to NodeTree" node="c-01" zone="r:\x00:c"
I1129 07:00:00.100005       1 node_tree.go:56] "Did not add to the NodeTree because it already exists" node="c-01"
I1129 07:00:05.000000       1 node_tree.go:79] "Removed node from NodeTree" node="b-01" zone="r:\x00:b"
I1129 07:00:05.000001       1 node_tree.go:79] "Removed node from NodeTree" node="b-02" zone="r:\x00:b"
I1129 07:00:06.000000       1 node_tree.go:65] "Added node to NodeTree" node="b-03" zone="r:\x00:b"
I1129 07:00:07.000000       1 node_tree.go:65] "Added node to NodeTree" node="x-1" zone=""
`

// TestParseNodeTreeReplays: zones in first-added order, an emptied zone
// dropped and added again last (b), names in added order, the duplicate
// ignored; the order is the round-robin of the zones.
func TestParseNodeTreeReplays(t *testing.T) {
	tree, err := ParseNodeTree(strings.NewReader(treeV136))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tree.Order(), " "); got != "a-03 c-01 b-03 x-1 a-01" {
		t.Errorf("order %q", got)
	}
	if tree.Version != "v1.36.3" || tree.StartLine != 1 || tree.Starts != 1 || tree.Records != 9 || tree.Encoding != Text {
		t.Errorf("%+v", tree)
	}
	if z, ok := tree.Zone("a-01"); !ok || z != "r:\x00:a" {
		t.Errorf("zone of a-01: %q %v", z, ok)
	}
	if _, ok := tree.Zone("b-01"); ok {
		t.Error("b-01 was removed")
	}
}

// TestParseNodeTreeLastStart: a second start (a restart, or `kubectl logs
// --previous` pasted before the current log) begins a new tree.
func TestParseNodeTreeLastStart(t *testing.T) {
	log := treeV136 + `I1129 08:00:00.000001       1 server.go:164] "Starting Kubernetes Scheduler" version="v1.36.3"
I1129 08:00:00.100000       1 node_tree.go:65] "Added node to NodeTree" node="c-01" zone="r:\x00:c"
I1129 08:00:00.100001       1 node_tree.go:65] "Added node to NodeTree" node="a-01" zone="r:\x00:a"
`
	tree, err := ParseNodeTree(strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tree.Order(), " "); got != "c-01 a-01" || tree.Starts != 2 || tree.StartLine != 12 || tree.Records != 2 {
		t.Errorf("order %q, %+v", got, tree)
	}
}

// TestParseNodeTreeForms: the Infof records of v1.18–v1.20 (with the
// timestamps of kubectl logs --timestamps), the InfoS records of
// v1.21–v1.35, and JSON (node as klog.KObj's {"name": …}, NUL as \u0000).
func TestParseNodeTreeForms(t *testing.T) {
	for _, tc := range []struct{ name, log, order string }{
		{"v1.18 Infof", `2026-11-29T07:00:00.000000001Z I1129 07:00:00.000001       1 server.go:192] Starting Kubernetes Scheduler version v1.18.20
2026-11-29T07:00:00.100000001Z I1129 07:00:00.100000       1 node_tree.go:86] Added node "n2" in group "r:\x00:b" to NodeTree
2026-11-29T07:00:00.100000001Z I1129 07:00:00.100001       1 node_tree.go:86] Added node "n1" in group "r:\x00:a" to NodeTree
2026-11-29T07:00:00.100000001Z I1129 07:00:00.100002       1 node_tree.go:86] Added node "n3" in group "r:\x00:b" to NodeTree
2026-11-29T07:00:00.100000001Z I1129 07:00:00.100003       1 node_tree.go:100] Removed node "n2" in group "r:\x00:b" from NodeTree
`, "n3 n1"},
		{"v1.2x InfoS", `I1129 07:00:00.100000       1 node_tree.go:65] "Added node in listed group to NodeTree" node="n2" zone=""
I1129 07:00:00.100001       1 node_tree.go:65] "Added node in listed group to NodeTree" node="n1" zone=""
I1129 07:00:00.100002       1 node_tree.go:79] "Removed node in listed group from NodeTree" node="n2" zone=""
I1129 07:00:00.100003       1 node_tree.go:65] "Added node in listed group to NodeTree" node="n2" zone=""
`, "n1 n2"},
		{"v1.36 JSON", `{"ts":1764399600000.1,"caller":"app/server.go:164","msg":"Starting Kubernetes Scheduler","v":0,"version":"v1.36.3"}
{"ts":1764399600100.1,"caller":"cache/node_tree.go:65","msg":"Added node to NodeTree","v":2,"node":{"name":"n2"},"zone":"r:\u0000:b"}
{"ts":1764399600100.2,"caller":"cache/node_tree.go:65","msg":"Added node to NodeTree","v":2,"node":{"name":"n1"},"zone":"r:\u0000:a"}
{"ts":1764399600100.3,"caller":"cache/node_tree.go:65","msg":"Added node to NodeTree","v":2,"node":{"name":"n3"},"zone":"r:\u0000:b"}
`, "n2 n1 n3"},
	} {
		tree, err := ParseNodeTree(strings.NewReader(tc.log))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := strings.Join(tree.Order(), " "); got != tc.order {
			t.Errorf("%s: order %q, want %q", tc.name, got, tc.order)
		}
	}
}

// TestParseNodeTreeDoubts: a log without records says how to get them; a
// log that starts after the scheduler's start has no StartLine and names
// the nodes removed without having been added; an unreadable record is
// an error at its line.
func TestParseNodeTreeDoubts(t *testing.T) {
	_, err := ParseNodeTree(strings.NewReader("I1129 07:00:00.000001       1 server.go:164] \"Starting Kubernetes Scheduler\" version=\"v1.36.3\"\n"))
	var none *NoNodeTreeError
	if !errors.As(err, &none) || !strings.Contains(err.Error(), "-v=2") {
		t.Errorf("no records: %v", err)
	}
	tree, err := ParseNodeTree(strings.NewReader(`I1129 07:00:05.000000       1 node_tree.go:79] "Removed node from NodeTree" node="old" zone=""
I1129 07:00:06.000000       1 node_tree.go:65] "Added node to NodeTree" node="new" zone=""
`))
	if err != nil || tree.StartLine != 0 || strings.Join(tree.Unknown, " ") != "old" || strings.Join(tree.Order(), " ") != "new" {
		t.Errorf("no start: %+v %v", tree, err)
	}
	_, err = ParseNodeTree(strings.NewReader("\n" + `I1129 07:00:06.000000       1 node_tree.go:65] "Added node to NodeTree" node="new"` + "\n"))
	var ferr *FormatError
	if !errors.As(err, &ferr) || ferr.Line != 2 {
		t.Errorf("bad record: %v", err)
	}
}
