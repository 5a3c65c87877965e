package load

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	corev1 "k8s.io/api/core/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/schedcache/kubectl-schedcache/internal/gencluster"
)

// commonTestNode has every member the node walk reads, as a kubelet of
// v1.36 reports them, with a taint and an unschedulable flag.
const commonTestNode = `{"kind":"Node","apiVersion":"v1","metadata":{"name":"n1","uid":"u","resourceVersion":"7","selfLink":"/api/v1/nodes/n1",
 "creationTimestamp":"2026-01-02T03:04:05Z","labels":{"kubernetes.io/hostname":"n1","topology.kubernetes.io/zone":"z1","empty":""},
 "annotations":{"node.alpha.kubernetes.io/ttl":"0"}},
 "spec":{"podCIDR":"10.0.0.0/24","podCIDRs":["10.0.0.0/24","fd00::/64"],"providerID":"aws:///z1/i-1","unschedulable":true,"externalID":"n1",
  "taints":[{"key":"k","value":"v","effect":"NoSchedule","timeAdded":"2026-01-02T03:04:05Z"}]},
 "status":{"capacity":{"cpu":"4","memory":"16Gi","pods":"110"},"allocatable":{"cpu":"3920m","memory":"15Gi","pods":"110"},"phase":"Running",
  "conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":"2026-01-02T03:04:05Z","lastTransitionTime":"2026-01-02T03:04:05+02:00",
   "reason":"KubeletReady","message":"kubelet is posting ready status"},{"type":"MemoryPressure","status":"False","lastHeartbeatTime":null}],
  "addresses":[{"type":"InternalIP","address":"10.0.0.1"},{"type":"Hostname","address":"n1"}],
  "daemonEndpoints":{"kubeletEndpoint":{"Port":10250}},
  "nodeInfo":{"machineID":"m","systemUUID":"s","bootID":"b","kernelVersion":"6.8","osImage":"Ubuntu","containerRuntimeVersion":"containerd://2.1.4",
   "kubeletVersion":"v1.36.3","kubeProxyVersion":"","operatingSystem":"linux","architecture":"amd64","swap":{"capacity":0}},
  "images":[{"names":["img@sha256:1","img:v1"],"sizeBytes":10},{"names":["other:v2"],"sizeBytes":20},{"sizeBytes":0}],
  "config":{}}}`

// decodeNodeUsual decodes data the node decoder's json v2 way, without
// the walk.
func decodeNodeUsual(d *nodeDecoder, data []byte) (*corev1.Node, error) {
	node := &corev1.Node{}
	return node, jsonv2.Unmarshal(data, node, d.opts)
}

// nodeCheck decodes a text with the walk and the json v2 way, each with a
// node decoder of its own, so that a value one way shared never stands in
// for the other's.
type nodeCheck struct{ walk, usual *nodeDecoder }

func newNodeCheck() *nodeCheck { return &nodeCheck{walk: newNodeDecoder(), usual: newNodeDecoder()} }

// check fails tb when the walk takes data and the json v2 way refuses it
// or decodes another node; it reports whether the walk took data. Texts
// with duplicate names are left out: the cutter rejects them before any
// decoder sees them, and json v2 merges a repeated map where the walk
// replaces it.
func (c *nodeCheck) check(tb testing.TB, data []byte) bool {
	tb.Helper()
	got, walked := c.walk.decodeCommonCopied(data)
	if !walked || !jsontext.Value(data).IsValid(jsontext.AllowInvalidUTF8(true)) {
		return walked
	}
	want, err := decodeNodeUsual(c.usual, data)
	if err != nil {
		tb.Fatalf("the walk takes what json v2 refuses (%v):\n%q", err, data)
	}
	if !reflect.DeepEqual(got, want) {
		tb.Fatalf("decodes differently:\n%q\nwalk %+v\nv2   %+v", data, got, want)
	}
	return true
}

// TestCommonNodeMatchesNodeDecoder: on the nodes of every hack/gen-cluster
// shape, of the command fixtures and examples, and on nodes with what the
// walk gives up on, the node decoder decodes the same node as its json v2
// way; the walk decodes every gen-cluster node itself.
func TestCommonNodeMatchesNodeDecoder(t *testing.T) {
	c := newNodeCheck()
	d := newNodeDecoder()
	check := func(data []byte) bool {
		t.Helper()
		want, err := decodeNodeUsual(d, data)
		if err != nil {
			t.Fatalf("%v\n%s", err, data)
		}
		got, err := d.decode(data)
		if err != nil {
			t.Fatalf("%v\n%s", err, data)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decodes differently:\n%s\ngot  %+v\nwant %+v", data, got, want)
		}
		return c.check(t, data)
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, []byte(commonTestNode), "", "    "); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		node   string
		walked bool
	}{
		{commonTestNode, true},
		{indented.String(), true},
		{`{"kind":"Node","apiVersion":"v1","metadata":{"name":"n","labels":null,"annotations":{}},"status":{"images":[],"conditions":[]}}`, true},
		// Maps with escapes, invalid UTF-8 or null values: decoded by json v2
		// from their text.
		{`{"kind":"Node","apiVersion":"v1","metadata":{"labels":{"a":"b\u0041"},"annotations":{"c\u0041":"{\"d\":1}"}}}`, true},
		{"{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"labels\":{\"a\xff\":\"b\"},\"annotations\":{\"a\":\"\xc3\"}}}", true},
		{`{"kind":"Node","apiVersion":"v1","metadata":{"labels":{"a":null},"managedFields":[{"manager":"m","fieldsV1":{"f:x":{}}}]}}`, true},
		{`{"kind":"Node","apiVersion":"v1","metadata":{"name":"n"},"status":{"images":[null,{},{"names":null,"sizeBytes":5},{"names":[],"x":[1,{"y":null}]}]}}`, true},
		{`{"kind":"Node","apiVersion":"v1","spec":{"taints":[{"key":"a\u0041","value":"\"\\\/\b\f\n\r\t\ud800","effect":"NoSchedule"}]}}`, true},
		{"{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"status\":{\"images\":[{\"names\":[\"a\xff\"]}],\"runtimeHandlers\":[{\"name\":\"\\u00e9\"}]}}", true},
		// What it gives up on: the node is then decoded the json v2 way.
		{`{"kind":"Node","apiVersion":"v1","metadata":{"name":"n\u0041"}}`, false},
		{`{"kind":"Node","apiVersion":"v1","metadata":{"finalizers":[]}}`, false},
		{`{"kind":"Node","apiVersion":"v1","status":{"addresses":[{"type":"Hostname","address":"\u00e9"}]}}`, false},
		{`{"kind":"Node","apiVersion":"v1","spec":{"podCIDRs":[null]}}`, false},
		{`{"kind":"Node","apiVersion":"v1","metadata":{"generation":1}}`, false},
		{`{"kind":"Node","apiVersion":"v1","metadata":{"labels":{"a":"b"},"Labels":{"c":"d"}}}`, false},
		{`{"kind":"Node","apiVersion":"v1","spec":{"podCIDR":null}}`, false},
		{`{"kind":"Node","apiVersion":"v1","status":{"images":null}}`, false},
		{`{"kind":"Node","apiVersion":"v1","status":{"conditions":null}}`, false},
		{`{"kind":"Node","apiVersion":"v1","status":{"conditions":[null]}}`, false},
		{`{"kind":"Node","apiVersion":"v1","status":{"conditions":[{"type":"Ready","lastProbeTime":null}]}}`, false},
		{`{"kind":"Node","apiVersion":"v1","status":{"nodeInfo":{"bootID":"b","unknown":""}}}`, false},
		{`{"kind":"Node","apiVersion":"v1","status":{"volumesInUse":["v"],"runtimeHandlers":[{"name":"runc"}],"features":{}}}`, true},
		{`{"kind":"Node","apiVersion":"v1","status":{"allocatable":{"cpu":"1"},"capacity":null}}`, true},
		{`{"kind":"Node","apiVersion":"v1","status":{"allocatable":{"cpu":"1"},"phase":null}}`, false},
		{`{"kind":"Node","apiVersion":"v1","status":null}`, false},
	} {
		if walked := check([]byte(tc.node)); walked != tc.walked {
			t.Errorf("the walk took it: %v, want %v\n%s", walked, tc.walked, tc.node)
		}
	}
	for _, shape := range gencluster.Shapes {
		nodes, walked := 0, 0
		for _, it := range benchItemsShape(t, 20, 40, shape) {
			if it.gvk != nodeKind {
				continue
			}
			nodes++
			if check(it.raw) {
				walked++
			}
		}
		if nodes != 20 || walked != nodes {
			t.Errorf("shape %q: %d of %d nodes walked", shape, walked, nodes)
		}
	}
	fixtures, walked := 0, 0
	for _, data := range fixtureNodes(t) {
		fixtures++
		if check(data) {
			walked++
		} else {
			t.Errorf("not walked: %.300s", data)
		}
	}
	if fixtures < 100 || walked != fixtures {
		t.Errorf("%d of %d fixture nodes walked", walked, fixtures)
	}
	t.Logf("%d of %d fixture nodes walked", walked, fixtures)
}

// fixtureNodes returns the nodes of the command fixtures, the examples and
// this package's test files, as JSON (YAML converted as the reader does).
func fixtureNodes(t *testing.T) [][]byte {
	var nodes [][]byte
	for _, root := range []string{"testdata", "../../pkg/cmd/testdata", "../../examples"} {
		err := filepath.WalkDir(root, func(path string, e os.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(path, ".yaml") && !strings.HasSuffix(path, ".json") {
				return err
			}
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			docs := utilyaml.NewYAMLReader(bufio.NewReader(f))
			for {
				doc, err := docs.Read()
				if err == io.EOF {
					return nil
				}
				if err != nil {
					return nil // a file the reader's tests mean to be broken
				}
				if j, err := yaml.YAMLToJSON(doc); err == nil {
					nodes = appendNodes(nodes, j)
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return nodes
}

// appendNodes appends the Nodes of data, an object or a list of them.
func appendNodes(nodes [][]byte, data []byte) [][]byte {
	var obj struct {
		Kind  string
		Items []json.RawMessage
	}
	if json.Unmarshal(data, &obj) != nil {
		return nodes
	}
	if obj.Kind == "Node" {
		return append(nodes, data)
	}
	for _, item := range obj.Items {
		nodes = appendNodes(nodes, item)
	}
	return nodes
}

// TestCommonNodeOnMutations: every text made from a few nodes by
// overwriting, inserting or deleting one byte, anywhere, is decoded by
// the walk as json v2 decodes it, or given up on (nodeCheck). The nodes
// are the table's, compact and indented as kubectl writes them (a
// gen-cluster node, 7.5 KB, would take a minute; FuzzCommonNode starts
// from one).
func TestCommonNodeOnMutations(t *testing.T) {
	var indented bytes.Buffer
	if err := json.Indent(&indented, []byte(commonTestNode), "", " "); err != nil {
		t.Fatal(err)
	}
	seeds := [][]byte{[]byte(commonTestNode), indented.Bytes()}
	c := newNodeCheck()
	taken, texts := onMutations(t, seeds, true, func(data []byte) bool { return c.check(t, data) })
	t.Logf("the walk took %d of %d texts", taken, texts)
}

// FuzzCommonNode feeds arbitrary bytes to the node decoder's walk and
// checks it against the json v2 way (nodeCheck): a node it takes is one
// json v2 takes, decoded the same. Seeded with nodes that have every member
// it walks and a small-shape node.
func FuzzCommonNode(f *testing.F) {
	f.Add([]byte(commonTestNode))
	f.Add([]byte(`{"kind":"Node","apiVersion":"v1","metadata":{"labels":{"a\u0041":"b"}},"status":{"images":[null,{"names":["\u00e9"],"x":[1.5e3,{"y":true}]}]}}`))
	for _, it := range benchItemsShape(f, 2, 2, gencluster.ShapeSmall)[:1] {
		f.Add(it.raw)
	}
	c := newNodeCheck()
	f.Fuzz(func(t *testing.T, data []byte) {
		c.check(t, data)
	})
}

// BenchmarkNodeDecoderSmall decodes hack/gen-cluster's small-shape nodes
// (about 7.5 KB each, the nodes of every shape are alike) the node
// decoder's json v2 way ("v2") and with its walk ("walk"), in the same
// run, in CPU time per node (the process's).
func BenchmarkNodeDecoderSmall(b *testing.B) {
	var nodes [][]byte
	for _, it := range benchItemsShape(b, 500, 0, gencluster.ShapeSmall) {
		if it.gvk == nodeKind {
			nodes = append(nodes, it.raw)
		}
	}
	d := newNodeDecoder()
	decoders := map[string]func([]byte) bool{
		"v2":   func(data []byte) bool { _, err := decodeNodeUsual(d, data); return err == nil },
		"walk": func(data []byte) bool { _, ok := d.decodeCommonCopied(data); return ok },
	}
	benchDecoders(b, nodes, []string{"v2", "walk"}, decoders, "node")
}
